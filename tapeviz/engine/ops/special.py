"""Special functions of `tv.math`: `lgamma`, `digamma`, `erfc`, `erfinv`, `ndtri`.

The values are SciPy's `scipy.special` (computed in float64, rounded to the input's dtype),
with TensorFlow's answers at the poles and Eigen's formula for erfinv;
SciPy loads at the first call, not at `import tapeviz`. The gradients are TensorFlow's
(`math_grad.py`): lgamma's is digamma, digamma's is polygamma(1, x) (an op of its own here,
whose gradient is polygamma(n + 1, x), so every order of derivative exists), erfc's is
-2/√π · e^(-x²), and erfinv's and ndtri's read the output: √π/2 · e^(y²) and √(2π) ·
e^(y²/2).
"""
from __future__ import annotations

import math

import numpy as np

from ..errors import NotFoundError
from ..op import apply, defop
from ._base import FLOAT, require, tensor
from .elementwise import exp, square

__all__: list = []   # tf.math only: tapeviz/math.py imports them by name


def _scipy(name):
    """`scipy.special.<name>` as a NumPy forward that keeps the input's dtype."""
    def forward(x, **attrs):
        from scipy import special
        y = getattr(special, name)(*attrs.values(), x.astype(np.float64))
        return np.asarray(y).astype(x.dtype, copy=False)
    return forward


def _lgamma_np(x):
    y = _scipy("gammaln")(x)
    return np.where(x == -np.inf, np.inf, y).astype(x.dtype, copy=False)   # TF: log Γ(-inf) = inf


def _digamma_np(x):
    # TensorFlow: NaN at every pole, 0 and -0 included (SciPy gives -inf at 0)
    y = _scipy("psi")(x)
    return np.where((x <= 0) & (x == np.floor(x)), np.nan, y).astype(x.dtype, copy=False)


def _erfinv_np(x):
    # as Eigen (TensorFlow's kernel): ndtri((x + 1) / 2) / √2 with (x + 1) / 2 rounded in x's
    # dtype, which near ±1 differs from the exact erfinv by more than float32's last digit
    half = x.dtype.type(0.5)
    p = x * half + half
    return (_scipy("ndtri")(p) * x.dtype.type(math.sqrt(0.5))).astype(x.dtype, copy=False)


def _polygamma_np(x, n):
    # TensorFlow at the poles (0, -1, ...): inf for an odd order, NaN for an even one
    y = _scipy("polygamma")(x, n=n)
    pole = (x <= 0) & (x == np.floor(x))
    return np.where(pole, np.inf if n % 2 else np.nan, y).astype(x.dtype, copy=False)


_polygamma = defop("Polygamma", _polygamma_np,
                   [lambda g, y, x, n: g * apply(_polygamma, (x,), {"n": n + 1})],
                   "y = ψ⁽ⁿ⁾(x)", ["∂x = g · ψ⁽ⁿ⁺¹⁾(x)"])
_digamma = defop("Digamma", _digamma_np,
                 [lambda g, y, x: g * apply(_polygamma, (x,), {"n": 1})],
                 "y = ψ(x) = Γ'(x) / Γ(x)", ["∂x = g · ψ⁽¹⁾(x)"])
_lgamma = defop("Lgamma", _lgamma_np, [lambda g, y, x: g * apply(_digamma, (x,))],
                "y = log |Γ(x)|", ["∂x = g · ψ(x)"])
_erfc = defop("Erfc", _scipy("erfc"),
              [lambda g, y, x: g * (-2.0 / math.sqrt(math.pi)) * exp(-square(x))],
              "y = erfc(x) = 1 - erf(x)", ["∂x = -g · 2/√π · e^(-x²)"])
_erfinv = defop("Erfinv", _erfinv_np,
                [lambda g, y, x: g * (math.sqrt(math.pi) / 2) * exp(square(y))],
                "y = erf⁻¹(x)", ["∂x = g · √π/2 · e^(y²)"], saves=((), True))
_ndtri = defop("Ndtri", _scipy("ndtri"),
               [lambda g, y, x: g * math.sqrt(2 * math.pi) * exp(square(y) / 2.0)],
               "y = Φ⁻¹(x), the standard normal quantile", ["∂x = g · √(2π) · e^(y²/2)"],
               saves=((), True))


def _public(op, doc, half=True):
    def fn(x, name=None):
        x = require(tensor(x), op.name, FLOAT, "a floating-point")
        if not half and x._value.dtype == np.float16:   # no CPU kernel in TensorFlow
            raise NotFoundError(
                f"Could not find device for node: {op.name}[T=DT_HALF]: {op.name} has no "
                f"float16 kernel on a CPU (input shape {tuple(x.shape)}). Fix: "
                f"tv.cast(x, tv.float32) first [Op:{op.name}]", op.name)
        return apply(op, (x,))
    fn.__name__ = fn.__qualname__ = op.name.lower()
    fn.__doc__ = doc
    fn.op = op
    return fn


lgamma = _public(_lgamma, "log |Γ(x)|; its gradient is digamma(x).")
digamma = _public(_digamma, "ψ(x), the derivative of lgamma; its gradient is polygamma(1, x).")
erfc = _public(_erfc, "1 - erf(x), exact in the right tail.")
erfinv = _public(_erfinv, "The inverse of erf on (-1, 1); ±inf at ±1, NaN outside.", half=False)
ndtri = _public(_ndtri, "The standard normal quantile Φ⁻¹(x) on (0, 1); ±inf at 1 and 0.",
                half=False)
