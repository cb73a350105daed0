"""Ops that place, repeat or add up slices: `scatter_nd`, `repeat`, `add_n`, and
`nn.embedding_lookup` (a gather of rows). Each VJP is a gather or a sum of the upstream
gradient, so nested tapes and Jacobians reuse ops that already have theirs.
"""
from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from ..op import apply, defop
from ..tensor import Tensor
from ._base import dtype_mismatch, lead, shape_list, tensor
from .indexing import gather, getitem
from .axes import reshape


def _scatter_nd_forward(indices, updates, shape):
    out = np.zeros(shape, dtype=updates.dtype)
    np.add.at(out, tuple(np.moveaxis(np.asarray(indices), -1, 0)), updates)
    return out


def _scatter_nd_updates_vjp(g, y, indices, updates, shape):
    """The gradient of each update is the upstream gradient where it was added."""
    key = tuple(np.moveaxis(np.asarray(indices._value), -1, 0))
    return getitem(g, (slice(None),) * lead(g, y) + key)


_scatter_nd = defop("ScatterNd", _scatter_nd_forward, [None, _scatter_nd_updates_vjp],
                    "y = zeros(shape); y[indices] += updates",
                    ["(none: indices)", "∂updates = g[indices]"], saves=((0,), False))


def _checked(indices, updates, shape, op):
    """indices and updates as tensors that fit an output of `shape`, or TF's error for `op`."""
    i, u = tensor(indices), tensor(updates)
    if i._value.dtype.kind not in "iu":
        raise InvalidArgumentError(
            f"{op}: indices must be int32 or int64, got {i.dtype.name} with shape "
            f"{tuple(i.shape)}. Fix: tv.cast(indices, tv.int32) [Op:{op}]", op)
    depth = i._value.shape[-1] if i._value.ndim else 0
    want = tuple(i._value.shape[:-1]) + tuple(shape[depth:])
    if i._value.ndim == 0 or depth > len(shape) or tuple(u._value.shape) != want:
        raise InvalidArgumentError(
            f"{op}: updates of shape {tuple(u.shape)} do not fit indices of shape "
            f"{tuple(i.shape)} and an output of shape {tuple(shape)}: updates must have shape "
            f"indices.shape[:-1] + shape[indices.shape[-1]:] = {want}. Fix: one update (a "
            f"slice of the output) per index row [Op:{op}]", op)
    idx = np.asarray(i._value)
    bad = (idx < 0) | (idx >= np.asarray(shape[:depth], dtype=np.int64))
    if bad.any():
        row = int(np.argwhere(bad.any(axis=-1))[0][0])
        raise InvalidArgumentError(
            f"{op}: indices[{row}] = {idx.reshape(-1, depth)[row].tolist()} does not "
            f"index into shape {list(shape)}. Fix: keep index component k in [0, shape[k]) "
            f"[Op:{op}]", op)
    return i, u


def scatter_nd(indices, updates, shape, name=None):
    """A tensor of `shape`, zeros except `updates` added at `indices` (duplicates add up)."""
    shape = shape_list(shape)
    i, u = _checked(indices, updates, shape, "ScatterNd")
    return apply(_scatter_nd, (i, u), {"shape": tuple(shape)})


def _onto(tensor_, indices, updates, op):
    t = tensor(tensor_)
    i, u = _checked(indices, updates, list(t._value.shape), op)
    if u._value.dtype != t._value.dtype:
        raise dtype_mismatch(op, t, u, index=2)
    return t, i, u


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    """`tensor` with `updates` added at `indices` (duplicates add up)."""
    t, i, u = _onto(tensor, indices, updates, "TensorScatterAdd")
    return t + apply(_scatter_nd, (i, u), {"shape": tuple(t._value.shape)})


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    """`tensor` with the slices at `indices` replaced by `updates`; the gradient reaches
    `tensor` only where it was not replaced, as in TensorFlow."""
    from .elementwise import where
    t, i, u = _onto(tensor, indices, updates, "TensorScatterUpdate")
    shape = tuple(t._value.shape)
    hit = np.zeros(shape, dtype=bool)
    hit[tuple(np.moveaxis(np.asarray(i._value), -1, 0))] = True
    return where(Tensor(hit), apply(_scatter_nd, (i, u), {"shape": shape}), t)


