"""Elementwise math of `tnp`: NumPy's names and argument names over tapeviz's ops.

Binary functions promote their operands to one NumPy dtype first (`tnp.add(float32, float64)`
is float64, where `tf.add` refuses it); float functions of integers (`tnp.sqrt(32)`) compute in
float64. Everything runs through the same ops as `tf.*`, so the tape records and
differentiates it as it would `tf.math`.
"""
from __future__ import annotations

import numbers

import numpy as np

from ...engine import ops as _ops
from ...engine.tensor import Tensor
from ... import nn as _nn
from .promotion import asarray, cast, promote, promote_to_float, require_numpy_behavior

__all__ = ["add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "mod",
           "remainder", "power", "maximum", "minimum", "equal", "not_equal", "less",
           "less_equal", "greater", "greater_equal", "logical_and", "logical_or",
           "logical_xor", "logical_not", "exp", "expm1", "log", "log1p", "log2", "log10",
           "sqrt", "square", "abs", "absolute", "negative", "positive", "reciprocal", "sign",
           "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "floor",
           "ceil", "isnan", "isinf", "isfinite", "clip", "where", "around", "round", "fabs",
           "exp2", "deg2rad", "rad2deg", "hypot", "logaddexp", "logaddexp2", "cbrt",
           "signbit", "sinc", "float_power"]


def _binary(name, tf_fn, bool_fn=None):
    def fn(x1, x2):
        a, b = promote(x1, x2)
        if bool_fn is not None and a._value.dtype == np.bool_:
            return bool_fn(a, b)
        return tf_fn(a, b)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`np.{name}`: both operands promoted to their common dtype, then `{name}`."
    return fn


add = _binary("add", _ops.add, _ops.logical_or)
subtract = _binary("subtract", _ops.subtract)
multiply = _binary("multiply", _ops.multiply, _ops.logical_and)
power = _binary("power", _ops.pow)
minimum = _binary("minimum", _ops.minimum, _ops.logical_and)
equal = _binary("equal", _ops.equal)
not_equal = _binary("not_equal", _ops.not_equal)
less = _binary("less", _ops.less)
less_equal = _binary("less_equal", _ops.less_equal)
greater = _binary("greater", _ops.greater)
greater_equal = _binary("greater_equal", _ops.greater_equal)


def _as_int8_if_bool(a, b):
    if a._value.dtype == np.bool_:
        return cast(a, np.int8), cast(b, np.int8)
    return a, b


floor_divide = _binary("floor_divide", lambda a, b: _ops.floordiv(*_as_int8_if_bool(a, b)))
mod = _binary("mod", lambda a, b: _ops.floormod(*_as_int8_if_bool(a, b)))
remainder = mod


def true_divide(x1, x2) -> Tensor:
    """Division that always gives floats: ints as TensorFlow's `truediv` (float64)."""
    a, b = promote(x1, x2)
    if a._value.dtype == np.bool_:
        a, b = cast(a, np.float64), cast(b, np.float64)
    return _ops.truediv(a, b)


divide = true_divide


def maximum(x1, x2) -> Tensor:
    """`np.maximum`; `maximum(x, 0)` of a tensor is `relu(x)`, as in TensorFlow (so its
    gradient at 0 is relu's, 0)."""
    if (isinstance(x2, numbers.Real) and not isinstance(x2, bool) and x2 == 0
            and isinstance(x1, Tensor) and x1._value.dtype != np.bool_):
        return _nn.relu(x1)
    a, b = promote(x1, x2)
    if a._value.dtype == np.bool_:
        return _ops.logical_or(a, b)
    return _ops.maximum(a, b)


def _logical(name, tf_fn):
    def fn(x1, x2):
        return tf_fn(asarray(x1, np.bool_), asarray(x2, np.bool_))
    fn.__name__ = fn.__qualname__ = name
    return fn


logical_and = _logical("logical_and", _ops.logical_and)
logical_or = _logical("logical_or", _ops.logical_or)
logical_xor = _logical("logical_xor", _ops.logical_xor)


def logical_not(x) -> Tensor:
    return _ops.logical_not(asarray(x, np.bool_))


def _unary(name, tf_fn, to_float=True):
    def fn(x):
        x = asarray(x)
        return tf_fn(promote_to_float(x) if to_float else x)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`np.{name}`" + (" (integers computed as float64)." if to_float else ".")
    return fn


