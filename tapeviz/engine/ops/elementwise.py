"""Elementwise maths: one block per op (forward, one VJP per input, formulas).

VJP rules use `g` (upstream gradient), `y` (the op's output) and the inputs by name. `g` may
carry extra leading dimensions (a Jacobian's batch); NumPy broadcasting handles them here.
"""
from __future__ import annotations

import operator

import numpy as np

from .. import dtypes as dt
from ..errors import InvalidArgumentError, UnimplementedError
from ..op import apply, defop
from ._base import _PY_NUMBERS, FLOAT, NUMERIC, SCALARS, pair, require, scalar, tensor
from .makers import ones_like, zeros_like
from ..convert import convert_to_tensor, like
from ..tensor import Tensor, _Operand
from ..threadstate import _local, graph_output


def _unary(name, forward, vjp, formula, grad, kinds=FLOAT, what="a floating-point",
           saves=None):
    op = defop(name, forward, None if vjp is None else [vjp], formula, [grad] if grad else [],
               saves=saves)

    def fn(x, name=None):
        if type(x) is not Tensor:   # (a tensor already: no call)
            x = tensor(x)
        if kinds is not None and x._value.dtype.kind not in kinds:
            require(x, op.name, kinds, what)
        return apply(op, (x,))
    fn.__name__ = fn.__qualname__ = name.lower()
    fn.op = op
    return fn


def _binary(name, forward, vjps, formula, grads, kinds=NUMERIC, what="a numeric",
            saves=None):
    op = defop(name, forward, vjps, formula, grads, saves=saves)

    def fn(x, y, name=None):
        # two tensors of one dtype (every VJP's `g * b`) need no `pair`, nor a float tensor
        # and a Python number (the user's `x * 2.0`): one call less. (A NumPy scalar's
        # `.dtype` is looked up on every read: each operand's is read once.)
        dtype = x._value.dtype if type(x) is Tensor else None
        if dtype is None or type(y) is not Tensor or y._value.dtype is not dtype:
            if dtype is not None and type(y) in _PY_NUMBERS and dtype.kind == "f":
                y = Tensor(SCALARS.get((y, dtype)) or scalar(y, dtype))
            else:
                x, y = pair(x, y, op.name)
                dtype = x._value.dtype
        if dtype.kind not in kinds:
            require(x, op.name, kinds, what)
        if check is not None:
            check(x, y)
        return apply(op, (x, y))
    check = _CHECKS.get(name)
    fn.op = op
    return fn


def _no_int_zero_divisor(x, y):
    if y._value.dtype.kind in "iu" and not np.all(y._value):
        raise InvalidArgumentError(
            f"Integer division by zero: the divisor (shape {tuple(y.shape)}, dtype "
            f"{y.dtype.name}) holds a 0. Fix: guard the divisor, e.g. "
            "tv.where(y == 0, 1, y), or divide floats [Op:FloorDiv]", "FloorDiv")


def _no_negative_int_power(x, y):
    if y._value.dtype.kind in "iu" and np.any(y._value < 0):
        raise InvalidArgumentError(
            f"Integers to negative integer powers are not allowed (exponent shape "
            f"{tuple(y.shape)}, dtype {y.dtype.name}). Fix: cast the base to float first "
            "[Op:Pow]", "Pow")


_CHECKS = {"FloorDiv": _no_int_zero_divisor, "FloorMod": _no_int_zero_divisor,
           "Pow": _no_negative_int_power}


# --- arithmetic ---------------------------------------------------------------------------
add_v2 = _binary("AddV2", operator.add, [lambda g, y, a, b: g, lambda g, y, a, b: g],
              "y = a + b", ["∂a = g", "∂b = g"], kinds="fiuO", what="a numeric or string",
              saves=((), False))


def add(x, y, name=None):
    """`tf.add` and `x + y`. TensorFlow converts `x` alone first, then `y` to its dtype only
    if it can (`_add_dispatch`): `tf.add(2, x)` of a float `x` and `i + 2.0` of an int `i` are
    dtype mismatches (InvalidArgumentError), not TypeErrors as `tf.multiply(i, 2.0)`."""
    if type(x) is Tensor and type(y) in _PY_NUMBERS and x._value.dtype.kind == "f":
        return add_v2(x, y)     # (`x + 0.5`: the number in x's dtype, as in `x * 0.5`)
    if not isinstance(y, _Operand):
        x = tensor(x) if isinstance(x, _Operand) else convert_to_tensor(x)
        try:
            y = like(y, x, "AddV2")
        except TypeError:
            y = convert_to_tensor(y)
    elif not isinstance(x, _Operand):
        x = convert_to_tensor(x)
    return add_v2(x, y)