def repeat(input, repeats, axis=None, name=None):
    """Repeat each element (axis=None: of the flattened input) or slice `repeats` times."""
    x = tensor(input)
    if axis is None:
        x = reshape(x, [-1])
        axis = 0
    n = x._value.shape[axis]
    counts = np.asarray(getattr(repeats, "_value", repeats)).reshape(-1)
    if counts.size not in (1, n):
        raise ValueError(f"Dimensions {n} and {counts.size} are not compatible: repeat got "
                         f"{counts.size} repeat counts for axis {axis} of size {n} (input "
                         f"shape {tuple(x.shape)}). Fix: one count per element of that axis, "
                         "or a single count for all")
    if counts.dtype.kind not in "iu" or (counts < 0).any():
        raise InvalidArgumentError(f"repeat: repeats must be non-negative integers, got "
                                   f"{counts.tolist()} for input shape {tuple(x.shape)}. Fix: "
                                   "pass ints >= 0", "Repeat")
    # a gather of each index as many times as it repeats: its gradient adds the copies back
    rows = np.repeat(np.arange(n, dtype=np.int32), np.broadcast_to(counts, (n,)))
    return gather(x, rows, axis=axis)


def add_n(inputs, name=None):
    """The elementwise sum of a list of tensors of one shape and dtype (no broadcasting)."""
    inputs = list(inputs) if isinstance(inputs, (list, tuple)) else None
    if not inputs:
        raise ValueError("Inputs must be an iterable of at least one Tensor/IndexedSlices with "
                         "the same dtype and shape. Fix: pass a non-empty list, e.g. "
                         "tv.add_n([a, b])")
    tensors = [tensor(t) for t in inputs]
    first = tensors[0]
    for j, t in enumerate(tensors[1:], 1):
        if t._value.dtype != first._value.dtype:
            raise dtype_mismatch("AddN", first, t, index=j)
        if t._value.shape != first._value.shape:
            raise InvalidArgumentError(
                f"Inputs to operation AddN of type AddN must have the same size and shape.  "
                f"Input 0: {list(first.shape)} != input {j}: {list(t.shape)}. Fix: add_n does "
                "not broadcast; tv.broadcast_to or reshape them first [Op:AddN]", "AddN")
    total = tensors[0]
    for t in tensors[1:]:
        total = total + t
    return total


def embedding_lookup(params, ids, max_norm=None, name=None):
    """Rows of `params` at `ids` (TensorFlow's `tf.nn.embedding_lookup`, one table)."""
    if isinstance(params, (list, tuple)):
        if len(params) != 1:
            raise ValueError(f"embedding_lookup: tapeviz takes one table, got a list of "
                             f"{len(params)} shards. Fix: tv.concat(params, axis=0) first")
        params = params[0]
    if max_norm is not None:
        raise ValueError("embedding_lookup: max_norm is not supported by tapeviz. Fix: clip "
                         "the rows yourself with tv.clip_by_norm(rows, max_norm, axes=[-1])")
    return gather(params, ids)


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype="int32",
                     name=None):
    """`m[i, j]`: how many (or what weight of) examples have label i and prediction j."""
    from .. import dtypes as dt
    y, p = (np.asarray(tensor(v)._value).reshape(-1) for v in (labels, predictions))
    if y.shape != p.shape:
        raise InvalidArgumentError(f"confusion_matrix: labels and predictions differ in size: "
                                   f"{y.size} vs. {p.size}. Fix: one prediction per label")
    for what, v in (("labels", y), ("predictions", p)):
        if v.size and v.min() < 0:
            raise InvalidArgumentError(f"`{what}` contains negative values. Condition x >= 0 "
                                       f"did not hold element-wise: {v.tolist()}")
    n = int(max(y.max(initial=-1), p.max(initial=-1)) + 1) if num_classes is None else int(
        num_classes)
    for what, v in (("labels", y), ("predictions", p)):
        if v.size and v.max() >= n:
            raise InvalidArgumentError(f"`{what}` out of bound. Condition x < y did not hold: "
                                       f"{what} {v.tolist()}, num_classes {n}")
    d = dt.as_dtype(dtype)
    w = (tensor(np.ones(y.shape, d.np)) if weights is None else
         reshape(tensor(weights, dtype_hint=d), [-1]))
    from .elementwise import cast
    pairs = tensor(np.stack([y, p], axis=-1).astype(np.int64))
    return apply(_scatter_nd, (pairs, cast(w, d)), {"shape": (n, n)})


__all__ = ["add_n", "repeat", "scatter_nd", "tensor_scatter_nd_add", "tensor_scatter_nd_update"]
