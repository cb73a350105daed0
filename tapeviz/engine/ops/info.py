"""Facts about a tensor as tensors: shape, size, rank (int32, no gradient); and the shape two
shapes broadcast to."""
from __future__ import annotations

import numpy as np

from .. import dtypes as dt
from ..errors import InvalidArgumentError
from ..node import leaf_node
from ..tensor import Tensor
from ._base import tensor


def shape(input, out_type=None, name=None) -> Tensor:
    x = tensor(input)
    d = dt.as_dtype(out_type).np if out_type is not None else np.int32
    return Tensor(np.asarray(x._value.shape, dtype=d), leaf_node("Shape"))


def size(input, out_type=None, name=None) -> Tensor:
    x = tensor(input)
    d = dt.as_dtype(out_type).np if out_type is not None else np.int32
    return Tensor(d.type(x._value.size) if hasattr(d, "type") else np.int32(x._value.size),
                  leaf_node("Size"))


def rank(input, name=None) -> Tensor:
    return Tensor(np.int32(tensor(input)._value.ndim), leaf_node("Rank"))


def _broadcast(a, b):
    """The broadcast of two shapes (tuples, None for an unknown size), or None if they
    are incompatible."""
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x == 1 or x == y:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif x is None or y is None:
            out.append(x if y is None else y)
        else:
            return None
    return tuple(reversed(out))


def broadcast_dynamic_shape(shape_x, shape_y) -> Tensor:
    """The shape two shapes (int vectors) broadcast to, as a tensor of their dtype."""
    x, y = tensor(shape_x), tensor(shape_y)
    out = _broadcast(tuple(x._value.tolist()), tuple(y._value.tolist()))
    if out is None:
        shapes = ",".join(map(str, x._value.tolist())), ",".join(map(str, y._value.tolist()))
        raise InvalidArgumentError(f"Incompatible shapes: [{shapes[0]}] vs. [{shapes[1]}]. Fix: "
                                   "each axis, counted from the last, must be equal or 1 in "
                                   "one of them [Op:BroadcastArgs]", "BroadcastArgs")
    return Tensor(np.asarray(out, x._value.dtype), leaf_node("BroadcastArgs"))


def broadcast_static_shape(shape_x, shape_y):
    """The TensorShape two TensorShapes broadcast to (unknown sizes stay unknown)."""
    from ..tensor import TensorShape
    out = _broadcast(tuple(shape_x.as_list()), tuple(shape_y.as_list()))
    if out is None:
        raise ValueError("Incompatible shapes for broadcasting. Two shapes are compatible if "
                         "for each dimension pair they are either equal or one of them is 1. "
                         f"Received: {tuple(shape_x.as_list())} and "
                         f"{tuple(shape_y.as_list())}.")
    return TensorShape(list(out))


__all__ = ["rank", "shape", "size", "broadcast_dynamic_shape", "broadcast_static_shape"]
