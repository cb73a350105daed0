"""Neural-network ops (`tv.nn`): activations, softmax, l2_loss and dropout (the cross-entropy
losses, which share this file's softmax kernels, are in losses.py).

One block per op, as in the other families. The ops a training step spends its time in
(relu, softmax, log_softmax, softplus) are single fused NumPy kernels, and their VJPs are
fused `...Grad` ops too (one NumPy call in the backward pass); each `...Grad` op has VJPs of
its own written with tapeviz ops, so higher derivatives still work. Gradient conventions are
TensorFlow's: relu'(0) = 0, leaky_relu'(0) = alpha, elu'(0) = 1, relu6'(6) = 0.

Axis attributes are stored negative (counted from the end), so an upstream gradient with
extra leading (Jacobian batch) dimensions needs no shifting.
"""
from __future__ import annotations

import math

import numpy as np

from ..errors import InvalidArgumentError
from ..node import leaf_node
from ..op import apply, defop
from ..tensor import Tensor
from ..threadstate import graph_output
from ._base import require, shape_list, tensor
from .axes import reshape
from .elementwise import (abs, cast, exp, minimum, multiply, sigmoid, square, tanh, where,
                          zeros_like)
from .makers import dropout_keep
from .reduce import reduce_sum


def _float(x, op_name):
    return require(tensor(x), op_name, "f", "a floating-point")


def _neg_axis(axis, ndim, op_name, shape=None):
    raw = getattr(axis, "_value", axis)
    if isinstance(raw, bool) or not isinstance(raw, (int, np.integer)) and not (
            isinstance(raw, np.ndarray) and raw.ndim == 0 and raw.dtype.kind in "iu"):
        raise InvalidArgumentError(f"{op_name}: axis must be an int, got {axis!r} for a tensor "
                                   f"of rank {ndim} (shape {tuple(shape or ())}). Fix: use an "
                                   f"integer axis in [-{ndim}, {ndim}) [Op:{op_name}]", op_name)
    a = int(axis)
    if not -max(ndim, 1) <= a < max(ndim, 1):
        shape_text = f", shape {tuple(shape)}" if shape is not None else ""
        raise InvalidArgumentError(f"{op_name}: axis {a} is out of range for a tensor of rank "
                                   f"{ndim}{shape_text} (expected -{ndim} <= axis < {ndim}). "
                                   f"Fix: use an axis in that range [Op:{op_name}]", op_name)
    return a - ndim if a >= 0 else a


# --- relu -------------------------------------------------------------------------------------
def _relu_grad_forward(g, y):
    # a multiply by the 0/1 mask: as TensorFlow's kernel (NaN·0 stays NaN), and 20x faster
    # than np.where on a random mask; the bool mask multiplies as g's dtype without a cast
    return np.multiply(g, y > 0, dtype=g.dtype)


_relu_grad = defop("ReluGrad", _relu_grad_forward,
                   [lambda gg, out, g, y: apply(_relu_grad, (gg, y)),
                    lambda gg, out, g, y: zeros_like(gg)],   # gg keeps Jacobian batch axes
                   "y = g where features > 0 else 0",
                   ["∂g = gg where features > 0", "∂features = 0"], saves=((1,), False))
_relu = defop("Relu", lambda x: np.maximum(x, 0).astype(x.dtype, copy=False),
              [lambda g, y, x: apply(_relu_grad, (g, y))],
              "y = max(x, 0)", ["∂x = g where y > 0 (0 at x = 0, as TensorFlow)"],
              saves=((), True))


def relu(features, name=None):
    """max(x, 0); the gradient at 0 is 0.

    >>> relu([-1.0, 0.0, 2.0]).numpy().tolist()
    [0.0, 0.0, 2.0]
    """
    x = require(tensor(features), "Relu", "fiu", "a numeric")   # TF's Relu takes integers too
    return apply(_relu, (x,))


