"""Inverse hyperbolic functions and the two-argument arctangent (`tv.atan2`, `tv.acosh`,
`tv.asinh`, `tv.atanh`), and `tv.math.rint`.

The gradients are TensorFlow's (`math_grad.py`): asinh's and acosh's read the output
(g / cosh(y), g / sinh(y)), so acosh's is inf at x = 1 as TensorFlow's; atanh's reads the
input, g / (1 - x²); atan2's divides g by y² + x² once and multiplies by x and -y.
"""
from __future__ import annotations

import numpy as np

from ..errors import NotFoundError
from .elementwise import _binary, _unary, cosh, reciprocal, sinh, square
from ._base import FLOAT, tensor

__all__ = ["acosh", "asinh", "atan2", "atanh"]


def _atan2_grad_inv(g, a, b):
    return g / (square(a) + square(b))


atan2 = _binary("Atan2", np.arctan2,
                [lambda g, out, y, x: x * _atan2_grad_inv(g, y, x),
                 lambda g, out, y, x: -y * _atan2_grad_inv(g, y, x)],
                "out = atan2(y, x)",
                ["∂y = g · x / (y² + x²)", "∂x = -g · y / (y² + x²)"], FLOAT,
                "a floating-point")
atan2.__name__ = atan2.__qualname__ = "atan2"
atan2.__doc__ = """The angle of the point (x, y), in (-π, π]; `atan2(y, x)`, y first."""

asinh = _unary("Asinh", np.arcsinh, lambda g, y, x: g / cosh(y), "y = asinh(x)",
               "∂x = g / cosh(y)", saves=((), True))
acosh = _unary("Acosh", np.arccosh, lambda g, y, x: g / sinh(y), "y = acosh(x)",
               "∂x = g / sinh(y)  (inf at x = 1)", saves=((), True))
atanh = _unary("Atanh", np.arctanh, lambda g, y, x: g * reciprocal(1.0 - square(x)),
               "y = atanh(x)", "∂x = g / (1 - x²)")
# round half to even, as `round`; TensorFlow registers no gradient (None) for Rint
_rint = _unary("Rint", np.rint, None, "y = rint(x)", None)


def rint(x, name=None):
    """The nearest integer (halves to the even one), in x's float dtype; no gradient."""
    x = tensor(x)
    if x._value.dtype == np.float16:    # TensorFlow has no CPU kernel for half precision
        raise NotFoundError(f"Could not find device for node: Rint[T=DT_HALF]: Rint has no "
                            f"float16 kernel on a CPU (input shape {tuple(x.shape)}). Fix: "
                            f"tv.cast(x, tv.float32) first [Op:Rint]", "Rint")
    return _rint(x)


rint.op = _rint.op
