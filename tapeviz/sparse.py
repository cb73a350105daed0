"""`tv.SparseTensor` and `tv.sparse`: TensorFlow's COO sparse tensors (int64 `indices` of
shape [N, rank], `values` of shape [N], int64 `dense_shape`) and the functions that read them.

The functions work on the dense equivalent, built by one `scatter_nd` of the values, so
gradients reach `values` (and a dense operand) as TensorFlow's do; that costs the dense
tensor's memory, which is fine at the sizes tapeviz is for. `to_dense` checks the indices
as TensorFlow's kernel does: in bounds, in row-major order, not repeated.
"""
from __future__ import annotations

import numpy as np

from .engine.convert import convert_to_tensor
from .engine.errors import InvalidArgumentError
from .engine.ops import gather, gather_nd, matmul, matrix_transpose, scatter_nd, where
from .engine.ops import reduce_sum as _dense_sum
from .engine.ops.makers import _make
from .engine.tensor import TensorShape

__all__ = ["SparseTensor", "add", "from_dense", "reduce_sum", "reorder",
           "sparse_dense_matmul", "to_dense", "transpose"]


class SparseTensor:
    """`SparseTensor(indices, values, dense_shape)`: `values[i]` at `indices[i]`, zeros
    elsewhere."""

    def __init__(self, indices, values, dense_shape):
        self.indices = convert_to_tensor(indices, dtype="int64")
        self.values = convert_to_tensor(values)
        self.dense_shape = convert_to_tensor(dense_shape, dtype="int64")
        i, v, s = (t._value for t in (self.indices, self.values, self.dense_shape))
        if i.ndim != 2:
            raise ValueError(f"Shape {tuple(i.shape)} must have rank 2")
        if v.ndim != 1 or v.shape[0] != i.shape[0]:
            raise ValueError(f"Dimensions {i.shape[0]} and {v.shape[0] if v.ndim else v.shape} "
                             "are not compatible")
        if s.ndim != 1 or s.shape[0] != i.shape[1]:
            raise ValueError(f"Dimensions {i.shape[1]} and {s.shape[0] if s.ndim else s.shape} "
                             "are not compatible")

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def shape(self) -> TensorShape:
        return TensorShape(int(d) for d in self.dense_shape._value)

    def get_shape(self) -> TensorShape:
        return self.shape

    def with_values(self, new_values):
        return SparseTensor(self.indices, new_values, self.dense_shape)

    def __mul__(self, other):
        """Elementwise by a scalar or a dense tensor of the dense shape (broadcast)."""
        o = convert_to_tensor(other, dtype_hint=self.dtype)
        if o._value.ndim == 0:
            return self.with_values(self.values * o)
        dense = o if list(o.shape) == list(self.shape) else o + to_dense(self) * 0
        return self.with_values(self.values * gather_nd(dense, self.indices))

    __rmul__ = __mul__

    def __truediv__(self, other):
        return self.with_values(self.values / convert_to_tensor(other, dtype_hint=self.dtype))

    def __repr__(self):
        return (f"SparseTensor(indices={self.indices!s}, values={self.values!s}, "
                f"dense_shape={self.dense_shape!s})")

    __str__ = __repr__


def _sparse(sp_input, what="sp_input"):
    if not isinstance(sp_input, SparseTensor):
        raise TypeError(f"Input must be a SparseTensor, got {type(sp_input).__name__}. Fix: "
                        "tv.sparse.from_dense(x) makes one")
    return sp_input


def _check_indices(sp):
    """TensorFlow's SparseToDense checks: each index in bounds, in row-major order, once."""
    idx = np.asarray(sp.indices._value)
    shape = np.asarray(sp.dense_shape._value)
    show = lambda row: "[" + ",".join(map(str, row)) + "]"   # noqa: E731
    for n, row in enumerate(idx):
        if (row < 0).any() or (row >= shape).any():
            raise InvalidArgumentError(
                f"indices[{n}] = {show(row)} is out of bounds: need 0 <= index < "
                f"{show(shape)} [Op:SparseToDense]", "SparseToDense")
    if len(idx) > 1:
        flat = np.ravel_multi_index(tuple(idx.T), tuple(shape)) if idx.shape[1] else idx[:, 0]
        step = np.diff(flat)
        if (step < 0).any() or (step == 0).any():
            n = int(np.argmax(step <= 0)) + 1
            problem = "is repeated" if step[n - 1] == 0 else (
                "is out of order. Many sparse ops require sorted indices.\n    Use "
                "`tf.sparse.reorder` to create a correctly ordered copy.\n\n")
            raise InvalidArgumentError(f"indices[{n}] = {show(idx[n])} {problem} "
                                       "[Op:SparseToDense]", "SparseToDense")