# The gradient kernels of relu6, leaky_relu and elu are ops of their own, as TensorFlow's: their
# second derivative with respect to the features is a tensor of zeros (elu's: g·gg where y < 0),
# never None, as it would be if the features only chose a branch of a `where`.
_relu6_grad = defop("Relu6Grad",
                    lambda g, x: np.multiply(g, (x > 0) & (x < 6), dtype=g.dtype),
                    [lambda gg, out, g, x: apply(_relu6_grad, (gg, x)),
                     lambda gg, out, g, x: zeros_like(gg)],
                    "y = g where 0 < features < 6 else 0",
                    ["∂g = gg where 0 < features < 6", "∂features = 0"], saves=((1,), False))
_relu6 = defop("Relu6", lambda x: np.minimum(np.maximum(x, 0), 6).astype(x.dtype, copy=False),
               [lambda g, y, x: apply(_relu6_grad, (g, x))],
               "y = min(max(x, 0), 6)", ["∂x = g where 0 < x < 6"], saves=((0,), False))


def relu6(features, name=None):
    return apply(_relu6, (require(tensor(features), "Relu6", "fiu", "a numeric"),))


_leaky_grad = defop("LeakyReluGrad",
                    lambda g, x, alpha: np.where(x > 0, g, g * np.asarray(alpha, g.dtype)),
                    [lambda gg, out, g, x, alpha: apply(_leaky_grad, (gg, x), {"alpha": alpha}),
                     lambda gg, out, g, x, alpha: zeros_like(gg)],
                    "y = g if features > 0 else α·g",
                    ["∂g = gg if features > 0 else α·gg", "∂features = 0"],
                    saves=((1,), False))
_leaky = defop("LeakyRelu",
               lambda x, alpha: np.where(x > 0, x, x * np.asarray(alpha, x.dtype)),
               [lambda g, y, x, alpha: apply(_leaky_grad, (g, x), {"alpha": alpha})],
               "y = x if x > 0 else α·x", ["∂x = g if x > 0 else α·g"], saves=((0,), False))


def leaky_relu(features, alpha=0.2, name=None):
    x = tensor(features)
    if alpha is None or isinstance(alpha, (str, bytes)):
        raise TypeError(f"LeakyRelu: Expected float for argument 'alpha' not {alpha!r} (features "
                        f"of shape {tuple(x.shape)}). Fix: pass the negative slope, e.g. "
                        "alpha=0.2")
    if x._value.dtype.kind in "iu":          # as TF: integer features are cast to float32
        x = cast(x, "float32")
    return apply(_leaky, (_float(x, "LeakyRelu"),), {"alpha": float(alpha)})


# elu's second derivative at 0 is TensorFlow's right-hand one, 0: only y < 0 is curved
_elu_grad = defop("EluGrad",
                  lambda g, y: np.where(y < 0, g * (y + 1), g).astype(g.dtype, copy=False),
                  [lambda gg, out, g, y: apply(_elu_grad, (gg, y)),
                   lambda gg, out, g, y: where(y < 0, gg * g, zeros_like(gg))],
                  "y = g if elu > 0 else g · (elu + 1)",
                  ["∂g = gg if elu >= 0 else gg · (elu + 1)", "∂elu = gg · g where elu < 0"])
_elu = defop("Elu", lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0))).astype(x.dtype),
             [lambda g, y, x: apply(_elu_grad, (g, y))],
             "y = x if x > 0 else eˣ - 1", ["∂x = g if y >= 0 else g · (y + 1)"],
             saves=((), True))


def elu(features, name=None):
    return apply(_elu, (_float(features, "Elu"),))


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(features, name=None):
    """scale·x for x >= 0, scale·alpha·(eˣ - 1) below (computed as TensorFlow does, eˣ - 1
    rather than expm1), composed from existing ops so their gradients give TensorFlow's:
    scale·g at and above 0, g·scale·alpha·eˣ below (eˣ of min(x, 0), so that the branch
    `where` does not pick never overflows into a NaN gradient)."""
    x = _float(features, "Selu")
    below = (exp(minimum(x, 0.0)) - 1.0) * (_SELU_SCALE * _SELU_ALPHA)
    return where(x < 0, below, x * _SELU_SCALE)


# --- gelu (with erf) ------------------------------------------------------------------------
_SQRT2 = math.sqrt(2.0)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_erf_scalar = np.frompyfunc(math.erf, 1, 1)


