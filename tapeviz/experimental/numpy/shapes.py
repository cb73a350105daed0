"""Shapes and joins of `tnp`: reshape, transpose, expand_dims, concatenate, stack and their
NumPy relatives, over tapeviz's reshape/transpose/concat ops (so gradients flow back through
them as through `tf.reshape`)."""
from __future__ import annotations

import numpy as np

from ...engine import ops as _ops
from ...engine.tensor import Tensor, TensorShape
from .promotion import asarray, cast, promote, settings

__all__ = ["reshape", "ravel", "transpose", "swapaxes", "moveaxis", "expand_dims", "squeeze",
           "concatenate", "stack", "hstack", "vstack", "atleast_1d", "atleast_2d",
           "atleast_3d", "broadcast_to", "tile", "repeat", "flip", "nonzero", "shape", "ndim",
           "size", "take", "flatten", "fliplr", "flipud", "roll", "dstack", "broadcast_arrays",
           "meshgrid", "tril", "triu", "isscalar"]


def _ints(value):
    if isinstance(value, Tensor):
        return [int(v) for v in np.asarray(value._value).reshape(-1)]
    if isinstance(value, (int, np.integer)):
        return [int(value)]
    return [int(v) for v in value]


def reshape(a, newshape, order="C") -> Tensor:
    """`a` with shape `newshape` (one -1 is inferred); order "F" fills columns first."""
    if order not in ("C", "F"):
        raise ValueError(f"Unsupported order argument {order}")
    a = asarray(a)
    newshape = _ints(newshape)
    if order == "F":
        return _ops.transpose(_ops.reshape(_ops.transpose(a), newshape[::-1]))
    return _ops.reshape(a, newshape)


def reshape_method(a, *newshape, order="C", **kwargs) -> Tensor:
    """`t.reshape(2, 3)` or `t.reshape((2, 3))`, as NumPy's method."""
    if kwargs:
        raise ValueError(f"Unsupported arguments: {kwargs.keys()}")
    if len(newshape) == 1 and not isinstance(newshape[0], (int, np.integer)):
        newshape = newshape[0]
    return reshape(a, newshape, order=order)


def ravel(a) -> Tensor:
    return _ops.reshape(asarray(a), [-1])


def transpose(a, axes=None) -> Tensor:
    a = asarray(a)
    return _ops.transpose(a, perm=None if axes is None else _ints(axes))


def _axis(axis, ndim, what):
    if not -ndim <= axis < ndim:
        raise ValueError(f"tnp.{what}: axis {axis} is out of bounds for an array of rank "
                         f"{ndim}. Fix: an axis in [{-ndim}, {ndim - 1}]")
    return axis % ndim


def swapaxes(a, axis1, axis2) -> Tensor:
    a = asarray(a)
    perm = list(range(a.ndim))
    i, j = _axis(axis1, a.ndim, "swapaxes"), _axis(axis2, a.ndim, "swapaxes")
    perm[i], perm[j] = perm[j], perm[i]
    return _ops.transpose(a, perm)


def moveaxis(a, source, destination) -> Tensor:
    a = asarray(a)
    source = [_axis(s, a.ndim, "moveaxis") for s in _ints(source)]
    destination = [_axis(d, a.ndim, "moveaxis") for d in _ints(destination)]
    if len(source) != len(destination):
        raise ValueError("tnp.moveaxis: source and destination must have the same number of "
                         f"elements, got {source} and {destination}")
    perm = [i for i in range(a.ndim) if i not in source]
    for dest, src in sorted(zip(destination, source)):
        perm.insert(dest, src)
    return _ops.transpose(a, perm)


def expand_dims(a, axis) -> Tensor:
    return _ops.expand_dims(asarray(a), axis)


def squeeze(a, axis=None) -> Tensor:
    return _ops.squeeze(asarray(a), axis)


def concatenate(arys, axis=0) -> Tensor:
    """The arrays joined along `axis`, promoted to their common dtype."""
    if not isinstance(arys, (list, tuple)):
        arys = [arys]
    if not arys:
        raise ValueError("Need at least one array to concatenate.")
    return _ops.concat(promote(*arys), axis)


def stack(arrays, axis=0) -> Tensor:
    """The arrays stacked along a new axis, promoted to their common dtype."""
    if isinstance(arrays, Tensor):
        return arrays if axis == 0 else swapaxes(arrays, 0, axis)
    return _ops.stack(promote(*arrays), axis)


def atleast_1d(*arys):
    out = [_ops.reshape(a, [1]) if a.ndim == 0 else a for a in map(asarray, arys)]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys):
    out = []
    for a in map(asarray, arys):
        out.append(_ops.reshape(a, [1] * (2 - a.ndim) + list(a.shape)) if a.ndim < 2 else a)
    return out[0] if len(out) == 1 else out


def atleast_3d(*arys):
    out = []
    for a in map(asarray, arys):
        if a.ndim == 0:
            a = _ops.reshape(a, [1, 1, 1])
        elif a.ndim == 1:
            a = _ops.reshape(a, [1, a.shape[0], 1])
        elif a.ndim == 2:
            a = _ops.expand_dims(a, -1)
        out.append(a)
    return out[0] if len(out) == 1 else out