subtract = _binary("Sub", operator.sub, [lambda g, y, a, b: g, lambda g, y, a, b: -g],
                   "y = a - b", ["∂a = g", "∂b = -g"], saves=((), False))
multiply = _binary("Mul", operator.mul, [lambda g, y, a, b: g * b, lambda g, y, a, b: g * a],
                   "y = a · b", ["∂a = g · b", "∂b = g · a"], saves=((0, 1), False))
_realdiv = _binary("RealDiv", operator.truediv,
                   [lambda g, y, a, b: g / b, lambda g, y, a, b: g * (-a / b / b)],
                   "y = a / b", ["∂a = g / b", "∂b = -g · a / b²"])


def divide(x, y, name=None):
    """`x / y`; integers are divided as floats (float64 for int32/int64, as TensorFlow)."""
    x, y = pair(x, y, "RealDiv")
    if x._value.dtype.kind in "iub":
        target = np.float32 if x._value.dtype.itemsize <= 2 else np.float64
        x, y = cast(x, target), cast(y, target)
    return _realdiv(x, y)


def truediv(x, y, name=None):
    """`x / y` as `divide`, except that, as TensorFlow's, it converts `x` alone first and
    then `y` to its dtype: `tf.truediv(0, x)` of a float `x` is refused."""
    if not isinstance(x, _Operand) and isinstance(y, _Operand):
        x, y = tensor(x), tensor(y)
        if x._value.dtype != y._value.dtype:
            raise TypeError(f"`x` and `y` must have the same dtype, got tf.{x.dtype.name} != "
                            f"tf.{y.dtype.name} (truediv of shapes {tuple(x.shape)} and "
                            f"{tuple(y.shape)}). Fix: pass x as a tensor of y's dtype, e.g. "
                            f"tv.constant(x, tv.{y.dtype.name}), or use tv.divide")
    return divide(x, y)
floordiv = _binary("FloorDiv", np.floor_divide, None, "y = ⌊a / b⌋", [])
floormod = _binary("FloorMod", np.mod,
                   [lambda g, y, a, b: g, lambda g, y, a, b: -g * floor(a / b)],
                   "y = a mod b", ["∂a = g", "∂b = -g · ⌊a / b⌋"])
mod = floormod


def _pow_db(g, y, a, b):
    positive = a > 0
    safe = where(positive, a, ones_like(a))
    return g * y * where(positive, log(safe), zeros_like(a))


pow = _binary("Pow", np.power,
              [lambda g, y, a, b: g * b * a ** (b - 1), _pow_db],
              "y = aᵇ", ["∂a = g · b · aᵇ⁻¹", "∂b = g · aᵇ · log(a)  (0 where a ≤ 0)"])


def _max_da(g, y, a, b):
    return where(a >= b, g, zeros_like(g))


def _max_db(g, y, a, b):
    return where(a >= b, zeros_like(g), g)


maximum = _binary("Maximum", np.maximum, [_max_da, _max_db], "y = max(a, b)",
                  ["∂a = g where a ≥ b", "∂b = g where a < b"])
minimum = _binary("Minimum", np.minimum,
                  [lambda g, y, a, b: where(a <= b, g, zeros_like(g)),
                   lambda g, y, a, b: where(a <= b, zeros_like(g), g)],
                  "y = min(a, b)", ["∂a = g where a ≤ b", "∂b = g where a > b"])
squared_difference = _binary("SquaredDifference", lambda a, b: np.square(a - b),
                             [lambda g, y, a, b: g * 2.0 * (a - b),
                              lambda g, y, a, b: g * -2.0 * (a - b)],
                             "y = (a - b)²", ["∂a = 2g(a - b)", "∂b = -2g(a - b)"])
divide_no_nan = _binary("DivNoNan", lambda a, b: np.where(b == 0, 0, a / np.where(b == 0, 1, b))
                        .astype(a.dtype),
                        [lambda g, y, a, b: divide_no_nan(g, b),
                         # TensorFlow's order: b·b would overflow to inf for a large b
                         lambda g, y, a, b: g * divide_no_nan(divide_no_nan(-a, b), b)],
                        "y = a / b (0 where b = 0)", ["∂a = g / b", "∂b = -g · a / b²"])

# --- unary ---------------------------------------------------------------------------------
negative = _unary("Neg", operator.neg, lambda g, y, x: -g, "y = -x", "∂x = -g", NUMERIC, "a numeric",
                  saves=((), False))
