"""The op record, the registry, and `apply`: the one place that computes, records and emits.

An op is one block: a NumPy forward, one vector-Jacobian product per input written with
tapeviz ops (so a gradient taken under an outer tape is itself recorded), and formulas for
humans. Every op call builds a small `Node` (lineage: op, parents, source line; no arrays) so
that an explanation can later say what happened even to work no tape recorded. Each tape that
watches an input also keeps a `(node, inputs, outputs)` entry: the values the VJPs need.
"""
from __future__ import annotations

import contextvars

import numpy as np

from .. import config as _config
from .. import events as _events
from . import dtypes as _dt
from .errors import InvalidArgumentError
from .site import user_site
# what belongs to a thread (its open tapes, name scopes, gradient calls, backward-pass flags):
# `here()` is this thread's, `_local.state` the hot path's read of it
from .threadstate import _local, forget_dead, here  # noqa: F401

REGISTRY: dict[str, "Op"] = {}

#: Lineage deeper than this is cut, so a long loop of `x = x + 1` cannot grow memory forever.
MAX_LINEAGE_DEPTH = 512


class Op:
    """One operation: forward, VJPs, formulas."""

    __slots__ = ("name", "forward", "vjps", "formula", "grad_formulas", "n_out", "batchable",
                 "announced", "saves", "__weakref__")

    def __init__(self, name, forward, vjps=None, formula="", grad_formulas=(), n_out=1,
                 batchable=True, saves=None):
        self.name = name
        self.forward = forward
        self.vjps = tuple(vjps) if vjps is not None else None
        self.formula = formula
        self.grad_formulas = tuple(grad_formulas)
        self.n_out = n_out
        self.batchable = batchable      # VJPs accept extra leading (Jacobian batch) dims
        self.announced = False          # op_defined event sent in this process
        # what the VJPs read of the values: None (everything), or (indices of the inputs
        # whose values they read, whether they read the output's); the rest is kept on a
        # tape as its shape and dtype only (`ValueNotKept`), so it can be freed
        self.saves = saves

    @property
    def differentiable(self) -> bool:
        return self.vjps is not None

    def __repr__(self):
        return f"<Op {self.name}>"


def defop(name, forward, vjps=None, formula="", grads=(), n_out=1, batchable=True,
          saves=None) -> Op:
    """Register an op. `vjps[i](g, y, *inputs, **attrs)` returns the gradient for input i;
    `g` and `y` are tuples when the op has several outputs. `vjps=None`: not differentiable.
    `saves=(input indices, output?)` declares which values the VJPs read (default: all); the
    others may only be asked for their shape, dtype, ndim and size."""
    if name in REGISTRY:
        raise ValueError(f"op {name!r} is defined twice")
    op = REGISTRY[name] = Op(name, forward, vjps, formula, grads, n_out, batchable, saves)
    return op


class ValueNotKept:
    """A tape's stand-in for an array no VJP of its op reads: shape and dtype, no data (the
    array itself can be freed as soon as the user's code drops it, as NumPy code would)."""

    __slots__ = ("shape", "dtype", "ndim", "size")

    def __init__(self, value):
        self.shape, self.dtype, self.ndim, self.size = (value.shape, value.dtype, value.ndim,
                                                        value.size)

    def __repr__(self):
        return f"<value not kept: shape={self.shape} dtype={self.dtype}>"


#: values with fewer elements than this are always kept whole (see `_saved`)
SMALL = 1024


def _shell(t):
    """`t` as the tape keeps it when its value is not needed (same id and lineage)."""
    return _Tensor(ValueNotKept(t._value), t._node, t._id)


def _saved(op, node, inputs, outputs) -> tuple:
    """The tape entry of a call: everything, or only what the op's VJPs read (see `saves`).
    `tv.config.keep_values` keeps everything (`tape.show()` and `check_tape` want values)."""
    saves = op.saves
    if saves is None or _config.keep_values:
        return (node, inputs, outputs)
    keep_in, keep_out = saves
    # leaves (constants, variable reads: no op made them) are kept: they cost nothing more
    # (the user or the variable holds them) and they let an explanation recompute the rest;
    # so are small values (a stand-in costs more to make than they weigh)
    return (node,
            tuple([t if i in keep_in or t._value.size < SMALL or t._node is None or
                   type(t._node.op) is str else _shell(t) for i, t in enumerate(inputs)]),
            outputs if keep_out else
            tuple([t if t._value.size < SMALL else _shell(t) for t in outputs]))


