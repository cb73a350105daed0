"""`tv.linalg`'s functions that place or pick matrix entries: `diag`, `set_diag`, `band_part`,
`tensor_diag`, `tensor_diag_part`, `adjoint`, `cross`, `normalize`, as TensorFlow's.

Each is built from registered ops (a gather along the last axis, `where` with a constant
mask, slices, `norm`), so gradients reach the diagonal, the kept band or both factors as
TensorFlow's do; a padding value gets none, as in TensorFlow.
"""
from __future__ import annotations

import numpy as np

from .engine.convert import convert_to_tensor
from .engine.errors import FailedPreconditionError, InvalidArgumentError
from .engine.ops import (concat, diag_part, gather, matrix_transpose, norm, reshape,
                         stack, stop_gradient, where, zeros_like)
from .engine.ops._base import same_dtype
from .engine.tensor import _Operand
from .engine.ops.makers import _make

__all__ = ["adjoint", "band_part", "cross", "diag", "normalize", "set_diag", "tensor_diag",
           "tensor_diag_part"]


def _offset(k):
    if isinstance(k, (tuple, list)):
        raise ValueError(f"tapeviz takes one diagonal, k an int, got k={k!r}. Fix: build a "
                         "band from several calls, one diagonal each")
    return int(np.asarray(getattr(k, "_value", k)))


def _diagonal_index(rows, cols, k):
    """(position on diagonal k of each entry of a rows x cols matrix, mask of that diagonal)."""
    i, j = np.arange(rows)[:, None], np.arange(cols)[None, :]
    on = (j - i) == k
    return np.where(on, np.minimum(i, j), 0), on


def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0,
         align="RIGHT_LEFT"):
    """A (batch of) matrix with `diagonal` on diagonal k and `padding_value` elsewhere."""
    d = convert_to_tensor(diagonal)
    if d._value.ndim == 0:
        raise InvalidArgumentError("MatrixDiagV3: diagonal must be at least 1-dim, received "
                                   "shape: [] [Op:MatrixDiagV3]", "MatrixDiagV3")
    k = _offset(k)
    n = d._value.shape[-1]
    min_rows, min_cols = n + max(-k, 0), n + max(k, 0)
    rows, cols = int(num_rows), int(num_cols)
    if rows == -1 and cols == -1:
        rows = cols = max(min_rows, min_cols)
    rows, cols = (min_rows if rows == -1 else rows), (min_cols if cols == -1 else cols)
    index, on = _diagonal_index(rows, cols, k)
    if on.sum() != n:
        raise InvalidArgumentError(
            f"MatrixDiagV3: the diagonal k={k} of a {rows} x {cols} matrix has {int(on.sum())} "
            f"entries, the given diagonal {n} (shape {list(d._value.shape)}). Fix: num_rows "
            "and num_cols that fit the diagonal [Op:MatrixDiagV3]", "MatrixDiagV3")
    fill = stop_gradient(convert_to_tensor(padding_value, dtype=d.dtype))
    padded = concat([d, fill + zeros_like(d[..., :1])], axis=-1)   # the fill at index n
    return gather(padded, _make(np.where(on, index, n)), axis=d._value.ndim - 1)


def _matrix(x, op):
    if x._value.ndim < 2:
        raise InvalidArgumentError(f"{op}: input must be at least 2-dim, received shape: "
                                   f"{list(x._value.shape)} [Op:{op}]", op)


