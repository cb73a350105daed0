"""`tf.debugging`: runtime checks as eager TensorFlow runs them.

A check that holds returns None (`check_numerics` returns its input); one that fails raises
TensorFlow's class, `InvalidArgumentError` with TensorFlow's "Condition x == y did not hold."
report for the comparisons, `ValueError` for a wrong rank (known without running anything).

>>> import tapeviz as tv
>>> tv.debugging.assert_equal(tv.constant([1, 2]), [1, 2]) is None
True
"""
from __future__ import annotations

import numpy as np

from .engine.convert import convert_to_tensor
from .engine.errors import InvalidArgumentError
from .engine.ops import identity

__all__ = ["Assert", "assert_all_finite", "assert_equal", "assert_greater",
           "assert_greater_equal", "assert_less", "assert_less_equal", "assert_near",
           "assert_non_negative", "assert_none_equal", "assert_positive", "assert_rank",
           "check_numerics", "set_log_device_placement"]


def check_numerics(tensor, message, name=None):
    """`tensor` unchanged, or InvalidArgumentError if it holds a NaN or an infinity."""
    x = convert_to_tensor(tensor)
    if x._value.dtype.kind != "f":
        raise InvalidArgumentError(
            f"CheckNumerics: Value for attr 'T' of {x.dtype.name} is not in the list of allowed "
            "values: bfloat16, half, float, double. Fix: check a float tensor "
            "[Op:CheckNumerics]", "CheckNumerics")
    values = np.asarray(x._value)
    for bad, what in ((np.isnan(values), "NaN"), (np.isinf(values), "Inf")):
        if bad.any():
            raise InvalidArgumentError(
                f"{message} : Tensor had {what} values (first at index "
                f"{np.argwhere(bad)[0].tolist()} of shape {list(values.shape)}) "
                "[Op:CheckNumerics]", "CheckNumerics")
    return identity(x)


def assert_all_finite(t, msg, name=None, x=None, message=None):
    return check_numerics(t if x is None else x, msg if message is None else message)


def _first(values, n):
    return np.array2string(np.asarray(values).reshape(-1)[:n], separator=" ")


def _comparison(symbol, holds):
    def check(x, y, message=None, summarize=None, name=None):
        a = convert_to_tensor(x)
        b = convert_to_tensor(y, dtype_hint=a.dtype)
        if a.dtype != b.dtype:
            raise InvalidArgumentError(f"assert x {symbol} y: x has dtype {a.dtype.name} and y "
                                       f"has dtype {b.dtype.name}. Fix: tv.cast one of them "
                                       "first")
        av, bv = np.asarray(a._value), np.asarray(b._value)
        try:
            ok = np.asarray(holds(av, bv))
        except ValueError:
            raise InvalidArgumentError(
                f"Incompatible shapes: {list(av.shape)} vs. {list(bv.shape)} in assert x "
                f"{symbol} y. Fix: give x and y shapes that broadcast") from None
        if ok.all():
            return None
        n = 3 if summarize is None else summarize
        lines = [message] if message else []
        lines.append(f"Condition x {symbol} y did not hold.")
        if av.shape == bv.shape and av.ndim:
            where = np.argwhere(~ok)[:n]
            lines += [f"Indices of first {len(where)} different values:", str(where),
                      "Corresponding x values:", str(av[tuple(where.T)]),
                      "Corresponding y values:", str(bv[tuple(where.T)])]
        lines += [f"First {min(n, av.size)} elements of x:", _first(av, n),
                  f"First {min(n, bv.size)} elements of y:", _first(bv, n)]
        raise InvalidArgumentError("\n".join(lines))
    check.__name__ = check.__qualname__ = {"==": "assert_equal", "!=": "assert_none_equal",
                                           "<": "assert_less", "<=": "assert_less_equal",
                                           ">": "assert_greater",
                                           ">=": "assert_greater_equal"}[symbol]
    check.__doc__ = f"None if x {symbol} y everywhere (broadcasting), else InvalidArgumentError."
    return check


assert_equal = _comparison("==", np.equal)
assert_none_equal = _comparison("!=", np.not_equal)
assert_less = _comparison("<", np.less)
assert_less_equal = _comparison("<=", np.less_equal)
assert_greater = _comparison(">", np.greater)
assert_greater_equal = _comparison(">=", np.greater_equal)


def assert_positive(x, message=None, summarize=None, name=None):
    return assert_less(np.zeros((), convert_to_tensor(x)._value.dtype), x, message, summarize)


def assert_non_negative(x, message=None, summarize=None, name=None):
    return assert_less_equal(np.zeros((), convert_to_tensor(x)._value.dtype), x, message,
                             summarize)


def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """None if |x - y| <= atol + rtol·|y| everywhere (defaults: 10 · the dtype's eps)."""
    a = convert_to_tensor(x)
    b = convert_to_tensor(y, dtype_hint=a.dtype)
    eps = np.finfo(a._value.dtype).eps if a._value.dtype.kind == "f" else 0
    rtol = 10 * eps if rtol is None else rtol
    atol = 10 * eps if atol is None else atol
    av, bv = np.asarray(a._value), np.asarray(b._value)
    if np.all(np.abs(av - bv) <= atol + rtol * np.abs(bv)):
        return None
    lines = [message] if message else []
    lines += [f"x and y not equal to tolerance rtol = {rtol}, atol = {atol}",
              "x (shape=%s) = " % (list(av.shape),), _first(av, 3 if summarize is None
                                                            else summarize),
              "y (shape=%s) = " % (list(bv.shape),), _first(bv, 3 if summarize is None
                                                            else summarize)]
    raise InvalidArgumentError("\n".join(lines))


def assert_rank(x, rank, message=None, name=None):
    """None if `x` has rank `rank`, else ValueError (TensorFlow knows ranks statically)."""
    t = convert_to_tensor(x)
    if t._value.ndim != int(rank):
        prefix = f"{message}.  " if message else ""
        raise ValueError(f"{prefix}Tensor  must have rank {int(rank)}.  Received rank "
                         f"{t._value.ndim}, shape {tuple(t.shape)}")
    return None


def _summary(item, n):
    if isinstance(item, (str, bytes)):
        return repr(item.encode() if isinstance(item, str) else item)
    values = np.asarray(convert_to_tensor(item)._value).reshape(-1)
    text = ", ".join(str(v.item() if hasattr(v, "item") else v) for v in values[:n])
    return text + (", ..." if values.size > n else "")


def Assert(condition, data, summarize=None, name=None):   # noqa: N802  (TensorFlow's name)
    """None if `condition` is true, else InvalidArgumentError listing `data`."""
    c = convert_to_tensor(condition)
    if bool(np.all(np.asarray(c._value))):
        return None
    n = 3 if summarize is None else summarize
    raise InvalidArgumentError(f"Expected '{c!s}' to be true. Summarized data: "
                               + "\n".join(_summary(d, n) for d in data))


def set_log_device_placement(enabled):
    """Accepted: tapeviz runs every op on the CPU with NumPy, so there is nothing to log."""
    return None
