"""Reductions and products of `tnp`: sum, mean, max, argmax, dot, matmul and relatives, with
NumPy's result dtypes (an int32 sum is int64, a mean of ints float64), over tapeviz's
`reduce_*`, `matmul` and `tensordot` ops."""
from __future__ import annotations

import numpy as np

from ...engine import ops as _ops
from ...engine.errors import InvalidArgumentError
from ...engine.tensor import Tensor
from .promotion import array, asarray, cast, dtype_arg, np_result_type, promote
from .promotion import require_numpy_behavior

__all__ = ["sum", "prod", "mean", "amax", "amin", "max", "min", "std", "var", "argmax",
           "argmin", "all", "any", "cumsum", "dot", "matmul", "tensordot", "outer", "inner",
           "einsum", "isclose", "allclose", "count_nonzero", "average", "ptp", "vdot",
           "array_equal"]

_TO_INT, _TO_FLOAT = "int", "float"


def _reduce(tf_fn, a, axis=None, dtype=None, keepdims=None, promote_int=_TO_INT,
            bool_fn=None, preserve_bool=False):
    """TF-NumPy's reduction: ints and bools summed as int64 (NumPy's `int_`), averaged as
    float64; a bool max/min is `any`/`all`."""
    dtype = dtype_arg(dtype)
    keepdims = bool(keepdims)
    a = asarray(a, dtype)
    kind = a._value.dtype.kind
    if bool_fn is not None and (dtype == np.bool_ or (preserve_bool and kind == "b")):
        return bool_fn(a, axis=axis, keepdims=keepdims)
    if dtype is None and kind in "biu":
        if promote_int == _TO_INT and (kind == "b" or a._value.dtype.itemsize < 8):
            a = cast(a, np.uint64 if kind == "u" else np.int64)
        elif promote_int == _TO_FLOAT:
            a = cast(a, np.float64)
    return tf_fn(a, axis=_axis_arg(axis), keepdims=keepdims)


def _axis_arg(axis):
    if isinstance(axis, Tensor):
        return np.asarray(axis._value).tolist()
    return list(axis) if isinstance(axis, tuple) else axis


def sum(a, axis=None, dtype=None, keepdims=None) -> Tensor:  # noqa: A001
    return _reduce(_ops.reduce_sum, a, axis, dtype, keepdims, bool_fn=_ops.reduce_any)


def prod(a, axis=None, dtype=None, keepdims=None) -> Tensor:
    return _reduce(_ops.reduce_prod, a, axis, dtype, keepdims, bool_fn=_ops.reduce_all)


def _no_out(out, name):
    if out is not None:
        raise ValueError(f"Setting out is not supported (tnp.{name}). Fix: use the returned "
                         "array; tensors are immutable")


def mean(a, axis=None, dtype=None, out=None, keepdims=None) -> Tensor:
    _no_out(out, "mean")
    return _reduce(_ops.reduce_mean, a, axis, dtype, keepdims, promote_int=_TO_FLOAT)


def amax(a, axis=None, out=None, keepdims=None) -> Tensor:
    _no_out(out, "amax")
    return _reduce(_ops.reduce_max, a, axis, None, keepdims, promote_int=None,
                   bool_fn=_ops.reduce_any, preserve_bool=True)


def amin(a, axis=None, out=None, keepdims=None) -> Tensor:
    _no_out(out, "amin")
    return _reduce(_ops.reduce_min, a, axis, None, keepdims, promote_int=None,
                   bool_fn=_ops.reduce_all, preserve_bool=True)


max, min = amax, amin  # noqa: A001


def std(a, axis=None, keepdims=None) -> Tensor:
    return _reduce(_ops.reduce_std, a, axis, None, keepdims, promote_int=_TO_FLOAT)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=None) -> Tensor:
    """The variance; `ddof` divides by N - ddof, as NumPy."""
    _no_out(out, "var")
    if ddof != 0 and dtype is None:
        # (TensorFlow 2.21 casts the result to `dtype`, None, and fails)
        raise TypeError("tnp.var: Cannot convert the argument `type_value`: None to a tapeviz "
                        f"DType (ddof={ddof} without dtype). Fix: pass dtype=, e.g. "
                        "tnp.var(x, ddof=1, dtype=tnp.float64)")

    def with_ddof(x, axis, keepdims):
        centered = _ops.square(x - _ops.reduce_mean(x, axis=axis, keepdims=True))
        total = _ops.reduce_sum(centered, axis=axis, keepdims=keepdims)
        n = int(np.prod(x.shape)) if axis is None else int(np.prod(
            [x.shape[i] for i in np.atleast_1d(axis)]))
        return total / cast(asarray(float(n - ddof)), x._value.dtype)

    fn = _ops.reduce_variance if ddof == 0 else with_ddof
    result = _reduce(fn, a, axis, dtype, keepdims, promote_int=_TO_FLOAT)
    return result if dtype is None else cast(result, dtype_arg(dtype))


def _arg(tf_fn, a, axis):
    a = array(a)
    if axis is None:
        return tf_fn(_ops.reshape(a, [-1]), axis=0)
    return tf_fn(_ops.reshape(a, [1]) if a.ndim == 0 else a, axis=axis)


def argmax(a, axis=None) -> Tensor:
    return _arg(_ops.argmax, a, axis)


def argmin(a, axis=None) -> Tensor:
    return _arg(_ops.argmin, a, axis)


