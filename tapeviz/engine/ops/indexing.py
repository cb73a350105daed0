"""Indexing ops: slicing and boolean masks (`x[key]`), gather, gather_nd, one_hot.

Their VJPs put `g` back where the values came from (`ScatterGrad`), keeping any leading
Jacobian batch dimensions in front.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes as dt
from ..errors import InvalidArgumentError
from ..op import apply, defop
from ._base import lead, norm_axis, tensor


def _index_key(key):
    """A NumPy index from a TF-style key (tensors become arrays, lists stay fancy)."""
    if isinstance(key, tuple):
        return tuple(_index_key(k) for k in key)
    if hasattr(key, "_value"):
        return np.asarray(key._value)
    return key


def _getitem_forward(x, key):
    out = x[key]
    if isinstance(out, np.ndarray):
        return out.copy()
    # (one element of a string tensor stays an object array, as every string tensor is)
    return np.asarray(out, dtype=object) if x.dtype == object else out


def _scatter_forward(g, x_like, key, k):
    out = np.zeros(g.shape[:k] + x_like.shape, dtype=g.dtype)
    np.add.at(out, (slice(None),) * k + (key if isinstance(key, tuple) else (key,)), g)
    return out


_getitem = defop("StridedSlice", _getitem_forward,
                 [lambda g, y, x, key: _scatter(g, x, key, lead(g, y))],
                 "y = x[key]", ["∂x = zeros with g put back at key"])
_scatter_op = defop("ScatterGrad", _scatter_forward,
                    [lambda g, y, gin, x, key, k: getitem(g, (slice(None),) * lead(g, y) +
                                                         (slice(None),) * k +
                                                         (key if isinstance(key, tuple)
                                                          else (key,))),
                     None],
                    "y = zeros_like(x); y[key] += g", ["∂g = g[key]", "(none)"])


def _scatter(g, x, key, k):
    return apply(_scatter_op, (g, x), {"key": key, "k": k})


def getitem(x, key):
    """`x[key]`: basic indexing and boolean masks as TensorFlow; integer arrays as extension."""
    x = tensor(x)
    key = _index_key(key)
    try:
        x._value[key]
    except (IndexError, ValueError, TypeError) as exc:
        if "only integers" in str(exc):
            raise TypeError(
                f"StridedSlice: only integers, slices (`:`), ellipsis (`...`), tv.newaxis "
                f"(`None`) and integer tensors are valid indices, got {key!r} for a tensor of "
                f"shape {tuple(x.shape)}. Fix: use int indices (int(i)) [Op:StridedSlice]"
            ) from None
        raise InvalidArgumentError(
            f"StridedSlice: index {key!r} is invalid for a tensor of shape "
            f"{tuple(x.shape)} and dtype {x.dtype.name}: {exc}. Fix: index axis k within "
            f"[-n, n) of its size n, with at most one index per axis and a non-zero step "
            f"[Op:StridedSlice]", "StridedSlice") from None
    return apply(_getitem, (x,), {"key": key})


def _gather_key(idx, params_shape, axis, batch_dims):
    """The NumPy index of `gather`: `params[key]` has TensorFlow's layout, params' axes before
    `axis`, then the indices' axes after the batch axes, then params' axes after `axis`.
    With batch axes, every axis before `axis` is indexed by a broadcast range, so all the
    index arrays sit side by side and NumPy keeps their axes where they are."""
    if not batch_dims:
        return (slice(None),) * axis + (idx,)
    inner = idx.shape[batch_dims:]
    rank = axis + len(inner)
    key = []
    for j in range(axis):
        shape = [1] * rank
        shape[j] = params_shape[j]
        key.append(np.arange(params_shape[j]).reshape(shape))
    key.append(idx.reshape(idx.shape[:batch_dims] + (1,) * (axis - batch_dims) + inner))
    return tuple(key)


def _gather_forward(p, i, axis, batch_dims):
    if not batch_dims:
        return np.take(p, i, axis=axis)
    return p[_gather_key(np.asarray(i), p.shape, axis, batch_dims)]


def _gather_vjp(g, y, params, indices, axis, batch_dims):
    key = _gather_key(np.asarray(indices._value), params._value.shape, axis, batch_dims)
    return _scatter(g, params, key, lead(g, y))


_gather = defop("GatherV2", _gather_forward, [_gather_vjp, None],
                "y = params[indices] along axis",
                ["∂params = g added back at the gathered rows", "(none: indices)"])


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """`params` at `indices` along `axis`; with `batch_dims`, the first axes of `params` and
    `indices` are shared batch axes (each batch row gathers from its own row), and `axis`
    defaults to `batch_dims`."""
    p = tensor(params)
    i = tensor(indices)
    if i._value.dtype.kind not in "iu":
        raise InvalidArgumentError(
            f"GatherV2: indices must be int32 or int64, got {i.dtype.name} with shape "
            f"{tuple(i.shape)} (params shape {tuple(p.shape)}). Fix: tv.cast(indices, tv.int32) "
            "[Op:GatherV2]", "GatherV2")
    rank = i._value.ndim
    if not isinstance(batch_dims, (int, np.integer)) or not -rank <= batch_dims <= rank:
        raise InvalidArgumentError(
            f"GatherV2: Expected batch_dims in the range [{-rank}, {rank}], but got "
            f"{batch_dims!r} (batch_dims={batch_dims!r} for params of shape {tuple(p.shape)} and"
            f" indices of shape {tuple(i.shape)}). Fix: batch_dims counts the leading axes params and indices "
            "share, at most the rank of indices [Op:GatherV2]", "GatherV2")
    axis = norm_axis(batch_dims if axis is None else axis, p._value.ndim, "GatherV2",
                     p.shape)[0]
    batch_dims = int(batch_dims) % rank if batch_dims < 0 else int(batch_dims)
    if axis == 0:       # (TensorFlow gathers rows then, whatever batch_dims says)
        batch_dims = 0
    if batch_dims > axis:
        raise InvalidArgumentError(
            f"GatherV2: batch_dims ({batch_dims}) must be less than or equal to axis ({axis})"
            f" for params of shape {tuple(p.shape)} and indices of shape {tuple(i.shape)}. "
            "Fix: gather along an axis after the batch axes [Op:GatherV2]", "GatherV2")
    for j in range(batch_dims):
        if p._value.shape[j] != i._value.shape[j]:
            raise InvalidArgumentError(
                f"GatherV2: params.shape[{j}]: {p._value.shape[j]} should be equal to "
                f"indices.shape[{j}]: {i._value.shape[j]} (params {tuple(p.shape)}, indices "
                f"{tuple(i.shape)}, batch_dims={batch_dims}). Fix: the batch axes of params "
                "and indices must have the same sizes [Op:GatherV2]", "GatherV2")
    n = p._value.shape[axis]
    if i._value.size and (i._value.min() < 0 or i._value.max() >= n):
        raise InvalidArgumentError(
            f"GatherV2: indices {np.asarray(i._value).tolist()} are not in [0, {n}) for params "
            f"of shape {tuple(p.shape)} (axis {axis}). Fix: keep every index in [0, {n}); "
            "negative indices are not allowed, as in TensorFlow [Op:GatherV2]", "GatherV2")
    return apply(_gather, (p, i), {"axis": axis, "batch_dims": batch_dims})


def _gather_nd_forward(p, i):
    i = np.asarray(i)
    return p[tuple(np.moveaxis(i, -1, 0))]


_gather_nd = defop("GatherNd", _gather_nd_forward,
                   [lambda g, y, p, i: _scatter(g, p, tuple(np.moveaxis(np.asarray(i._value),
                                                                         -1, 0)), lead(g, y)),
                    None],
                   "y = params[indices…]", ["∂params = g added back at the indices", "(none)"])


def gather_nd(params, indices, batch_dims=0, name=None):
    p, i = tensor(params), tensor(indices)
    if i._value.ndim == 0:
        raise InvalidArgumentError(
            f"GatherNd: indices must be at least a vector, got the scalar {i._value!r} (params "
            f"shape {tuple(p.shape)}). Fix: wrap it, e.g. [[i]] picks params[i] [Op:GatherNd]",
            "GatherNd")
    if i._value.shape[-1] > p._value.ndim:
        raise InvalidArgumentError(
            f"GatherNd: index innermost dimension {i._value.shape[-1]} exceeds the rank "
            f"{p._value.ndim} of params with shape {tuple(p.shape)} (indices shape "
            f"{tuple(i.shape)}). Fix: each index names at most {p._value.ndim} coordinates "
            f"(its last axis), e.g. [[0, 1]] [Op:GatherNd]", "GatherNd")
    idx = np.asarray(i._value)
    if idx.dtype.kind not in "iu":
        raise InvalidArgumentError(
            f"GatherNd: indices must be int32 or int64, got {i.dtype.name}. Fix: "
            "tv.cast(indices, tv.int32) [Op:GatherNd]", "GatherNd")
    limits = np.asarray(p._value.shape[:idx.shape[-1]])
    bad = (idx < 0) | (idx >= limits)
    if bad.any():
        where = np.argwhere(bad.any(axis=-1))[0]
        raise InvalidArgumentError(
            f"GatherNd: index {idx[tuple(where)].tolist()} does not index into params of shape "
            f"{tuple(p.shape)}. Fix: keep each index component k in [0, params.shape[k]) "
            "[Op:GatherNd]", "GatherNd")
    return apply(_gather_nd, (p, i))


def _one_hot_forward(i, depth, on, off, axis, dtype):
    i = np.asarray(i)
    eye = (np.arange(depth) == i[..., None])
    out = np.where(eye, on, off).astype(dtype)
    return np.moveaxis(out, -1, axis) if axis != -1 else out


_one_hot = defop("OneHot", _one_hot_forward, None, "y = one_hot(indices, depth)")


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    if isinstance(indices, np.ndarray) and indices.dtype.kind == "f":
        # TensorFlow converts a NumPy array to the indices' default dtype, int64, truncating
        # (labels loaded as float32 arrays); a float tensor or list is refused below, as there
        indices = indices.astype(np.int64)
    i = tensor(indices)
    if depth is None:
        raise ValueError("OneHot: depth is None. Fix: pass the number of classes, e.g. "
                         "tv.one_hot(labels, 10)")
    raw_depth = getattr(depth, "_value", depth)
    if isinstance(raw_depth, (bool, np.bool_)) or not isinstance(raw_depth, (int, np.integer)) \
            and not (isinstance(raw_depth, np.ndarray) and raw_depth.ndim == 0
                     and raw_depth.dtype.kind in "iu"):
        raise TypeError(f"OneHot: Cannot convert depth={depth!r} to EagerTensor of dtype int32 "
                        f"(indices shape {tuple(i.shape)}). Fix: pass the number of classes as "
                        "an int, e.g. tv.one_hot(labels, 10)")
    if i._value.dtype.kind not in "iu" or int(depth) < 0:
        raise InvalidArgumentError(
            f"OneHot: needs integer indices and depth >= 0, got indices of dtype {i.dtype.name} "
            f"(shape {tuple(i.shape)}) and depth {depth}. Fix: tv.cast(indices, tv.int32) and a "
            "non-negative depth [Op:OneHot]", "OneHot")
    dtype = dt.as_dtype(dtype) if dtype is not None else dt.float32
    on = 1 if on_value is None else on_value
    off = 0 if off_value is None else off_value
    for what, v in (("on_value", on), ("off_value", off)):
        if isinstance(v, (str, bytes)) and not dtype.is_string:
            raise TypeError(f"OneHot: Cannot convert {what}={v!r} to EagerTensor of dtype "
                            f"{dtype.name} (indices shape {tuple(i.shape)}, depth {depth}). "
                            "Fix: pass numbers, e.g. on_value=1.0, off_value=0.0")
    axis = -1 if axis is None else int(axis)
    return apply(_one_hot, (i,), {"depth": int(depth), "on": on, "off": off, "axis": axis,
                                  "dtype": dtype.np})


def boolean_mask(tensor_, mask, axis=None, name="boolean_mask"):
    """The slices of `tensor_` where `mask` is true, as TensorFlow composes it: the masked axes
    `axis:axis+mask.ndim` are flattened into one and the true positions gathered (so the
    gradient is that of reshape and gather, with no op of its own)."""
    from .axes import reshape, squeeze
    from .elementwise import where
    x, m = tensor(tensor_), tensor(mask)
    k = m._value.ndim
    if k == 0:
        raise ValueError("mask cannot be scalar. Fix: give one flag per row, e.g. "
                         f"tv.boolean_mask(x, [True, False]) for x of shape {tuple(x.shape)}")
    axis = 0 if axis is None else int(axis)
    # (TensorFlow slices the shape with `axis` as given: a negative axis is taken from the
    # end, and the mask must still fit inside the shape)
    masked = tuple(x._value.shape[axis:axis + k])
    if masked != tuple(m._value.shape):
        raise ValueError(f"Shapes {masked} and {tuple(m._value.shape)} are incompatible: "
                         f"boolean_mask of a tensor of shape {tuple(x.shape)} "
                         f"({x.dtype.name}) from axis {axis} needs a mask of shape {masked}. "
                         "Fix: give the mask the shape of the axes it selects along")
    shape = x._value.shape
    flat = reshape(x, list(shape[:axis]) + [int(np.prod(masked))] + list(shape[axis + k:]))
    indices = squeeze(where(reshape(m, [-1])), axis=[1])
    return gather(flat, indices, axis=axis)


__all__ = ["boolean_mask", "gather", "gather_nd", "getitem", "one_hot"]
