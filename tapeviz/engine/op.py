"""The op record, the registry, and `apply`: the one place that computes, records and emits.

An op is one block: a NumPy forward, one vector-Jacobian product per input written with
tapeviz ops (so a gradient taken under an outer tape is itself recorded), and formulas for
humans (`defop`). The op families in `ops/` wrap each one in a function that converts its
arguments and calls `apply`, which

1. runs the forward on the input values, with NumPy's warnings off;
2. builds a `Node` (node.py: op, parents, source line; no arrays) and the output `Tensor`s;
3. adds a `(node, inputs, outputs)` entry, the values the VJPs will need, to every tape of
   this thread that watches an input (`_record`); a value no VJP reads is kept as its shape
   and dtype only (`_saved`);
4. tells the subscribers, if any (`emit.op_event`).

The backward pass (backprop.py) walks those entries in reverse.
"""
from __future__ import annotations

from operator import attrgetter

import numpy as np

from .. import config as _config
from .. import events as _events
from . import dtypes as _dt
from .emit import op_event
from .errors import InvalidArgumentError, out_of_memory
# (the lineage and this thread's state are re-exported: the engine reaches them through op)
from .node import MAX_LINEAGE_DEPTH, Node, leaf_node, peek_node_id, watched_site  # noqa: F401
from .call_site import user_site
from .tensor import Tensor, ValueNotKept
from .threadstate import _IGNORE_ALL, _NUMPY_ERRSTATE, _local, call, forget_dead, here  # noqa: F401

REGISTRY: dict[str, "Op"] = {}


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


#: the ops whose float outputs a tape that records them does not watch. TensorFlow's tape
#: watches the outputs of every op it records, a Round's or a Floor's too (a gradient with
#: respect to them exists; through them, None), except StopGradient's
UNTRACKED_OUTPUTS = frozenset({"StopGradient"})

#: values with fewer elements than this are always kept whole (see `_saved`)
SMALL = 1024


def _shell(t):
    """`t` as the tape keeps it when its value is not needed (same id and lineage)."""
    return Tensor(ValueNotKept(t._value), t._node, t._id)


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
    if len(keep_in) < len(inputs) and _any_large(inputs):
        inputs = tuple([t if i in keep_in or t._value.size < SMALL or t._node is None or
                        type(t._node.op) is str else _shell(t) for i, t in enumerate(inputs)])
    if not keep_out and _any_large(outputs):
        outputs = tuple([t if t._value.size < SMALL else _shell(t) for t in outputs])
    return (node, inputs, outputs)


def _any_large(tensors) -> bool:
    """Whether a value of `tensors` has `SMALL` elements or more (a plain loop: an op has one
    or two, and `max(map(...))` costs more than it)."""
    for t in tensors:
        if t._value.size >= SMALL:
            return True
    return False


_EMPTY: dict = {}

#: what a kernel raises when it refuses its inputs (`apply` names the op, shapes and dtypes)
_REFUSED = (ValueError, TypeError, IndexError, np.linalg.LinAlgError)


def apply(op: Op, inputs: tuple, attrs: dict = _EMPTY):
    """Run `op` on tensors: compute, remember, record, tell. Returns the output tensor (a
    tuple of them for an op with several outputs).

    1. compute: the NumPy forward on the input values, NumPy's warnings off (NaN and Inf are
       results to explain); a kernel that refuses its inputs becomes TensorFlow's error,
       naming the op, the shapes and the dtypes, and a fix
    2. remember: a `Node` (the lineage: op, parent nodes, the user's source line) that the
       output tensors point to (none inside a backward pass that no tape records)
    3. record: an entry on every tape of this thread that watches an input (`_record`)
    4. tell: an `op_recorded` event, when someone listens (`op_event`)
    """
    state = _local.state
    values = _values_of(inputs)
    # (already quiet inside a backward pass, or in a kernel that runs ops of its own)
    run = call if _NUMPY_ERRSTATE.get() is _IGNORE_ALL else state.quiet_run
    try:   # (`**attrs` copies even an empty dict, and most ops have no attributes)
        out = run(op.forward, *values, **attrs) if attrs else run(op.forward, *values)
    except _REFUSED as exc:
        raise InvalidArgumentError(describe_failure(op, inputs, attrs, exc), op.name) from None
    except MemoryError as exc:   # TF's ResourceExhaustedError, naming the op and the sizes
        raise out_of_memory(op.name, exc, values) from None
    if state.backward and not state.recording:
        # the arithmetic of a gradient that no tape records: the results are the user's
        # gradients, leaves with no lineage; nothing to record, no event
        node = None
    else:
        # (the walk starts at the op function's caller: the op function is tapeviz's own)
        node = Node(op, inputs, user_site(3), attrs)
    if op.n_out == 1:
        y = Tensor(out if isinstance(out, _ARRAYS) else np.asarray(out), node)
        outputs = (y,)
    else:
        y = outputs = tuple([Tensor(a if isinstance(a, _ARRAYS) else np.asarray(a), node)
                             for a in out])
    if node is not None:
        node.out_ids = (y._id,) if op.n_out == 1 else tuple(map(_id_of, outputs))
        if state.recording:
            _record(state, op, node, inputs, outputs)
        if _events.OP_EVENTS:
            op_event(op, node, inputs, outputs)
    return y


_id_of = attrgetter("_id")


def _values_of(inputs) -> tuple:
    """The values of an op's input tensors. (Spelled out for one and two inputs, nearly every
    op: there `tuple(map(...))` costs three times as much.)"""
    if len(inputs) == 2:
        a, b = inputs
        return a._value, b._value
    if len(inputs) == 1:
        return inputs[0]._value,
    return tuple([t._value for t in inputs])


#: what a kernel returns (a Python number or list it returns is made an array); NumPy scalars
#: first: `isinstance` walks a scalar type's long MRO for each class it tries
_ARRAYS = (np.generic, np.ndarray)


def _record(state, op, node, inputs, outputs):
    """Add the call to every recording tape of this thread (`state`) that watches one of its
    inputs; its float outputs become watched by those tapes (see `UNTRACKED_OUTPUTS`)."""
    recorded = None
    in_ids = node.in_ids
    entry = None
    dead = False
    for ref in state.recording:
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
        if op.vjps is not None or op.name not in UNTRACKED_OUTPUTS:
            for o in outputs:
                if o._value.dtype.kind == "f":
                    ids.add(o._id)
        recorded = tape._only if recorded is None else recorded + (tape._id,)
    if recorded is not None:
        node.tapes = recorded
        scopes = state.scopes
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
    if "not invertible" in text:
        return ("Fix: the matrix is singular; look for a zero or repeated row or column, or "
                "regularise it, e.g. matrix + 1e-6 * tv.eye(n).")
    if "reshape" in text:
        return "Fix: the new shape must have the same number of elements (use -1 for one axis)."
    return "Fix: check the shapes and dtypes of the inputs."
