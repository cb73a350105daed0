"""`tv.math.multiply_no_nan`, `xlogy` and `xdivy`: products and quotients that are 0 where
TensorFlow defines them as 0 (y == 0, or x == 0) even beside an infinity or a NaN.

Each is written with `where` so that the masked branch never sees the bad value (the
`where` trap: a NaN in the branch not taken still poisons the gradient), which gives
TensorFlow's gradients too: `xlogy`'s ∂x is 0 and ∂y is 0 where x == 0, `multiply_no_nan`'s
∂y is x · g also where y == 0, as its kernel's `mul_no_nan(x, g)`, for a finite x (where x
is infinite or NaN and y == 0, TensorFlow's ∂y is that infinity or NaN, tapeviz's 0).
`xlog1py` is `xlogy`'s twin (its ∂x is log1p(y), 0 where x == 0; its ∂y x / (1 + y)), and
`reciprocal_no_nan` is TensorFlow's own `div_no_nan(1, x)`. `scalar_mul` is TensorFlow's
product of a 0-D scalar (converted to x's dtype) and a tensor or a sparse gradient.
"""
from __future__ import annotations

from .engine.convert import convert_to_tensor
from .engine.indexed_slices import IndexedSlices
from .engine.ops import divide_no_nan, equal, is_finite, log, log1p, logical_and, logical_not
from .engine.ops import multiply, ones_like, where, zeros_like
from .engine.ops._base import FLOAT, pair, require, tensor

__all__ = ["multiply_no_nan", "reciprocal_no_nan", "scalar_mul", "xdivy", "xlog1py", "xlogy"]


def _floats(x, y, op):
    x, y = pair(x, y, op)
    what = "a floating-point"
    return require(x, op, FLOAT, what), require(y, op, FLOAT, what)


def multiply_no_nan(x, y, name=None):
    """x · y, and 0 where y == 0 (even where x is NaN or infinite)."""
    x, y = _floats(x, y, "MulNoNan")
    bad = logical_and(equal(y, 0.0), logical_not(is_finite(x)))
    return y * where(bad, zeros_like(x), x)


def xlogy(x, y, name=None):
    """x · log(y), and 0 where x == 0 (even where y is 0 or NaN)."""
    x, y = _floats(x, y, "Xlogy")
    return x * log(where(equal(x, 0.0), ones_like(y), y))


def xdivy(x, y, name=None):
    """x / y, and 0 where x == 0 (even where y is 0)."""
    x, y = _floats(x, y, "Xdivy")
    zero = equal(x, 0.0)
    return where(zero, zeros_like(x), x / where(zero, ones_like(y), y))


def xlog1py(x, y, name=None):
    """x · log(1 + y), and 0 where x == 0 (even where y is -1 or NaN)."""
    x, y = _floats(x, y, "Xlog1py")
    return x * log1p(where(equal(x, 0.0), zeros_like(y), y))


def reciprocal_no_nan(x, name=None):
    """1 / x, and 0 where x == 0."""
    x = require(tensor(x), "DivNoNan", FLOAT, "a floating-point")
    return divide_no_nan(convert_to_tensor(1, dtype=x.dtype), x)


def scalar_mul(scalar, x, name=None):
    """scalar · x for a 0-D `scalar` (converted to x's dtype); x may be an IndexedSlices."""
    sparse = isinstance(x, IndexedSlices)
    values = x.values if sparse else tensor(x)
    s = convert_to_tensor(scalar, dtype=values.dtype)
    if s.shape.ndims != 0:
        raise ValueError(f"The input scalar must be a 0-D value. Received shape {s.shape}. "
                         f"Fix: pass one number, e.g. tv.math.scalar_mul(2.0, x), or use "
                         f"tv.multiply for an elementwise product (x has shape "
                         f"{tuple(values.shape)})")
    if sparse:
        return IndexedSlices(multiply(s, values), x.indices, x.dense_shape)
    return multiply(s, values)
