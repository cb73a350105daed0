"""What belongs to one thread, as in TensorFlow: its open tapes, name scopes, running gradient
calls and backward-pass flags. A tape records only the ops of the thread that entered it; a
name scope groups only its own thread's ops; an op belongs to a gradient call only when that
call's thread runs it.

`here()` is the one accessor: this thread's `ThreadState`, made on the thread's first call.
The hot path (`op.apply`) reads `_local.state` once per op and then plain slots.

The tape lists hold weak references: a tape entered and never exited stops recording when
the program drops it (`GradientTape.__del__` warns), instead of recording every later op of
the thread for ever. Dead references are dropped by the thread that owns the lists
(`forget_dead`), never by the thread that happens to collect the tape.
"""
from __future__ import annotations

import threading


class ThreadState:
    """One thread's tape state (see the module's docstring)."""

    __slots__ = ("open", "recording", "entered", "backward", "scopes", "lean", "quiet_lean",
                 "quiet_run", "variable_reads", "grad_cache")

    def __init__(self):
        import weakref
        #: weak references to the tapes inside their `with` block (recording or paused),
        #: innermost last
        self.open: list = []
        #: weak references to those of them not paused: the only ones that record
        self.recording: list = []
        #: every tape this thread entered and still referenced: an op on a closed tape's
        #: tensors is a ghost node ("outside_tape")
        self.entered = weakref.WeakSet()
        #: ids of the gradient calls running (the ops they run belong to them), innermost last
        self.backward: list = []
        #: name scopes (Keras layers) around the ops running now
        self.scopes: list = []
        #: True while a backward pass runs that no tape records: its ops then skip lineage
        #: and source lines (their results are gradients, leaves for the user)
        self.lean = False
        #: True while such a pass runs in the quiet NumPy context (`backprop.backward`): op
        #: functions then run their kernel through `op.lean_kernel`, without `apply`
        self.quiet_lean = False
        #: `run` of this thread's quiet NumPy context (`op._quiet_run`)
        self.quiet_run = None
        #: the list collecting the variables read inside a `custom_gradient` function
        self.variable_reads = None
        #: (upstream gradient, answer) of the last `grad_fn` call (custom.py)
        self.grad_cache = None


class _Local(threading.local):
    def __init__(self):
        self.state = ThreadState()


_local = _Local()


def here() -> ThreadState:
    """This thread's state."""
    return _local.state


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


def current_backward():
    """The gradient call this thread is running (innermost), or None."""
    running = here().backward
    return running[-1] if running else None


def current_scope() -> str:
    """This thread's name scope, e.g. "model/dense" ("" outside any): TensorFlow's
    `tf.get_current_name_scope()`."""
    return "/".join(here().scopes)


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