def _listed(result):
    return result if isinstance(result, list) else [result]


def hstack(tup) -> Tensor:
    arrays = promote(*_listed(atleast_1d(*tup)))
    return _ops.concat(arrays, axis=0 if arrays[0].ndim == 1 else 1)


def vstack(tup) -> Tensor:
    return _ops.concat(promote(*_listed(atleast_2d(*tup))), axis=0)


def broadcast_to(array, shape) -> Tensor:
    return _ops.broadcast_to(asarray(array), _ints(shape))


def tile(a, reps) -> Tensor:
    a = asarray(a)
    reps = _ints(reps)
    if len(reps) < a.ndim:
        reps = [1] * (a.ndim - len(reps)) + reps
    elif len(reps) > a.ndim:
        a = _ops.reshape(a, [1] * (len(reps) - a.ndim) + list(a.shape))
    return _ops.tile(a, reps)


def repeat(a, repeats, axis=None) -> Tensor:
    return _ops.repeat(asarray(a), repeats, axis=axis)


def flip(m, axis=None) -> Tensor:
    m = asarray(m)
    axes = list(range(m.ndim)) if axis is None else _ints(axis)
    return _ops.reverse(m, axes)


def take(a, indices, axis=None) -> Tensor:
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    return _ops.gather(a, asarray(indices), axis=axis)


def nonzero(a):
    """A list of one int64 array per axis: the indices of the non-zero elements."""
    a = asarray(a)
    return [asarray(np.asarray(i, dtype=np.int64)) for i in np.nonzero(np.asarray(a._value))]


def shape(a) -> TensorShape:
    return asarray(a).shape


def ndim(a) -> int:
    return asarray(a).ndim


def size(x, axis=None) -> int:
    if axis is not None:
        raise NotImplementedError("axis argument is not supported in the current `np.size` "
                                  "implementation")
    if isinstance(x, (int, float, np.int32, np.int64, np.float32, np.float64)):
        return 1
    return np.prod(asarray(x).shape, dtype=int)


def isscalar(num) -> bool:
    return ndim(num) == 0


def flatten(a, order="C") -> Tensor:
    a = asarray(a)
    if order in ("C", "A", "K"):
        return _ops.reshape(a, [-1])
    if order == "F":
        return _ops.reshape(_ops.transpose(a), [-1])
    raise ValueError("order can only be C, A, K (all row major) or F (column major).")


def fliplr(m) -> Tensor:
    return flip(m, 1)


def flipud(m) -> Tensor:
    return flip(m, 0)


def roll(a, shift, axis=None) -> Tensor:
    """`a` shifted by `shift` along `axis` (over all elements in order for axis=None)."""
    a = asarray(a)
    if axis is not None:
        return _ops.roll(a, shift, axis)
    return _ops.reshape(_ops.roll(_ops.reshape(a, [-1]), shift, 0), list(a.shape))


def dstack(tup) -> Tensor:
    return _ops.concat(promote(*_listed(atleast_3d(*tup))), axis=2)


def broadcast_arrays(*args, **kwargs):
    if kwargs.pop("subok", False):
        raise ValueError("subok=True is not supported.")
    if kwargs:
        raise ValueError(f"Received unsupported arguments {kwargs.keys()}")
    arrays = [asarray(a) for a in args]
    shape = list(np.broadcast_shapes(*(a.shape for a in arrays)))
    return [_ops.broadcast_to(a, shape) for a in arrays]


def meshgrid(*xi, **kwargs):
    if kwargs.get("sparse", False):
        raise ValueError("Function `meshgrid` does not support returning sparse arrays yet. "
                         f"Received: sparse={kwargs['sparse']}")
    if kwargs.get("copy", True) is not True:
        raise ValueError(f"Function `meshgrid` only supports copy=True. Received: "
                         f"copy={kwargs['copy']}")
    xi = [asarray(x) for x in xi]
    indexing = kwargs.get("indexing", "xy")
    dtypes = [np.result_type(x._value.dtype, xi[0]._value.dtype) for x in xi]
    if not settings.promotion or all(d == xi[0]._value.dtype for d in dtypes):
        return _ops.meshgrid(*xi, indexing=indexing)
    # TensorFlow multiplies each grid by ones of the first input's dtype: with NumPy's
    # promotion switched on, each grid has its own promoted dtype
    return [_ops.meshgrid(*(cast(x, dtype) for x in xi), indexing=indexing)[i]
            for i, dtype in enumerate(dtypes)]


def _triangle(m, k, keep_lower, name):
    m = asarray(m)
    if m.ndim < 2:
        raise ValueError(f"Argument to {name} must have rank at least 2")
    n_rows, n_cols = m.shape[-2:]
    mask = np.tri(n_rows, n_cols, k=k if keep_lower else k - 1, dtype=bool)
    if not keep_lower:
        mask = ~mask
    return _ops.where(np.broadcast_to(mask, m.shape), m, _ops.zeros_like(m))


def tril(m, k=0) -> Tensor:
    """`m` with the elements above the k-th diagonal zeroed."""
    return _triangle(m, k, True, "tril")


def triu(m, k=0) -> Tensor:
    """`m` with the elements below the k-th diagonal zeroed."""
    return _triangle(m, k, False, "triu")
