"""`tape.jacobian` and `tape.batch_jacobian`: one vectorized backward pass each.

The upstream gradient is a batch of one-hot rows; every VJP rule accepts extra leading
dimensions, so the whole Jacobian comes out of a single walk. Ops that cannot take a batch
(custom gradients) fall back to one backward pass per row.
"""
from __future__ import annotations

import numpy as np

from . import nest
from . import op as _op
from .backprop import NeedsLoop, backward
from .tape import UnconnectedGradients, _as_target, _sources, _unconnected
from .tensor import Tensor


# Jacobians and Hessians are shown as heatmaps: their events carry the values (up to this
# many numbers), not only a summary
VALUE_LIMIT = 4096

def jacobian(tape, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
             use_pfor=True):
    """The full Jacobian, shaped `target.shape + source.shape`, for each source.

    Computed in one vectorized backward pass (a batch of one-hot upstream gradients)."""
    unconnected = _unconnected(unconnected_gradients)
    tape._check_loop_allowed("jacobian", use_pfor)
    tape._check_usable("jacobian")
    t = _as_target(target)
    flat_sources = _sources(sources)
    n = int(t._value.size)
    eye = np.eye(n, dtype=t._value.dtype).reshape((n,) + t._value.shape)
    call = tape._start("jacobian", [t], flat_sources, unconnected)
    try:
        grads = _batched(tape, t, eye, flat_sources)
    finally:
        tape._end_call(call)
    from .ops import reshape, zeros
    results = []
    for s in flat_sources:
        g = grads.get(s._id)
        shape = tuple(t._value.shape) + tuple(s._value.shape)
        if g is None:
            results.append(zeros(shape, s.dtype) if unconnected == "zero"
                           and s._value.dtype.kind == "f" else None)
        else:
            results.append(reshape(g, shape))
    tape._finish(call, [t], flat_sources, results, None, unconnected,
                 value_limit=VALUE_LIMIT)
    return nest.pack_sequence_as(sources, results)

def batch_jacobian(tape, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                   use_pfor=True):
    """Per-example Jacobian: shape `(batch,) + target.shape[1:] + source.shape[1:]`."""
    unconnected = _unconnected(unconnected_gradients)
    if tape._used:
        tape._check_usable("batch_jacobian")   # a used one-shot tape: that error first
    t = _as_target(target)
    s = _sources(source)[0]
    for what, x in (("target", t), ("source", s)):
        if x._value.ndim < 2:      # TensorFlow: Shape (3,) must have rank at least 2
            raise ValueError(f"batch_jacobian: the {what} shape {tuple(x.shape)} must have rank "
                             f"at least 2 (target {tuple(t.shape)}, source {tuple(s.shape)}). "
                             "Fix: batch both along axis 0 with at least one more axis each "
                             "(reshape to (batch, 1)), or use jacobian")
    if t._value.shape[0] != s._value.shape[0]:
        raise ValueError(f"batch_jacobian: need first dimension of target shape "
                         f"{tuple(t.shape)} and source shape {tuple(s.shape)} to match. Fix: "
                         "both must be batched along axis 0 with the same batch size (use "
                         "jacobian for unbatched tensors)")
    tape._check_loop_allowed("batch_jacobian", use_pfor)
    tape._check_usable("batch_jacobian")    # (after the checks: a refused call stops nothing)
    b = t._value.shape[0]
    rest = t._value.shape[1:]
    m = int(np.prod(rest, dtype=np.int64))
    up = np.zeros((m, b, m), dtype=t._value.dtype)
    up[np.arange(m), :, np.arange(m)] = 1
    up = up.reshape((m, b) + rest)
    call = tape._start("batch_jacobian", [t], [s], unconnected)
    try:
        grads = _batched(tape, t, up, [s])
    finally:
        tape._end_call(call)
    from .ops import reshape, transpose, zeros
    g = grads.get(s._id)
    shape = (b,) + tuple(rest) + tuple(s._value.shape[1:])
    if g is None:   # TensorFlow answers zeros here whatever unconnected_gradients says
        result = zeros(shape, t.dtype)
    else:
        perm = [1, 0] + list(range(2, g._value.ndim))
        result = reshape(transpose(g, perm), shape)
    tape._finish(call, [t], [s], [result], None, unconnected, value_limit=VALUE_LIMIT)
    return result

def _batched(tape, t, upstream, flat_sources):
    from .ops import stack
    ids = {s._id for s in flat_sources}
    up = Tensor(upstream, _op.leaf_node("Const"))
    try:
        return backward(tape, [t], [up], ids, batch=1)
    except NeedsLoop:
        rows = [backward(tape, [t], [Tensor(upstream[i], _op.leaf_node("Const"))], ids)
                for i in range(upstream.shape[0])]
        out = {}
        for s in flat_sources:
            parts = [r.get(s._id) for r in rows]
            if all(p is None for p in parts):
                continue
            from .ops import zeros_like
            out[s._id] = stack([p if p is not None else zeros_like(s) for p in parts])
        return out