def all(a, axis=None, keepdims=None) -> Tensor:  # noqa: A001
    return _ops.reduce_all(asarray(a, np.bool_), axis=_axis_arg(axis), keepdims=bool(keepdims))


def any(a, axis=None, keepdims=None) -> Tensor:  # noqa: A001
    return _ops.reduce_any(asarray(a, np.bool_), axis=_axis_arg(axis), keepdims=bool(keepdims))


def cumsum(a, axis=None, dtype=None) -> Tensor:
    a = asarray(a, dtype)
    if dtype is None and a._value.dtype.kind in "iu" and a._value.dtype.itemsize < 8:
        a = cast(a, np.int64)
    if axis is None:
        a, axis = _ops.reshape(a, [-1]), 0
    return _ops.cumsum(a, axis=axis)


def _as_value_error(fn, name):
    """TensorFlow's tnp.matmul says ValueError where tf.matmul says InvalidArgumentError."""
    def wrapped(*args):
        try:
            return fn(*args)
        except InvalidArgumentError as err:
            raise ValueError(f"tnp.{name}: {err}") from None
    return wrapped


def _dot(a, b):
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    return _ops.tensordot(a, b, axes=[[-1], [-1 if b.ndim == 1 else -2]])


def dot(a, b) -> Tensor:
    """NumPy's dot: a product of scalars, a sum over the last axis of `a` and the last (or,
    from rank 2 on, second-to-last) axis of `b`."""
    return _dot(*promote(a, b))


def _matmul(x1, x2):
    if x1.ndim == 2 and x2.ndim == 2:
        return _ops.matmul(x1, x2)
    if x2.ndim == 1:
        return _ops.tensordot(x1, x2, axes=1)
    if x1.ndim == 1:
        return _ops.tensordot(x1, x2, axes=[[0], [-2]])
    return _ops.matmul(x1, x2)


_matmul_checked = _as_value_error(_matmul, "matmul")


def matmul(x1, x2) -> Tensor:
    """NumPy's matmul: a matrix product, batched over leading axes; a vector operand is a
    row (first) or a column (second)."""
    return _matmul_checked(*promote(x1, x2))


def tensordot(a, b, axes=2) -> Tensor:
    a, b = promote(a, b)
    return _ops.tensordot(a, b, axes=axes)


def outer(a, b) -> Tensor:
    a, b = promote(a, b)
    return _ops.reshape(a, [-1, 1]) * _ops.reshape(b, [-1])


def inner(a, b) -> Tensor:
    a, b = promote(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    return _ops.tensordot(a, b, axes=[[-1], [-1]])


def einsum(subscripts, *operands, **kwargs) -> Tensor:
    return _ops.einsum(subscripts, *promote(*operands))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) -> Tensor:
    """Where |a - b| <= atol + rtol * |b| (exact equality for integers)."""
    a, b = promote(a, b)
    if a._value.dtype.kind not in "fc":
        return _ops.equal(a, b)
    result = _ops.less_equal(_ops.abs(a - b), cast(asarray(atol), a._value.dtype) +
                             cast(asarray(rtol), a._value.dtype) * _ops.abs(b))
    if equal_nan:
        result = _ops.logical_or(result, _ops.logical_and(_ops.is_nan(a), _ops.is_nan(b)))
    return result


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) -> Tensor:
    return all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def count_nonzero(a, axis=None) -> Tensor:
    return _ops.count_nonzero(array(a), axis=_axis_arg(axis))


def average(a, axis=None, weights=None, returned=False):
    """The mean along `axis`, or the `weights`-weighted mean (weights of a's shape, or one
    per element of `axis`); with `returned`, also the sum of the weights."""
    if axis is not None and not isinstance(axis, int):
        raise ValueError(f"Argument `axis` must be an integer. Received axis={axis} (of type "
                         f"{type(axis)})")
    a = array(a)
    if weights is None:
        if a._value.dtype.kind not in "fc":
            require_numpy_behavior(a, "to float")
            a = cast(a, np_result_type(a._value.dtype, np.float64))
        avg = _ops.reduce_mean(a, axis=axis)
        count = a._value.size if axis is None else a.shape[axis]
        weights_sum = cast(asarray(count), a._value.dtype)
    else:
        extra = () if a._value.dtype.kind in "fc" else (np.float64,)
        out_dtype = np_result_type(a._value.dtype, weights, *extra)
        a, weights = array(a, out_dtype), array(weights, out_dtype)
        if axis is None or a.ndim == weights.ndim:
            weights_sum = _ops.reduce_sum(weights, axis=axis)
            avg = _ops.reduce_sum(a * weights, axis=axis) / weights_sum
        else:
            weights_sum = _ops.reduce_sum(weights)
            avg = _ops.tensordot(a, weights, [[axis], [0]]) / weights_sum
    if returned:
        return avg, _ops.broadcast_to(weights_sum, list(avg.shape))
    return avg


def ptp(a, axis=None, keepdims=None) -> Tensor:
    """The range (max - min) along `axis`."""
    return amax(a, axis=axis, keepdims=keepdims) - amin(a, axis=axis, keepdims=keepdims)


def vdot(a, b) -> Tensor:
    return dot(_ops.reshape(asarray(a), [-1]), _ops.reshape(asarray(b), [-1]))


def array_equal(a1, a2) -> Tensor:
    """True when both have one shape and equal elements (False for different shapes)."""
    a1, a2 = promote(a1, a2)
    if a1.shape != a2.shape:
        return asarray(False)
    return _ops.reduce_all(_ops.equal(a1, a2))