abs = _unary("Abs", np.abs, lambda g, y, x: g * sign(x), "y = |x|", "∂x = g · sign(x)",
             NUMERIC, "a numeric")
sign = _unary("Sign", np.sign, lambda g, y, x: zeros_like(g), "y = sign(x)", "∂x = 0",
              NUMERIC, "a numeric")
square = _unary("Square", np.square, lambda g, y, x: g * (2.0 * x), "y = x²", "∂x = 2g · x",
                NUMERIC, "a numeric")


# TensorFlow's SqrtGrad, RsqrtGrad and ReciprocalGrad kernels are exactly 0 where the upstream
# gradient is 0, even at x = 0 (that is why `where(x > 0, sqrt(x), 0)` has no NaN while
# `x ** 0.5` does), yet their own gradients are the plain formulas': as ops of their own, with
# TensorFlow's second derivatives, a zero upstream gradient does not hide d/dg
def _where_upstream(g, value):
    return np.where(g == 0, np.zeros((), value.dtype), value)


_sqrt_grad = defop("SqrtGrad", lambda y, g: _where_upstream(g, g * 0.5 / y),
                   [lambda gg, out, y, g: -(gg / y) * out, lambda gg, out, y, g: 0.5 * gg / y],
                   "out = g / (2y), y = √x  (0 where g = 0)",
                   ["∂y = -gg · out / y", "∂g = gg / (2y)"])
_rsqrt_grad = defop("RsqrtGrad", lambda y, g: _where_upstream(g, g * -0.5 * y * y * y),
                    [lambda gg, out, y, g: -1.5 * gg * g * y * y,
                     lambda gg, out, y, g: apply(_rsqrt_grad, (y, gg))],
                    "out = -g · y³ / 2, y = 1/√x  (0 where g = 0)",
                    ["∂y = -1.5 · gg · g · y²", "∂g = -gg · y³ / 2"])
_reciprocal_grad = defop("ReciprocalGrad", lambda y, g: _where_upstream(g, -g * y * y),
                         [lambda gg, out, y, g: gg * -2.0 * g * y,
                          lambda gg, out, y, g: apply(_reciprocal_grad, (y, gg))],
                         "out = -g · y², y = 1/x  (0 where g = 0)",
                         ["∂y = -2 · gg · g · y", "∂g = -gg · y²"])


sqrt = _unary("Sqrt", np.sqrt, lambda g, y, x: apply(_sqrt_grad, (y, g)), "y = √x",
              "∂x = g / (2√x)  (0 where g = 0)")
rsqrt = _unary("Rsqrt", lambda x: 1 / np.sqrt(x), lambda g, y, x: apply(_rsqrt_grad, (y, g)),
               "y = 1/√x", "∂x = -g / (2 x^1.5)  (0 where g = 0)")
exp = _unary("Exp", np.exp, lambda g, y, x: g * y, "y = eˣ", "∂x = g · eˣ", saves=((), True))
expm1 = _unary("Expm1", np.expm1, lambda g, y, x: g * exp(x), "y = eˣ - 1", "∂x = g · eˣ")
log = _unary("Log", np.log, lambda g, y, x: g * reciprocal(x), "y = log(x)", "∂x = g / x")
log1p = _unary("Log1p", np.log1p, lambda g, y, x: g * reciprocal(1.0 + x), "y = log(1 + x)",
               "∂x = g / (1 + x)")
reciprocal = _unary("Reciprocal", lambda x: 1 / x,
                    lambda g, y, x: apply(_reciprocal_grad, (y, g)), "y = 1/x",
                    "∂x = -g / x²  (0 where g = 0)")
sin = _unary("Sin", np.sin, lambda g, y, x: g * cos(x), "y = sin(x)", "∂x = g · cos(x)")
cos = _unary("Cos", np.cos, lambda g, y, x: -g * sin(x), "y = cos(x)", "∂x = -g · sin(x)")
tan = _unary("Tan", np.tan, lambda g, y, x: g * square(reciprocal(cos(x))), "y = tan(x)",
             "∂x = g / cos²(x)")
tanh = _unary("Tanh", np.tanh, lambda g, y, x: g * (1.0 - y * y), "y = tanh(x)",
              "∂x = g · (1 - y²)", saves=((), True))
