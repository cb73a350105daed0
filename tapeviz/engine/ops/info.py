"""Facts about a tensor as tensors: shape, size, rank (int32, no gradient)."""
from __future__ import annotations

import numpy as np

from .. import dtypes as dt
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


__all__ = ["rank", "shape", "size"]