def _erf_np(x):
    try:
        from scipy.special import erf  # exact and vectorized when SciPy is present
        return erf(x).astype(x.dtype, copy=False)
    except ImportError:
        return np.asarray(_erf_scalar(x), dtype=np.float64).astype(x.dtype)


_erf = defop("Erf", _erf_np, [lambda g, y, x: g * (2.0 / math.sqrt(math.pi)) * exp(-(x * x))],
             "y = erf(x)", ["∂x = g · 2/√π · e^(-x²)"])


def erf(x, name=None):
    return apply(_erf, (_float(x, "Erf"),))


def _gelu_forward(x, approximate):
    if approximate:
        inner = _SQRT_2_OVER_PI * (x + 0.044715 * x ** 3)
        return (0.5 * x * (1.0 + np.tanh(inner))).astype(x.dtype, copy=False)
    return (0.5 * x * (1.0 + _erf_np(x / _SQRT2))).astype(x.dtype, copy=False)


def _gelu_vjp(g, y, x, approximate):
    if approximate:
        t = tanh(_SQRT_2_OVER_PI * (x + 0.044715 * x * x * x))
        dinner = _SQRT_2_OVER_PI * (1.0 + 3 * 0.044715 * x * x)
        return g * (0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * dinner)
    cdf = 0.5 * (1.0 + erf(x * (1.0 / _SQRT2)))
    pdf = exp(-0.5 * x * x) * _INV_SQRT_2PI
    return g * (cdf + x * pdf)


_gelu = defop("Gelu", _gelu_forward, [_gelu_vjp],
              "y = x · Φ(x)  (tanh approximation when approximate=True)",
              ["∂x = g · (Φ(x) + x · φ(x))"])


def gelu(features, approximate=False, name=None):
    x = tensor(features)
    if x._value.dtype.kind != "f":
        raise ValueError(f"`features.dtype` must be a floating point tensor. Received: "
                         f"features.dtype={x.dtype!r} (shape {tuple(x.shape)}). Fix: "
                         "tv.cast(features, tv.float32)")
    return apply(_gelu, (x,), {"approximate": bool(approximate)})


# --- softplus, softsign ------------------------------------------------------------------------
def _flush_subnormal(out):
    """Subnormal results become 0, as TensorFlow's CPU kernels give them (softplus(-100.) is
    0.0 there, not 3.8e-44)."""
    return np.where(np.abs(out) < np.finfo(out.dtype).tiny, 0, out).astype(out.dtype,
                                                                            copy=False)


def _softplus_forward(x):
    # stable: never exp of a positive number
    return _flush_subnormal((np.log1p(np.exp(-np.abs(x))) + np.maximum(x, 0))
                            .astype(x.dtype, copy=False))


_softplus_grad = defop("SoftplusGrad", lambda g, x: g / (1 + np.exp(-x)),
                       [lambda gg, out, g, x: apply(_softplus_grad, (gg, x)),
                        lambda gg, out, g, x: gg * g * sigmoid(x) * (1.0 - sigmoid(x))],
                       "y = g / (1 + e⁻ˣ)",
                       ["∂g = gg · sigmoid(x)", "∂x = gg · g · sigmoid(x) · (1 - sigmoid(x))"])
_softplus = defop("Softplus", _softplus_forward,
                  [lambda g, y, x: apply(_softplus_grad, (g, x))],
                  "y = log(1 + eˣ)  (computed as log1p(e^-|x|) + max(x, 0))",
                  ["∂x = g · sigmoid(x)"])


def softplus(features, name=None):
    """log(1 + eˣ), computed as log1p(e^-|x|) + max(x, 0) so it never overflows; its
    gradient is sigmoid(x) (TF's form g / (1 + e⁻ˣ)).

    >>> import tapeviz as tv
    >>> [round(float(v), 4) for v in tv.nn.softplus([-100.0, 0.0, 100.0])]
    [0.0, 0.6931, 100.0]
    """
    return apply(_softplus, (_float(features, "Softplus"),))


# log(sigmoid(x)) = -softplus(-x), as TensorFlow computes it: one op here, so the graph shows
# one node, with TensorFlow's gradient kernel (SoftplusGrad at -x, that is g · sigmoid(-x))
_log_sigmoid = defop("LogSigmoid", lambda x: -_softplus_forward(-x),
                     [lambda g, y, x: apply(_softplus_grad, (g, -x))],
                     "y = log(sigmoid(x)) = -log(1 + e⁻ˣ)", ["∂x = g · sigmoid(-x)"],
                     saves=((0,), False))