sinh = _unary("Sinh", np.sinh, lambda g, y, x: g * cosh(x), "y = sinh(x)", "∂x = g · cosh(x)")
cosh = _unary("Cosh", np.cosh, lambda g, y, x: g * sinh(x), "y = cosh(x)", "∂x = g · sinh(x)")
asin = _unary("Asin", np.arcsin, lambda g, y, x: g * rsqrt(1.0 - x * x), "y = asin(x)",
              "∂x = g / √(1 - x²)")
acos = _unary("Acos", np.arccos, lambda g, y, x: -g * rsqrt(1.0 - x * x), "y = acos(x)",
              "∂x = -g / √(1 - x²)")
atan = _unary("Atan", np.arctan, lambda g, y, x: g * reciprocal(1.0 + x * x), "y = atan(x)",
              "∂x = g / (1 + x²)")


def _sigmoid(x):
    # the two-sided form never overflows: exp of a non-positive number only
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False)


_sigmoid_op = _unary("Sigmoid", _sigmoid, lambda g, y, x: g * y * (1.0 - y),
                     "y = 1 / (1 + e⁻ˣ)", "∂x = g · y · (1 - y)")


def sigmoid(x, name=None):
    """1 / (1 + e⁻ˣ). Gradient: g · y · (1 - y)."""
    y = _sigmoid_op(x)
    if _local.state.traces:    # (graph_output inlined: sigmoid runs in every LSTM step)
        graph_output(y, x if type(x) is Tensor else tensor(x))
    return y


sigmoid.op = _sigmoid_op.op
floor = _unary("Floor", np.floor, None, "y = ⌊x⌋", None)
ceil = _unary("Ceil", np.ceil, None, "y = ⌈x⌉", None)
round = _unary("Round", np.round, None, "y = round(x)", None)
is_nan = _unary("IsNan", np.isnan, None, "y = isnan(x)", None)
is_finite = _unary("IsFinite", np.isfinite, None, "y = isfinite(x)", None)
is_inf = _unary("IsInf", np.isinf, None, "y = isinf(x)", None)


# --- comparisons and logic: no gradient -------------------------------------------------------
def _compare(name, forward, symbol, kinds=None):
    op = defop(name, forward, None, f"y = a {symbol} b")

    def fn(x, y, name=None):
        x, y = pair(x, y, op.name, compare=True)
        if kinds is not None:
            require(x, op.name, kinds, "a bool")
        return apply(op, (x, y))
    fn.op = op
    return fn


equal = _compare("Equal", np.equal, "==")
not_equal = _compare("NotEqual", np.not_equal, "!=")
greater = _compare("Greater", np.greater, ">")
greater_equal = _compare("GreaterEqual", np.greater_equal, ">=")
less = _compare("Less", np.less, "<")
less_equal = _compare("LessEqual", np.less_equal, "<=")
logical_and = _compare("LogicalAnd", np.logical_and, "and", "b")
logical_or = _compare("LogicalOr", np.logical_or, "or", "b")
logical_xor = _compare("LogicalXor", np.logical_xor, "xor", "b")
logical_not = _unary("LogicalNot", np.logical_not, None, "y = not x", None, "b", "a bool")

# --- selection ------------------------------------------------------------------------------
_select = defop("SelectV2", lambda c, a, b: np.where(c, a, b),
                [None, lambda g, y, c, a, b: where(c, g, zeros_like(g)),
                 lambda g, y, c, a, b: where(c, zeros_like(g), g)],
                "y = a where c else b",
                ["(none: c is a condition)", "∂a = g where c", "∂b = g where not c"])


def where(condition, x=None, y=None, name=None):
    """Pick `x` where `condition` is true, else `y` (broadcasting). With one argument, the
    indices of the true elements."""
    c = tensor(condition)
    if x is None and y is None:
        return apply(_where_indices, (c,))
    if x is None or y is None:
        given = "x" if y is None else "y"
        raise ValueError(f"where: x and y must both be given or both be None, got only {given} "
                         f"(condition shape {tuple(c.shape)}). Fix: pass the other branch too, "
                         f"e.g. tv.where(cond, {given}, tv.zeros_like({given})), or neither for "
                         f"the indices of the true elements")
    if c._value.dtype.kind != "b":
        raise InvalidArgumentError(
            f"where: condition must be bool, got {c.dtype.name} with shape {tuple(c.shape)}. "
            "Fix: compare first, e.g. tv.where(x > 0, a, b) [Op:SelectV2]", "SelectV2")
    a, b = pair(x, y, "SelectV2")
    return apply(_select, (c, a, b))


_where_indices = defop("Where", lambda c: np.argwhere(c).astype(np.int64), None,
                       "y = indices where c")