def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor: values at their indices, `default_value` (0) elsewhere."""
    sp = _sparse(sp_input)
    if validate_indices:
        _check_indices(sp)
    shape = [int(d) for d in sp.dense_shape._value]
    dense = scatter_nd(sp.indices, sp.values, shape)
    if default_value is None:
        return dense
    hit = np.zeros(shape, dtype=bool)
    hit[tuple(np.asarray(sp.indices._value).T)] = True
    fill = convert_to_tensor(default_value, dtype=sp.dtype)
    return where(_make(hit), dense, fill + dense * 0)


def from_dense(tensor, name=None):
    """The non-zero entries of `tensor`, in row-major order."""
    x = convert_to_tensor(tensor)
    idx = np.argwhere(np.asarray(x._value) != 0).astype(np.int64)
    return SparseTensor(_make(idx), gather_nd(x, _make(idx)), list(x._value.shape))


def reorder(sp_input, name=None):
    """The same entries with indices in row-major order."""
    sp = _sparse(sp_input)
    idx = np.asarray(sp.indices._value)
    order = np.lexsort(idx.T[::-1]) if idx.size else np.arange(len(idx))
    return SparseTensor(_make(idx[order]), gather(sp.values, _make(order.astype(np.int64))),
                        sp.dense_shape)


def transpose(sp_input, perm=None, name=None):
    sp = _sparse(sp_input)
    rank = sp.indices._value.shape[1]
    perm = list(range(rank))[::-1] if perm is None else [int(p) for p in perm]
    idx = np.asarray(sp.indices._value)[:, perm]
    shape = np.asarray(sp.dense_shape._value)[perm]
    return reorder(SparseTensor(_make(idx), sp.values, _make(shape)))


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """`sp_a @ b` (a dense result), TensorFlow's inner-dimension check included."""
    a = to_dense(_sparse(sp_a), validate_indices=False)
    a = matrix_transpose(a) if adjoint_a else a
    b = convert_to_tensor(b)
    b = matrix_transpose(b) if adjoint_b else b
    if a._value.shape[-1] != b._value.shape[0]:
        raise InvalidArgumentError(
            f"Cannot multiply A and B because inner dimension does not match: "
            f"{a._value.shape[-1]} vs. {b._value.shape[0]}.  Did you forget a transpose?  "
            f"Dimensions of A: {list(a._value.shape)}.  Dimensions of B: "
            f"{list(b._value.shape)} [Op:SparseTensorDenseMatMul]", "SparseTensorDenseMatMul")
    return matmul(a, b)


def reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The sum of the dense equivalent over `axis` (all axes when None), dense."""
    if output_is_sparse:
        raise NotImplementedError("tv.sparse.reduce_sum: output_is_sparse=True is not "
                                  "supported. Fix: tv.sparse.from_dense(the dense result)")
    dense = to_dense(_sparse(sp_input), validate_indices=False)
    return _dense_sum(dense, axis=axis, keepdims=bool(keepdims))


def add(a, b, threshold=0):
    """A SparseTensor plus a dense tensor: dense (sparse + sparse is not supported)."""
    if isinstance(a, SparseTensor) and isinstance(b, SparseTensor):
        raise NotImplementedError("tv.sparse.add of two SparseTensors is not supported. Fix: "
                                  "tv.sparse.from_dense(tv.sparse.to_dense(a) + "
                                  "tv.sparse.to_dense(b))")
    sp, dense = (a, b) if isinstance(a, SparseTensor) else (b, a)
    return to_dense(_sparse(sp), validate_indices=False) + convert_to_tensor(dense)