def log_sigmoid(x, name=None):
    """log(sigmoid(x)), computed as -softplus(-x) so it never overflows: log_sigmoid(-100.) is
    -100, where log(sigmoid(-100.)) is -inf. Its gradient is sigmoid(-x).

    >>> import tapeviz as tv
    >>> [round(float(v), 4) for v in tv.math.log_sigmoid([-100.0, 0.0, 100.0])]
    [-100.0, -0.6931, -0.0]
    """
    return apply(_log_sigmoid, (_float(x, "LogSigmoid"),))


_softsign = defop("Softsign", lambda x: x / (1 + np.abs(x)),
                  [lambda g, y, x: g / square(1.0 + abs(x))],
                  "y = x / (1 + |x|)", ["∂x = g / (1 + |x|)²"])


def softsign(features, name=None):
    return apply(_softsign, (_float(features, "Softsign"),))


# --- softmax, log_softmax ----------------------------------------------------------------------
# (np.maximum.reduce and np.add.reduce are what np.max and np.sum call, minus a Python layer)
def _max_kept(x, axis):
    """The max along `axis`, kept as a length-1 axis: the shift that keeps softmax finite.
    A classifier's logits have few classes: NumPy's max over a short last axis walks row by
    row (12 us for 256 rows of 10, 36 us for 1,000 rows of 2); over the first axis of the
    transposed copy it runs down whole columns at once (3 us with the copy). Same values:
    a max is exact, and NaN propagates either way."""
    if (x.ndim >= 2 and axis in (-1, x.ndim - 1) and 1 < x.shape[-1] <= 16
            and x.size >= 64 * x.shape[-1]):
        rows = np.ascontiguousarray(x.reshape(-1, x.shape[-1]).T)    # (classes, rows)
        return np.maximum.reduce(rows, axis=0).reshape(x.shape[:-1] + (1,))
    return np.maximum.reduce(x, axis=axis, keepdims=True)


def _softmax_np(x, axis):
    e = np.exp(x - _max_kept(x, axis))
    e /= np.add.reduce(e, axis=axis, keepdims=True)
    return e


def _log_softmax_np(x, axis):
    shifted = x - _max_kept(x, axis)
    return shifted - np.log(np.add.reduce(np.exp(shifted), axis=axis, keepdims=True))


def _softmax_grad_forward(g, y, axis):
    return (g - np.sum(g * y, axis=axis, keepdims=True)) * y


def _softmax_grad_dy(gg, out, g, y, axis):
    # out = (g - Σ g·y) · y  ⇒  ∂y = gg · (g - Σ g·y) - g · Σ(gg · y)
    return gg * (g - reduce_sum(g * y, axis=axis, keepdims=True)) - \
        g * reduce_sum(gg * y, axis=axis, keepdims=True)


_softmax_grad = defop("SoftmaxGrad", _softmax_grad_forward,
                      [lambda gg, out, g, y, axis: apply(_softmax_grad, (gg, y), {"axis": axis}),
                       _softmax_grad_dy],
                      "y = (g - Σ g·s) · s  (s: the softmax)",
                      ["∂g = (gg - Σ gg·s) · s", "∂s = gg · (g - Σ g·s) - g · Σ gg·s"])
_softmax = defop("Softmax", _softmax_np,
                 [lambda g, y, x, axis: apply(_softmax_grad, (g, y), {"axis": axis})],
                 "y = eˣ / Σ eˣ  (max subtracted first)", ["∂x = (g - Σ g·y) · y"])


def softmax(logits, axis=None, name=None):
    """eˣ / Σ eˣ along `axis` (default -1), computed as e^(x - max x) / Σ e^(x - max x) so
    large logits do not overflow. Gradient: (g - Σ g·y) · y.

    >>> import tapeviz as tv
    >>> tv.nn.softmax([1000.0, 1000.0, 0.0]).numpy().tolist()
    [0.5, 0.5, 0.0]
    """
    x = _float(logits, "Softmax")
    axis = _neg_axis(-1 if axis is None else axis, x._value.ndim, "Softmax", x.shape)
    return graph_output(apply(_softmax, (x,), {"axis": axis}), x, is_graph_op=axis == -1)


