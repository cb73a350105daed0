"""Sorting, splitting and padding of `tnp`: sort, argsort, split, pad, append, diff, over
tapeviz's sort, split, pad and slicing ops (sort, pad and diff pass gradients back as theirs
do)."""
from __future__ import annotations

import numpy as np

from ...engine import ops as _ops
from ...engine.tensor import Tensor
from .promotion import array, asarray, cast
from .shapes import concatenate, ravel

__all__ = ["sort", "argsort", "split", "pad", "append", "diff"]


def _quicksort_only(kind, order, allowed=("quicksort",)):
    if kind not in allowed:
        raise ValueError(f"Invalid value for argument `kind`. Only kind="
                         f"{' and kind='.join(repr(k) for k in allowed)} supported. Received: "
                         f"kind={kind}".replace("'", '"'))
    if order is not None:
        raise ValueError("The `order` argument is not supported. Pass order=None")


def sort(a, axis=-1, kind="quicksort", order=None) -> Tensor:
    """The values sorted along `axis` (all of them, flattened, for axis=None)."""
    _quicksort_only(kind, order)
    a = array(a)
    if axis is None:
        return _ops.sort(_ops.reshape(a, [-1]), 0)
    return _ops.sort(a, axis)


def argsort(a, axis=-1, kind="quicksort", order=None) -> Tensor:
    """The int64 indices that sort `a` along `axis` ("stable" keeps ties in order)."""
    _quicksort_only(kind, order, ("quicksort", "stable"))
    a = array(a)
    if a.ndim == 0:
        out = asarray(np.array([0], np.int32))
    else:
        if axis is None:
            a, axis = _ops.reshape(a, [-1]), 0
        out = _ops.argsort(a, axis, stable=kind == "stable")
    return cast(out, np.intp)


def _boundaries_to_sizes(a, boundaries, axis):
    """np.split's boundaries as tf.split's sizes (empty pieces past the end, as NumPy)."""
    if axis >= a.ndim:
        raise ValueError(f"axis {axis} is out of bound for shape {a.shape}")
    total, sizes, used, prev = a.shape[axis], [], 0, 0
    for i, b in enumerate(boundaries):
        if b - prev < 0:
            raise ValueError(f"The {i}-th boundary {b} is smaller than the previous boundary "
                             f"{prev}")
        size = min(b - prev, max(0, total - used))
        sizes.append(size)
        used += size
        prev = b
    sizes.append(max(0, total - used))
    return sizes


def split(ary, indices_or_sections, axis=0):
    """`ary` cut into equal sections, or at the given indices, along `axis`."""
    ary = asarray(ary)
    if not isinstance(indices_or_sections, int):
        indices_or_sections = _boundaries_to_sizes(ary, indices_or_sections, axis)
    return _ops.split(ary, indices_or_sections, axis=axis)


def pad(array, pad_width, mode, **kwargs) -> Tensor:  # noqa: A002  (NumPy's names)
    """`array` padded by `pad_width` ((before, after) per axis): constant, reflect or
    symmetric."""
    if mode not in ("constant", "reflect", "symmetric"):
        raise ValueError("Unsupported padding mode: " + mode)
    pad_width = np.asarray(getattr(pad_width, "_value", pad_width), dtype=np.int32)
    return _ops.pad(asarray(array), pad_width.tolist(), mode=mode.upper(),
                    constant_values=kwargs.get("constant_values", 0))


def append(arr, values, axis=None) -> Tensor:
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis=axis)


def diff(a, n=1, axis=-1) -> Tensor:
    """The n-th differences along `axis` (for bools, where neighbours differ)."""
    a = asarray(a)
    nd = a.ndim
    if (axis + nd if axis < 0 else axis) >= nd:
        raise ValueError(f"Argument `axis` (received axis={axis}) is out of bounds for input "
                         f"of rank {nd}.")
    if n < 0:
        raise ValueError(f"Argument `order` must be a non-negative integer. Received: axis={n}")
    later, earlier = [slice(None)] * nd, [slice(None)] * nd
    later[axis], earlier[axis] = slice(1, None), slice(None, -1)
    op = _ops.not_equal if a._value.dtype == np.bool_ else _ops.subtract
    for _ in range(n):
        a = op(a[tuple(later)], a[tuple(earlier)])
    return a