exp = _unary("exp", _ops.exp)
expm1 = _unary("expm1", _ops.expm1)
log = _unary("log", _ops.log)
log1p = _unary("log1p", _ops.log1p)
sqrt = _unary("sqrt", _ops.sqrt)
sin = _unary("sin", _ops.sin)
cos = _unary("cos", _ops.cos)
tan = _unary("tan", _ops.tan)
arcsin = _unary("arcsin", _ops.asin)
arccos = _unary("arccos", _ops.acos)
arctan = _unary("arctan", _ops.atan)
sinh = _unary("sinh", _ops.sinh)
cosh = _unary("cosh", _ops.cosh)
tanh = _unary("tanh", _ops.tanh)
floor = _unary("floor", _ops.floor)
ceil = _unary("ceil", _ops.ceil)
square = _unary("square", _ops.square, to_float=False)
abs = absolute = _unary("absolute", _ops.abs, to_float=False)
negative = _unary("negative", _ops.negative, to_float=False)
positive = _unary("positive", lambda x: x, to_float=False)
reciprocal = _unary("reciprocal", _ops.reciprocal, to_float=False)
sign = _unary("sign", _ops.sign, to_float=False)
isnan = _unary("isnan", _ops.is_nan)
isinf = _unary("isinf", _ops.is_inf)
isfinite = _unary("isfinite", _ops.is_finite)


def _log_base(name, base):
    def fn(x):
        x = promote_to_float(asarray(x))
        return _ops.log(x) / cast(asarray(np.log(base)), x._value.dtype)
    fn.__name__ = fn.__qualname__ = name
    return fn


log2 = _log_base("log2", 2.0)
log10 = _log_base("log10", 10.0)


def clip(a, a_min, a_max) -> Tensor:
    """`a` limited to [a_min, a_max] (either may be None), all three promoted to one dtype."""
    if a_min is None and a_max is None:
        raise ValueError("Not more than one of `a_min` and `a_max` may be `None`.")
    if a_min is None:
        return minimum(a, a_max)
    if a_max is None:
        return maximum(a, a_min)
    a, a_min, a_max = promote(a, a_min, a_max)
    shape = np.broadcast_shapes(a.shape, a_min.shape, a_max.shape)
    return _ops.clip_by_value(*(_ops.broadcast_to(t, shape) if t.shape != shape else t
                                for t in (a, a_min, a_max)))


def where(condition, x=None, y=None):
    """`x` where `condition`, else `y` (promoted to one dtype); with neither, the indices
    of the true elements, one array per axis."""
    condition = asarray(condition, np.bool_)
    if x is None and y is None:
        from .shapes import nonzero
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("Both x and y must be ndarrays, or both must be None.")
    x, y = promote(x, y)
    return _ops.where(condition, x, y)


def around(a, decimals=0) -> Tensor:
    """Rounded half to even at `decimals` digits, in `a`'s dtype."""
    a = asarray(a)
    require_numpy_behavior(a, "back to its dtype")
    dtype = a._value.dtype
    work = a if dtype.kind in "fc" else promote_to_float(a)
    # (TensorFlow casts the Python float, which it first makes a float32 tensor: 0.1 is
    # 0.10000000149, so 5 rounded to -1 decimals is 9, as in TensorFlow)
    factor = cast(asarray(np.float32(10.0 ** decimals)), work._value.dtype)
    return cast(_ops.round(work * factor) / factor, dtype)


round = around


# --- compositions, written as TensorFlow writes them (so their gradients are the same) ------
fabs = absolute
float_power = power
exp2 = _unary("exp2", lambda x: _ops.pow(2, x))
deg2rad = _unary("deg2rad", lambda x: _ops.multiply(x, np.pi / 180.0))


def rad2deg(x) -> Tensor:
    return asarray(x) * (180.0 / np.pi)


def hypot(x1, x2) -> Tensor:
    return sqrt(square(x1) + square(x2))


def _log_add(x1, x2, exp_fn, scale):
    """log(exp(x1) + exp(x2)) without overflow: the larger one plus log1p of the other's
    share (NaN deltas, from infinities of one sign, give x1 + x2)."""
    amax = maximum(x1, x2)
    delta = subtract(x1, x2)
    return where(isnan(delta), add(x1, x2), amax + log1p(exp_fn(-absolute(delta))) / scale)


def logaddexp(x1, x2) -> Tensor:
    return _log_add(x1, x2, exp, 1.0)


def logaddexp2(x1, x2) -> Tensor:
    return _log_add(x1, x2, exp2, np.log(2))


def _cbrt(x):
    root = _ops.pow(_ops.abs(x), 1.0 / 3)
    return _ops.where(_ops.less(x, 0), _ops.negative(root), root)


cbrt = _unary("cbrt", _cbrt)


def _sinc(x):
    pi_x = _ops.multiply(x, np.pi)
    return _ops.where(_ops.equal(x, 0), _ops.ones_like(x), _ops.sin(pi_x) / pi_x)


sinc = _unary("sinc", _sinc)


def signbit(x) -> Tensor:
    x = asarray(x)
    if x._value.dtype == np.bool_:
        return _ops.zeros_like(x, dtype=x.dtype)
    return _ops.less(x, 0)
