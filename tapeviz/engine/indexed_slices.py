"""`tv.IndexedSlices`: a sparse gradient, rows `values` at row `indices` of a tensor of
`dense_shape`, as TensorFlow returns for a gather from a variable or a watched tensor.

It is what TensorFlow makes of it: ops convert it to a dense tensor (`convert_to_tensor`,
`tv.multiply(g, 2.0)`), Python's arithmetic operators refuse it (TypeError, as TensorFlow),
and duplicate indices add up. The backward pass builds one (`from_gathers`) when every
gradient a source receives comes from gathers along axis 0 of that very source.
"""
from __future__ import annotations

import numpy as np

from .tensor import Tensor, TensorShape


class IndexedSlices:
    """Sparse rows of a tensor: `dense[indices[i]] += values[i]`."""

    __slots__ = ("_values", "_indices", "_dense_shape")

    def __init__(self, values, indices, dense_shape=None):
        from .convert import convert_to_tensor
        self._values = convert_to_tensor(values)
        self._indices = convert_to_tensor(indices)
        self._dense_shape = None if dense_shape is None else convert_to_tensor(dense_shape)

    @property
    def values(self) -> Tensor:
        return self._values

    @property
    def indices(self) -> Tensor:
        return self._indices

    @property
    def dense_shape(self):
        return self._dense_shape

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def shape(self) -> TensorShape:
        if self._dense_shape is None:
            return TensorShape([None] + list(self._values.shape[1:]))
        return TensorShape([int(n) for n in np.asarray(self._dense_shape._value)])

    @property
    def name(self) -> str:
        return "IndexedSlices"

    def __neg__(self):
        return IndexedSlices(-self._values, self._indices, self._dense_shape)

    def __str__(self):
        shape = "None" if self._dense_shape is None else str(self._dense_shape)
        return (f"IndexedSlices(indices={str(self._indices)}, values={str(self._values)}, "
                f"dense_shape={shape})")

    __repr__ = __str__

    def _dense(self) -> Tensor:
        """The dense tensor (duplicates add up); differentiable with respect to `values`."""
        if self._dense_shape is None:
            raise ValueError(f"Tensor conversion requested for IndexedSlices for argument "
                             f"`value` without dense_shape: {self}. Fix: give the shape, "
                             "tv.IndexedSlices(values, indices, dense_shape)")
        from .ops import reshape, scatter_nd
        return scatter_nd(reshape(self._indices, [-1, 1]), self._values,
                          np.asarray(self._dense_shape._value).tolist())


def from_gathers(parts, source) -> IndexedSlices:
    """The sparse gradient of `source` from the upstream gradients of its gathers along axis 0:
    `parts` is [(upstream, indices)]; their rows are concatenated, in the walk's order."""
    from .convert import constant
    from .ops import cast, concat, reshape
    parts = parts[::-1]        # (the walk met them last first: TensorFlow's order is forward)
    row = list(source._value.shape[1:])
    values = [reshape(g, [-1] + row) for g, _ in parts]
    dtype = parts[0][1].dtype
    indices = [reshape(i if i.dtype == dtype else cast(i, dtype), [-1]) for _, i in parts]
    return IndexedSlices(values[0] if len(values) == 1 else concat(values, axis=0),
                         indices[0] if len(indices) == 1 else concat(indices, axis=0),
                         constant(list(source._value.shape), dtype))