class Node:
    """Lineage of one op call: what ran, on what, where. Holds no arrays."""

    __slots__ = ("id", "op", "parents", "in_ids", "out_ids", "site", "attrs", "depth",
                 "tapes", "scope", "__weakref__")

    def __init__(self, op, parents, in_ids, site, attrs):
        global _last_node_id
        # (no call between the read and the write: the GIL cannot switch threads there)
        self.id = _last_node_id = _last_node_id + 1
        self.op = op
        self.parents = parents
        self.in_ids = in_ids
        self.out_ids = ()
        self.site = site
        self.attrs = attrs
        depth = 0
        for p in parents:
            if p is not None and p.depth >= depth:
                depth = p.depth + 1
        if depth > MAX_LINEAGE_DEPTH:
            self.parents = ()
            depth = 0
        self.depth = depth
        self.tapes = ()     # ids of the tapes that recorded this call

    def __repr__(self):
        return f"<Node {self.id} {self.op if isinstance(self.op, str) else self.op.name}>"


_last_node_id = 0
_new_node = object.__new__


def peek_node_id() -> int:
    """The id the next node will get (tapes mark where they opened, closed and paused)."""
    return _last_node_id + 1


_WALK = object()   # leaf_node's default: take the user's source line


def leaf_node(kind: str, site=_WALK) -> Node | None:
    """The lineage of a tensor that no op produced: a constant, a variable, a NumPy result.
    ``site``: its source line, None for none; by default the user's line is taken."""
    if _local.state.lean:
        return None
    return Node(kind, (), (), user_site(2) if site is _WALK else site, None)


def watched_site(depth: int = 2):
    """The user's source line when a tape is open or someone listens (an explanation or an
    event may read it), else None: an assignment or an optimizer's update outside any tape
    skips the frame walk."""
    return user_site(depth + 1) if (_local.state.open or _events.ACTIVE) else None


_EMPTY: dict = {}

# NaN and Inf are results to explain, not warnings to print (TensorFlow prints nothing): each
# kernel runs inside a context whose NumPy error state (NumPy's own, private, context
# variable) is "ignore". Entering a ready-made context (`Context.run`) costs about a tenth of
# setting and resetting the variable around each kernel; each thread has its own context (a
# context can be entered by one thread at a time), its state's `quiet_run`.
try:
    from numpy._core._ufunc_config import _extobj_contextvar as _ERRSTATE
    from numpy._core.umath import _make_extobj
    _IGNORE = _make_extobj(all="ignore")
except ImportError:  # NumPy 1.x: no cheap switch; NumPy's warnings then show
    _ERRSTATE = None


def _call(f, *args, **kwargs):
    return f(*args, **kwargs)


#: calls `f(*args)` in C (Python 3.11+): what `apply` runs kernels with inside a backward pass
#: no tape records (`lean`) that `backprop.backward` runs in the quiet context as a whole
_direct = getattr(__import__("operator"), "call", _call)


def _quiet_run():
    """`run` of this thread's quiet context (`_call` when already inside it, or on NumPy 1)."""
    if _ERRSTATE is None or _ERRSTATE.get() is _IGNORE:
        return _call
    state = _local.state
    run = state.quiet_run
    if run is None:
        context = contextvars.Context()
        context.run(_ERRSTATE.set, _IGNORE)
        run = state.quiet_run = context.run
    return run


#: what a kernel raises when it refuses its inputs (`apply` names the op, shapes and dtypes)
_REFUSED = (ValueError, TypeError, IndexError, np.linalg.LinAlgError)


