"""What belongs to one thread, as in TensorFlow: its open tapes, name scopes and running
gradient calls. A tape records only the ops of the thread that entered it; a name scope
groups only its own thread's ops; an op belongs to a gradient call only when that call's
thread runs it.

`here()` is the one accessor: this thread's `ThreadState`, made on the thread's first call.
The hot path (`op.apply`) reads `_local.state` once per op and then plain slots. Each
thread also has its own quiet NumPy context, in which kernels run (`quiet_runner`).

The tape lists hold weak references: a tape entered and never exited stops recording when
the program drops it (`GradientTape.__del__` warns), instead of recording every later op of
the thread for ever. Dead references are dropped by the thread that owns the lists
(`forget_dead`), never by the thread that happens to collect the tape.
"""
from __future__ import annotations

import contextlib
import contextvars
import operator
import threading

# NaN and Inf are results to explain, not warnings to print (TensorFlow prints nothing): ops
# run their kernels inside a context whose NumPy error state is "ignore" (private_apis.py, 8). A
# context can be entered by one thread at a time: each thread has its own
# (`ThreadState.quiet_run`).
from ..private_apis import IGNORE_ALL as _IGNORE_ALL, NUMPY_ERRSTATE as _NUMPY_ERRSTATE

#: `call(f, *args)` is `f(*args)`: how a kernel runs when the quiet context is already entered
call = getattr(operator, "call", lambda f, *args, **kwargs: f(*args, **kwargs))


class ThreadState:
    """One thread's tape state (see the module's docstring)."""

    __slots__ = ("open", "recording", "entered", "backward", "scopes", "quiet_run",
                 "variable_reads", "grad_cache", "traces")

    def __init__(self):
        #: weak references to the tapes inside their `with` block (recording or paused),
        #: innermost last
        self.open: list = []
        #: weak references to those of them not paused: the only ones that record
        self.recording: list = []
        #: weak references to every tape this thread entered and still referenced (each
        #: removes itself when its tape goes): an op on a closed tape's tensors is a ghost
        #: node ("outside_tape"). (A set of references, not a WeakSet: an op event walks it,
        #: and a WeakSet's iterator is Python code.)
        self.entered: set = set()
        #: ids of the gradient calls running (the ops they run belong to them), innermost last
        self.backward: list = []
        #: name scopes (Keras layers) around the ops running now
        self.scopes: list = []
        #: `run` of this thread's quiet NumPy context (see `quiet_runner`)
        context = contextvars.Context()
        context.run(_NUMPY_ERRSTATE.set, _IGNORE_ALL)
        self.quiet_run = context.run
        #: the list collecting the variables read inside a `custom_gradient` function
        self.variable_reads = None
        #: (upstream gradient, answer) of the last `grad_fn` call (custom.py)
        self.grad_cache = None
        #: the calls TensorFlow would run as a graph (a `tf.function`, Keras's compiled step)
        #: running now, innermost last, each as a function giving its trace's key (`traced`)
        self.traces: list = []


class _Local(threading.local):
    def __init__(self):
        self.state = ThreadState()


_local = _Local()


def here() -> ThreadState:
    """This thread's state."""
    return _local.state


def quiet_runner():
    """`run(f, *args)`, which calls `f(*args)` with NumPy's warnings off: this thread's quiet
    context's `run`, or a plain `call` inside it (a kernel's own ops, a backward pass)."""
    return call if _NUMPY_ERRSTATE.get() is _IGNORE_ALL else _local.state.quiet_run


def quietly(f, *args, **kwargs):
    """`f(*args, **kwargs)` with NumPy's warnings off."""
    return quiet_runner()(f, *args, **kwargs)


def tapes(refs: list) -> list:
    """The tapes of `refs` (this thread's `open` or `recording`) that are still alive."""
    found = [tape for tape in [ref() for ref in refs] if tape is not None]
    if len(found) != len(refs):
        forget_dead()
    return found


def forget_dead() -> None:
    """Drop the references to collected tapes from this thread's lists."""
    state = _local.state
    state.open[:] = [ref for ref in state.open if ref() is not None]
    state.recording[:] = [ref for ref in state.recording if ref() is not None]


@contextlib.contextmanager
def unrecorded():
    """Ops inside keep no lineage, no tape records them and no event reports them: work on
    stand-in values (Keras's shape inference of a symbolic call). It is the rule `op.apply`
    follows for the arithmetic of a gradient call no tape records, so it takes that shape:
    a backward pass (with no call to name) and no recording tape."""
    state = here()
    recording = state.recording
    state.backward.append(None)
    state.recording = []
    try:
        yield
    finally:
        state.recording = recording
        state.backward.pop()


@contextlib.contextmanager
def traced(trace_key=None):
    """Code TensorFlow runs as a graph (a `tf.function`, Keras's compiled `fit` step), when
    `trace_key` is given: a function returning what names the trace TensorFlow would run
    (called only when asked, by `current_trace`). There the output of a Softmax or Sigmoid op
    keeps its input, whose logits Keras's crossentropies read (keras/cached_logits.py), and
    tf-keras's Nadam updates as that trace would (keras/optimizers_nadam.py). With None the
    code runs eagerly, and nothing changes."""
    if trace_key is None:
        yield
        return
    traces = here().traces
    traces.append(trace_key)
    try:
        yield
    finally:
        traces.pop()


def current_trace():
    """The trace TensorFlow would run for the innermost graph call (`traced`) running in this
    thread, or None when none runs."""
    traces = here().traces
    return traces[-1]() if traces else None


def graph_output(y, x, is_graph_op=True):
    """`y`, the output of a Softmax or Sigmoid op on `x`: inside a `traced` call it keeps `x`
    as the graph's op would (not where TensorFlow's graph has another op last: its softmax
    over any axis but the last transposes around the Softmax op)."""
    if is_graph_op and _local.state.traces:
        y._keras_logits = x
    return y


def current_backward():
    """The gradient call this thread is running (innermost), or None."""
    running = here().backward
    return running[-1] if running else None


def current_scope() -> str:
    """This thread's name scope, e.g. "model/dense" ("" outside any): TensorFlow's
    `tf.get_current_name_scope()`."""
    return "/".join(here().scopes)


class outside_name_scopes:
    """`with outside_name_scopes():` no name scope is open inside (what TensorFlow's
    `init_scope` gives a Sequential model building its layers)."""

    def __enter__(self):
        state = here()
        self._saved, state.scopes = state.scopes, []

    def __exit__(self, *exc):
        here().scopes = self._saved


class name_scope:
    """`with tv.name_scope("dense"):` groups the ops inside it in the dashboard (the ops of
    this thread only: scopes are per thread, as TensorFlow's)."""

    def __init__(self, name):
        self.name = str(name)

    def __enter__(self):
        self._scopes = here().scopes
        self._scopes.append(self.name)
        return self.name

    def __exit__(self, *exc):
        self._scopes.pop()