# TensorFlow's order, max(min(x, hi), lo): with lo > hi every value becomes lo
_clip = defop("ClipByValue", lambda x, lo, hi: np.maximum(np.minimum(x, hi), lo),
              [lambda g, y, x, lo, hi: where((x >= lo) & (x <= hi), g, zeros_like(g)),
               lambda g, y, x, lo, hi: where(minimum(x, hi) < lo, g, zeros_like(g)),
               lambda g, y, x, lo, hi: where((x > hi) & (hi >= lo), g, zeros_like(g))],
              "y = max(min(x, hi), lo)",
              ["∂x = g where lo ≤ x ≤ hi, else 0", "∂lo = g where min(x, hi) < lo",
               "∂hi = g where x > hi ≥ lo"])


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Clip `t` to [min, max]; the gradient is 0 where the value was held at a bound."""
    x = tensor(t)
    for bound in (clip_value_min, clip_value_max):
        if isinstance(bound, (str, bytes)):
            raise TypeError(f"ClipByValue: Cannot convert the bound {bound!r} to EagerTensor of "
                            f"dtype {x.dtype.name} (t has shape {tuple(x.shape)}). Fix: pass "
                            "numbers, e.g. tv.clip_by_value(t, 0.0, 1.0)")
    lo = like(clip_value_min, x, "ClipByValue")
    hi = like(clip_value_max, x, "ClipByValue")
    for other in (lo, hi):
        if other._value.dtype != x._value.dtype:
            from ._base import dtype_mismatch
            raise dtype_mismatch("ClipByValue", x, other)
        if other._value.ndim and other._value.shape != x._value.shape and \
                _broadcasts(x._value.shape, other._value.shape) not in (None, x._value.shape):
            # TF: the result keeps t's shape; a bound that would broadcast it is refused (a
            # bound that cannot broadcast at all is the kernel's InvalidArgumentError)
            raise ValueError(f"ClipByValue: Shapes {tuple(x.shape)} and {tuple(other.shape)} "
                             f"are incompatible: the bounds must not change the shape of t "
                             f"({x.dtype.name}). Fix: pass scalar bounds, or bounds of t's shape")
    return apply(_clip, (x, lo, hi))


def _broadcasts(a, b):
    """The broadcast shape of `a` and `b`, or None when they do not broadcast."""
    try:
        return np.broadcast_shapes(a, b)
    except ValueError:
        return None


# --- dtype casts -----------------------------------------------------------------------------
def _cast_forward(x, dtype):
    return x.astype(dtype)


_cast = defop("Cast", _cast_forward, [lambda g, y, x, dtype: cast(g, x.dtype)],
              "y = cast(x)", ["∂x = cast(g) (only between float types)"])


def cast(x, dtype, name=None):
    """Change the dtype. Float to int (or bool) ends every gradient path through it."""
    x = tensor(x)
    if dtype is None or dtype is int or dtype is str:   # (NumPy reads them as float64, int64
        # and str; TF refuses them, though it takes `float` and `bool`)
        raise TypeError(f"Cast: Cannot convert the argument `type_value`: {dtype!r} to a tapeviz "
                        f"DType (casting a {x.dtype.name} tensor of shape {tuple(x.shape)}). "
                        "Fix: pass a dtype, e.g. tv.cast(x, tv.float32)")
    target = dt.as_dtype(dtype)
    if x._value.dtype == target.np:
        return x
    if x.dtype.is_string != target.is_string:
        raise UnimplementedError(
            f"Cast: casting {x.dtype.name} to {target.name} is not supported (shape "
            f"{tuple(x.shape)}). Fix: parse or format the values in Python before making the "
            "tensor, e.g. tv.constant(float(s)) [Op:Cast]", "Cast")
    return apply(_cast, (x,), {"dtype": target.np})


__all__ = ["abs", "acos", "add", "asin", "atan", "cast", "ceil", "clip_by_value", "cos",
           "cosh", "divide", "divide_no_nan", "equal", "exp", "expm1", "floor",
           "floordiv", "floormod", "greater", "greater_equal", "is_finite", "is_inf",
           "is_nan", "less", "less_equal", "log", "log1p", "logical_and", "logical_not",
           "logical_or", "logical_xor", "maximum", "minimum", "mod", "multiply",
           "negative", "not_equal", "pow", "reciprocal", "round", "rsqrt", "sigmoid",
           "sign", "sin", "sinh", "sqrt", "square", "squared_difference", "subtract",
           "tan", "tanh", "truediv", "where"]
