"""Counts, order checks and permutations of `tv.math`, none differentiable (as in
TensorFlow): `bincount`, `zero_fraction`, `is_non_decreasing`, `is_strictly_increasing`,
`invert_permutation`, `in_top_k`.

Each is one op of the registry (so the graph draws it) whose forward is NumPy; the checks
raise TensorFlow's error classes where its kernels or its Python wrappers raise.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes as dt
from ..errors import InvalidArgumentError
from ..op import apply, defop
from ..tensor import Tensor
from ._base import tensor
from .elementwise import cast

__all__: list = []   # tf.math only: tapeviz/math.py imports them by name


def _bad(op, message):
    return InvalidArgumentError(f"{message} [Op:{op}]", op)


# --- bincount -------------------------------------------------------------------------------
def _bincount_np(arr, weights, size, binary, rows):
    flat = arr if rows else arr.reshape(1, -1)
    w = None if weights.size == 0 else weights.reshape(flat.shape)
    out = np.zeros((flat.shape[0], size), weights.dtype)
    for row in range(flat.shape[0]):
        keep = flat[row] < size
        counts = np.bincount(flat[row][keep], None if w is None else w[row][keep], size)
        out[row] = (counts > 0) if binary else counts
    return out if rows else out[0]


def _no_gradient(g, y, arr, weights, **attrs):
    raise LookupError("gradient registry has no entry for: DenseBincount (TensorFlow defines "
                      f"no gradient for tf.math.bincount; weights shape {tuple(weights.shape)})."
                      " Fix: wrap the bincount in tf.stop_gradient, or sum the weights with "
                      "tf.math.unsorted_segment_sum(weights, arr, n), which has a gradient")


_bincount = defop("DenseBincount", _bincount_np, [None, _no_gradient],
                  "y[i] = Σ weights where arr == i", saves=((), False))


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dt.int32, name=None,
             axis=None, binary_output=False):
    """Counts (or summed `weights`) of each value of a non-negative int tensor, flattened
    (`axis=0`) or per row of a matrix (`axis=-1`)."""
    a = tensor(arr)
    w = None if weights is None else tensor(weights)
    if w is not None and binary_output:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. "
                         "Please specify only one. Fix: drop weights= for 0/1 presence, or "
                         "binary_output= for weighted counts")
    if a._value.dtype.kind not in "iu":
        a = cast(a, dt.int32)
    axis = 0 if axis is None else axis
    if axis not in (0, -1):
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are "
                         f"currently supported. Fix: axis=0 counts the flattened tensor, "
                         f"axis=-1 each row")
    values = a._value
    if values.size and values.min() < 0:
        raise _bad("DenseBincount", f"Input arr must be non-negative, got {values.min()} "
                   f"(shape {values.shape}). Fix: shift or mask the values first")
    size = int(values.max()) + 1 if values.size else 0
    size = max(size, int(minlength)) if minlength is not None else size
    size = min(size, int(maxlength)) if maxlength is not None else size
    if axis == -1 and values.ndim != 2:
        raise _bad("DenseBincount", f"axis=-1 needs a matrix, got rank {values.ndim} (shape "
                   f"{values.shape}). Fix: reshape to [rows, n] first")
    if w is None:
        w = Tensor(np.zeros(0, dt.as_dtype(dtype).np))
    elif w._value.shape != values.shape:
        raise _bad("DenseBincount", f"`weights` must be the same shape as `arr` or a length-0 "
                   f"`Tensor`, in which case it acts as all weights equal to 1. Received "
                   f"weights shape {w._value.shape}, arr shape {values.shape}")
    return apply(_bincount, (a, w), {"size": size, "binary": bool(binary_output),
                                     "rows": axis == -1})


# --- zero_fraction, monotonicity --------------------------------------------------------------
_zero_fraction = defop("ZeroFraction",
                       lambda x: np.float32(np.float32(x.size - np.count_nonzero(x))
                                            / np.float32(x.size)), None,
                       "y = (number of zeros) / size")


def zero_fraction(value, name=None):
    """The fraction of zeros in `value`, a float32 scalar (NaN for an empty tensor)."""
    x = tensor(value)
    with np.errstate(invalid="ignore", divide="ignore"):
        return apply(_zero_fraction, (x,))


def _monotonic(name, compare):
    op = defop(name, lambda x: np.bool_(np.all(compare(x.reshape(-1)[1:], x.reshape(-1)[:-1]))),
               None, f"y = all(x[i + 1] {'≥' if name == 'IsNonDecreasing' else '>'} x[i])")

    def fn(x, name=None):
        x = tensor(x)
        if x._value.dtype.kind not in "fiuc":
            raise TypeError(f"Expected x to be numeric, instead found: {x!r}. Fix: cast it, "
                            "e.g. tv.cast(x, tv.int32)")
        return apply(op, (x,))
    fn.op = op
    return fn


is_non_decreasing = _monotonic("IsNonDecreasing", np.greater_equal)
is_strictly_increasing = _monotonic("IsStrictlyIncreasing", np.greater)
is_non_decreasing.__name__ = "is_non_decreasing"
is_strictly_increasing.__name__ = "is_strictly_increasing"


# --- invert_permutation, in_top_k ------------------------------------------------------------
def _invert_np(x):
    out = np.empty_like(x)
    out[x] = np.arange(x.size, dtype=x.dtype)
    return out


_invert_permutation = defop("InvertPermutation", _invert_np, None, "y[x[i]] = i")


def invert_permutation(x, name=None):
    """The inverse of a permutation of 0 ... n-1 (an int32 or int64 vector)."""
    p = tensor(x)
    v = p._value
    if v.dtype not in (np.int32, np.int64):
        raise _bad("InvertPermutation", f"InvertPermutation needs an int32 or int64 input, "
                   f"got {p.dtype.name} (shape {v.shape}). Fix: tv.cast(x, tv.int32)")
    if v.ndim != 1:
        raise _bad("InvertPermutation", f"invert_permutation expects a 1D vector, got shape "
                   f"{v.shape}. Fix: pass one permutation at a time")
    if v.size and (v.min() < 0 or v.max() >= v.size or np.unique(v).size != v.size):
        raise _bad("InvertPermutation", f"{v.tolist()[:10]} is not a permutation of 0 ... "
                   f"{v.size - 1}: a value is out of range or repeated")
    return apply(_invert_permutation, (p,))


def _in_top_k_np(predictions, targets, k):
    n = predictions.shape[1]
    inside = (targets >= 0) & (targets < n)
    rows = np.arange(predictions.shape[0])
    target = predictions[rows, np.where(inside, targets, 0)]
    above = np.sum(predictions > target[:, None], axis=1)
    finite = np.all(np.isfinite(predictions), axis=1)
    return inside & finite & (above < k)


_in_top_k = defop("InTopKV2", _in_top_k_np, None,
                  "y[i] = fewer than k predictions[i] above predictions[i, targets[i]]")


def in_top_k(targets, predictions, k, name=None):
    """Whether each target class is among the `k` highest predictions of its row (classes
    tied with the k-th all count as inside)."""
    t, p = tensor(targets), tensor(predictions)
    if p._value.dtype != np.float32:     # (TensorFlow's op signature check: a ValueError)
        raise ValueError(f"in_top_k: predictions must be float32, got {p.dtype.name} (shape "
                         f"{tuple(p.shape)}). Fix: tv.cast(predictions, tv.float32)")
    if t._value.dtype not in (np.int32, np.int64):
        raise _bad("InTopKV2", f"targets must be int32 or int64, got {t.dtype.name}. Fix: "
                   "tv.cast(targets, tv.int32)")
    if p._value.ndim != 2 or t._value.ndim != 1 or t._value.shape[0] != p._value.shape[0]:
        raise _bad("InTopKV2", f"predictions must be 2-dimensional and targets 1-dimensional "
                   f"with one target per row, got shapes {tuple(p.shape)} and "
                   f"{tuple(t.shape)}")
    return apply(_in_top_k, (p, t), {"k": int(k)})