def apply(op: Op, inputs: tuple, attrs: dict = _EMPTY):
    """Run `op` on tensors and record it on every tape that watches one of its inputs."""
    state = _local.state
    if state.lean and _ERRSTATE is not None and _ERRSTATE.get() is _IGNORE:   # a quiet walk
        run = _direct
    else:
        run = state.quiet_run
        if run is None or _ERRSTATE.get() is _IGNORE:   # (the latter: an op inside a kernel)
            run = _quiet_run()
    n = len(inputs)
    try:
        # no list, `*` or `**` when there is nothing to spread: for the common one- and
        # two-input ops the call then costs about a quarter as much
        if attrs:
            out = run(op.forward, *[t._value for t in inputs], **attrs)
        elif n == 2:
            out = run(op.forward, inputs[0]._value, inputs[1]._value)
        elif n == 1:
            out = run(op.forward, inputs[0]._value)
        else:
            out = run(op.forward, *[t._value for t in inputs])
    except _REFUSED as exc:
        raise InvalidArgumentError(describe_failure(op, inputs, attrs, exc), op.name) from None
    except MemoryError as exc:   # TF's ResourceExhaustedError, naming the op and the sizes
        from .errors import out_of_memory
        raise out_of_memory(op.name, exc, [t._value for t in inputs]) from None
    if op.n_out != 1:
        return _apply_many(op, inputs, attrs, out)
    if type(out) is not np.ndarray and not isinstance(out, np.generic):
        out = np.asarray(out)
    if state.lean:
        return _Tensor(out)
    # the Node, built here rather than by Node(...): this runs for every op, and the call
    # would cost about a third of building it (see Node.__init__ for the rules)
    global _last_node_id
    node = _new_node(Node)
    node.id = _last_node_id = _last_node_id + 1
    node.op = op
    if n == 2:
        a, b = inputs
        pa, pb = a._node, b._node
        node.parents = (pa, pb)
        node.in_ids = (a._id, b._id)
        depth = 0 if pa is None else pa.depth + 1
        if pb is not None and pb.depth >= depth:
            depth = pb.depth + 1
    elif n == 1:
        a = inputs[0]
        pa = a._node
        node.parents = (pa,)
        node.in_ids = (a._id,)
        depth = 0 if pa is None else pa.depth + 1
    else:
        node.parents = parents = tuple([t._node for t in inputs])
        node.in_ids = tuple([t._id for t in inputs])
        depth = 0
        for p in parents:
            if p is not None and p.depth >= depth:
                depth = p.depth + 1
    if depth > MAX_LINEAGE_DEPTH:
        node.parents = ()
        depth = 0
    node.depth = depth
    node.site = user_site(2)
    node.attrs = attrs
    node.tapes = ()
    # the Tensor, also built here: Tensor(out, node) would cost a Python call more per op
    y = _new_tensor(_Tensor)
    y._value = out
    y._id = _next_id()
    y._node = node
    node.out_ids = (y._id,)
    recording = state.recording
    if recording:
        # `_record` for the usual single tape, without the call (a weak reference: see
        # threadstate; a collected tape is dropped by `_record`)
        if len(recording) == 1 and (tape := recording[0]()) is not None:
            if not tape._ids.isdisjoint(node.in_ids):
                # (`_saved` only when a stand-in could be made: every value is small, so it
                # would keep them all; a reduction's input can be large beside a small output)
                tape._entries.append((node, inputs, (y,))
                                     if op.saves is None or out.size < SMALL and n < 3 and
                                     inputs[0]._value.size < SMALL and
                                     inputs[-1]._value.size < SMALL
                                     else _saved(op, node, inputs, (y,)))
                if op.vjps is not None and out.dtype.kind == "f":
                    tape._ids.add(y._id)
                node.tapes = (tape._id,)
                # (a recorded op's name scope, for explanations: "the ReLU in dense_3")
                node.scope = "/".join(state.scopes) if state.scopes else ""
        else:
            _record(op, node, inputs, (y,))
    if _events.OP_EVENTS:
        if node.tapes and op.announced and _op_payload is not None:
            # `op_event`'s usual case, without its call: a recorded op of a known kind
            _events.emit_deferred(_OpRecorded, _op_payload, node, inputs, (y,), None,
                                  state.backward[-1] if state.backward else None,
                                  "/".join(state.scopes) if state.scopes else "",
                                  _events.config["value_limit"])
        else:
            _emit_op(op, node, inputs, (y,))
    return y


