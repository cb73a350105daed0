"""`tv.math.multiply_no_nan`, `xlogy` and `xdivy`: products and quotients that are 0 where
TensorFlow defines them as 0 (y == 0, or x == 0) even beside an infinity or a NaN.

Each is written with `where` so that the masked branch never sees the bad value (the
`where` trap: a NaN in the branch not taken still poisons the gradient), which gives
TensorFlow's gradients too: `xlogy`'s ∂x is 0 and ∂y is 0 where x == 0, `multiply_no_nan`'s
∂y is x · g also where y == 0, as its kernel's `mul_no_nan(x, g)`, for a finite x (where x
is infinite or NaN and y == 0, TensorFlow's ∂y is that infinity or NaN, tapeviz's 0).
"""
from __future__ import annotations

from .engine.ops import equal, is_finite, log, logical_and, logical_not, ones_like, where
from .engine.ops import zeros_like
from .engine.ops._base import FLOAT, pair, require

__all__ = ["multiply_no_nan", "xdivy", "xlogy"]


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