_log_softmax_grad = defop("LogSoftmaxGrad",
                          lambda g, y, axis: g - np.exp(y) * np.sum(g, axis=axis, keepdims=True),
                          [lambda gg, out, g, y, axis:
                           gg - reduce_sum(gg * exp(y), axis=axis, keepdims=True),
                           lambda gg, out, g, y, axis:
                           -gg * exp(y) * reduce_sum(g, axis=axis, keepdims=True)],
                          "y = g - eˡ · Σ g  (l: the log-softmax)",
                          ["∂g = gg - Σ gg·eˡ", "∂l = -gg · eˡ · Σ g"])
_log_softmax = defop("LogSoftmax", _log_softmax_np,
                     [lambda g, y, x, axis: apply(_log_softmax_grad, (g, y), {"axis": axis})],
                     "y = x - log Σ eˣ  (max subtracted first)", ["∂x = g - eʸ · Σ g"])


def log_softmax(logits, axis=None, name=None):
    """x - log Σ eˣ along `axis` (default -1), with the max subtracted first. Gradient:
    g - eʸ · Σ g.

    >>> import tapeviz as tv
    >>> tv.nn.log_softmax([1000.0, 0.0]).numpy().tolist()
    [0.0, -1000.0]
    """
    x = _float(logits, "LogSoftmax")
    axis = _neg_axis(-1 if axis is None else axis, x._value.ndim, "LogSoftmax", x.shape)
    return apply(_log_softmax, (x,), {"axis": axis})


# --- l2_loss ----------------------------------------------------------------------------------
_l2_loss = defop("L2Loss", lambda x: (np.sum(np.square(x)) / 2).astype(x.dtype),
                 [lambda g, y, x: reshape(g, tuple(g.shape) + (1,) * x._value.ndim) * x],
                 "y = Σ x² / 2", ["∂x = g · x"])


def l2_loss(t, name=None):
    return apply(_l2_loss, (_float(t, "L2Loss"),))


# --- dropout ----------------------------------------------------------------------------------
def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zero each element with probability `rate` and scale the rest by 1 / (1 - rate), so the
    expected value is unchanged; `noise_shape` broadcasts one mask over some axes. The
    gradient is the same mask times g. Draws from `tv.random`'s seeded generator.

    >>> import tapeviz as tv
    >>> tv.random.set_seed(0)
    >>> sorted(set(tv.nn.dropout(tv.ones((100,)), rate=0.5).numpy().tolist()))
    [0.0, 2.0]
    """
    t = tensor(x)
    if t._value.dtype.kind != "f":
        raise ValueError("dropout: `x.dtype` must be a floating point tensor as `x` will be "
                         f"scaled. Received: x_dtype={t.dtype!r} (shape {tuple(t.shape)}). "
                         "Fix: tv.cast(x, tv.float32)")
    raw = np.asarray(rate._value if hasattr(rate, "_value") else rate)
    if raw.ndim or raw.dtype.kind not in "fiu" or not 0 <= float(raw) < 1:
        raise ValueError(f"dropout: `rate` must be a scalar tensor or a float in the range [0, 1)"
                         f". Received: rate={rate!r} (x of shape {tuple(t.shape)}). Fix: pass "
                         "the fraction of elements to drop, e.g. rate=0.5")
    r = float(raw)
    if r == 0:
        return t
    shape = tuple(t._value.shape) if noise_shape is None else tuple(
        s if s is not None and s != -1 else t._value.shape[i]
        for i, s in enumerate(shape_list(noise_shape)))
    keep = dropout_keep(shape, t.dtype, r, seed)
    scale = np.asarray(keep, t._value.dtype) * t._value.dtype.type(1 / (1 - r))
    return multiply(t, Tensor(scale, leaf_node("Const")))


__all__ = ["relu", "relu6", "leaky_relu", "elu", "gelu", "softplus", "log_sigmoid", "softsign",
           "softmax", "log_softmax", "l2_loss", "dropout", "erf"]