def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):
    """`input` with diagonal k replaced by `diagonal`."""
    x, d = _one_dtype(input, diagonal, "MatrixSetDiagV3")
    _matrix(x, "MatrixSetDiagV3")
    k = _offset(k)
    rows, cols = x._value.shape[-2:]
    index, on = _diagonal_index(rows, cols, k)
    length = int(on.sum())
    if d._value.shape != x._value.shape[:-2] + (length,):
        raise InvalidArgumentError(
            "MatrixSetDiagV3: Either first dimensions of diagonal don't match "
            "input.shape[:-2], or diagonal.shape[:-1] is not equal to the longests diagonal in "
            f"range [lower_diag_index:upper_diag_index].\nInput shape: {list(x._value.shape)}"
            f"\nDiagonal shape: {list(d._value.shape)}\nExpected diagonal shape: "
            f"{list(x._value.shape[:-2]) + [length]} [Op:MatrixSetDiagV3]", "MatrixSetDiagV3")
    placed = gather(d, _make(index), axis=d._value.ndim - 1)
    return where(_make(on), placed, x)


def _one_dtype(a, b, op):
    """Two arguments of one op as TensorFlow's op converts them: a tensor sets the dtype and
    the other (a list or NumPy array) is converted to it; else the first sets it."""
    if isinstance(b, _Operand) and not isinstance(a, _Operand):
        b = convert_to_tensor(b)
        return convert_to_tensor(a, dtype=b.dtype), b
    a = convert_to_tensor(a)
    b = b if isinstance(b, _Operand) else convert_to_tensor(b, dtype=a.dtype)
    return same_dtype([a, b], op)


def band_part(input, num_lower, num_upper, name=None):
    """Entries within `num_lower` below and `num_upper` above the diagonal (negative: all),
    zeros elsewhere."""
    x = convert_to_tensor(input)
    _matrix(x, "MatrixBandPart")
    lower, upper = (convert_to_tensor(v, dtype="int64") for v in (num_lower, num_upper))
    lower, upper = int(lower._value), int(upper._value)
    i, j = np.ogrid[:x._value.shape[-2], :x._value.shape[-1]]
    keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
    return where(_make(keep), x, zeros_like(x))


def tensor_diag(diagonal, name=None):
    """Rank 2k: `out[i..., i...] = diagonal[i...]`."""
    d = convert_to_tensor(diagonal)
    shape = list(d._value.shape)
    return reshape(diag(reshape(d, [-1])), shape + shape)


def tensor_diag_part(input, name=None):
    """`tensor_diag`'s inverse: `out[i...] = input[i..., i...]`."""
    x = convert_to_tensor(input)
    shape = list(x._value.shape)
    half = len(shape) // 2
    for a in range(half):
        if len(shape) % 2 or shape[a] != shape[a + half]:
            raise InvalidArgumentError(
                f"DiagPart: Invalid shape {shape}: dimensions {a} and {a + half} do not match. "
                "Fix: an input of shape s + s [Op:DiagPart]", "DiagPart")
    n = int(np.prod(shape[:half], dtype=np.int64))
    return reshape(diag_part(reshape(x, [n, n])), shape[:half])


def adjoint(matrix, name=None):
    """The (conjugate) transpose of the last two axes."""
    return matrix_transpose(matrix)


def cross(a, b, name=None):
    """Cross products of 3-element vectors along the last axis."""
    u, v = convert_to_tensor(a), convert_to_tensor(b)
    if u._value.shape != v._value.shape or not u._value.ndim or u._value.shape[-1] != 3:
        problem = ("Cross-products are only defined for 3-element vectors."
                   if u._value.shape == v._value.shape else
                   "Both inputs must be of same shape.")
        raise FailedPreconditionError(f"Cross: {problem} Got shapes {list(u._value.shape)} and "
                                      f"{list(v._value.shape)} [Op:Cross]", "Cross")
    u0, u1, u2 = (u[..., i] for i in range(3))
    v0, v1, v2 = (v[..., i] for i in range(3))
    return stack([u1 * v2 - u2 * v1, u2 * v0 - u0 * v2, u0 * v1 - u1 * v0], axis=-1)


def normalize(tensor, ord="euclidean", axis=None, name=None):
    """(tensor / its norm, the norm kept with size-1 axes), as TensorFlow's."""
    x = convert_to_tensor(tensor)
    n = norm(x, ord=ord, axis=axis, keepdims=True)
    return x / n, n