def lean_kernel(forward, *values):
    """What `apply` returns inside a quiet lean pass, for a one-output kernel: its result as a
    Tensor without lineage, or None when the kernel refused its inputs (the caller then goes
    through `apply`, which raises the error that names the op and the shapes)."""
    try:
        out = forward(*values)
    except _REFUSED + (MemoryError,):     # (`apply` reports an output too large, too)
        return None
    if type(out) is not np.ndarray and not isinstance(out, np.generic):
        out = np.asarray(out)
    y = _new_tensor(_Tensor)     # (Tensor(out) without its __init__ call: see apply)
    y._value = out
    y._id = _next_id()
    y._node = None
    return y


def _apply_many(op, inputs, attrs, out):
    """The end of `apply` for an op with several outputs."""
    values = [o if isinstance(o, (np.ndarray, np.generic)) else np.asarray(o) for o in out]
    if _local.state.lean:
        return tuple([_Tensor(v) for v in values])
    node = Node(op, tuple([t._node for t in inputs]), tuple([t._id for t in inputs]),
                user_site(3), attrs)
    outputs = tuple([_Tensor(v, node) for v in values])
    node.out_ids = tuple([t._id for t in outputs])
    if _local.state.recording:
        _record(op, node, inputs, outputs)
    if _events.OP_EVENTS:
        _emit_op(op, node, inputs, outputs)
    return outputs


_Tensor = None  # set by tensor.py: the Tensor class (avoids an import cycle in the hot path)
_next_id = None  # set by tensor.py: the next tensor id (Tensor.__init__'s counter)
_new_tensor = object.__new__


def _record(op, node, inputs, outputs):
    """Add the call to every recording tape that watches one of its inputs; the float
    outputs of a differentiable op become watched by those tapes."""
    recorded = None
    in_ids = node.in_ids
    entry = None
    dead = False
    for ref in _local.state.recording:
        tape = ref()
        if tape is None:    # dropped inside its `with` block (GradientTape.__del__ warned)
            dead = True
            continue
        ids = tape._ids
        if ids.isdisjoint(in_ids):
            continue
        if entry is None:
            entry = _saved(op, node, inputs, outputs)
        tape._entries.append(entry)
        if op.vjps is not None:
            for o in outputs:
                if o._value.dtype.kind == "f":
                    ids.add(o._id)
        recorded = (tape._id,) if recorded is None else recorded + (tape._id,)
    if recorded is not None:
        node.tapes = recorded
        scopes = _local.state.scopes
        node.scope = "/".join(scopes) if scopes else ""
    if dead:
        forget_dead()


def describe_failure(op, inputs, attrs, exc) -> str:
    """The message of an op that NumPy refused: the op, each input's shape and dtype, a fix."""
    parts = ", ".join(f"x{i}: shape={tuple(np.shape(t._value))} dtype={_dtype_name(t._value)}"
                      for i, t in enumerate(inputs))
    extra = f" with {attrs}" if attrs else ""
    hint = _hint(op, inputs, str(exc))
    return f"{op.name}{extra} cannot be computed on ({parts}): {exc}. {hint} [Op:{op.name}]"


def _dtype_name(value) -> str:
    try:
        return _dt.from_numpy(np.asarray(value).dtype).name
    except TypeError:
        return str(np.asarray(value).dtype)


def _hint(op, inputs, text) -> str:
    if "broadcast" in text or "Incompatible shapes" in text:
        return ("Fix: make the shapes broadcast-compatible (trailing dimensions equal or 1), "
                "e.g. with tv.reshape or tv.expand_dims.")
    if "matmul" in text or "mismatch in its core dimension" in text:
        return ("Fix: the inner dimensions must agree: (..., n, k) @ (..., k, m); "
                "transpose one operand (tv.transpose) or check the layer sizes.")
    if "reshape" in text:
        return "Fix: the new shape must have the same number of elements (use -1 for one axis)."
    return "Fix: check the shapes and dtypes of the inputs."


#: what `apply` reads for its inline op event, bound with `emit` on the first event
_op_payload = _OpRecorded = None


def _emit_op(op, node, inputs, outputs):
    global _emit_op, _op_payload, _OpRecorded
    from . import emit   # loaded on the first event: `import tapeviz` stays lean
    _emit_op = emit.op_event
    _OpRecorded = emit.OpRecorded
    _op_payload = emit._op_payload
    _emit_op(op, node, inputs, outputs)
