"""Making arrays: `tnp.zeros`, `ones`, `full`, `eye`, `arange`, `linspace` and their `_like`
forms, with TF-NumPy's dtypes (float64 by default, int64 for `arange` of ints), each built
on tapeviz's own makers and ops."""
from __future__ import annotations

import numpy as np

from ...engine import dtypes as _dt
from ...engine import ops as _ops
from ...engine.convert import constant
from ...engine.tensor import Tensor
from .promotion import array, asarray, cast, default_float_type, dtype_arg, np_result_type

__all__ = ["zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like",
           "full_like", "eye", "identity", "arange", "linspace", "copy", "tri"]


def _tf(dtype) -> _dt.DType:
    return _dt.from_numpy(np.dtype(dtype))


def _shape(shape):
    if isinstance(shape, Tensor):
        return [int(d) for d in np.asarray(shape._value).reshape(-1)]
    return shape


def zeros(shape, dtype=float) -> Tensor:
    dtype = dtype_arg(dtype) if dtype else default_float_type()
    return _ops.zeros(_shape(shape), dtype=_tf(dtype))


def _given(dtype, op):
    """`ones` and `eye` pass `dtype=None` on to TensorFlow's, which refuses it."""
    if dtype is None:
        raise TypeError(f"tnp.{op}: Cannot convert the argument `type_value`: None to a "
                        "tapeviz DType. Fix: leave dtype out (float64) or pass one, e.g. "
                        "dtype=tnp.float32")
    return dtype_arg(dtype)


def ones(shape, dtype=float) -> Tensor:
    return _ops.ones(_shape(shape), dtype=_tf(_given(dtype, "ones")))


def empty(shape, dtype=float) -> Tensor:
    """Zeros: a tensor is never uninitialised."""
    return zeros(shape, dtype)


def _like_dtype(a, dtype):
    if dtype:
        return dtype_arg(dtype)
    if isinstance(a, str):
        return np.dtype(np.str_)
    return np_result_type(a)


def zeros_like(a, dtype=None) -> Tensor:
    return _ops.zeros_like(asarray(a), dtype=_tf(_like_dtype(a, dtype)))


def ones_like(a, dtype=None) -> Tensor:
    return _ops.ones_like(asarray(a), dtype=_tf(_like_dtype(a, dtype)))


def empty_like(a, dtype=None) -> Tensor:
    return zeros_like(a, dtype)


def full(shape, fill_value, dtype=None) -> Tensor:
    """`fill_value` (its own dtype unless `dtype=` is given) broadcast to `shape`."""
    shape = np.atleast_1d(np.asarray(_shape(shape), dtype=np.int64)).tolist()
    return _ops.broadcast_to(asarray(fill_value, dtype), shape)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None) -> Tensor:
    if order != "K" or not subok or shape:
        raise ValueError("tnp.full_like: order, subok and shape cannot be changed (as in "
                         "TensorFlow). Fix: leave them out, or use tnp.full(shape, value)")
    a = asarray(a)
    return _ops.broadcast_to(asarray(fill_value, dtype or a._value.dtype), list(a.shape))


def eye(N, M=None, k=0, dtype=float) -> Tensor:  # noqa: N803  (NumPy's argument names)
    """Ones on the `k`-th diagonal of an N x M matrix."""
    dtype = _given(dtype, "eye")
    N, M, k = int(N), int(M or N), int(k)
    return constant(np.eye(N, M, k, dtype=dtype))


def tri(N, M=None, k=0, dtype=None) -> Tensor:  # noqa: N803
    """Ones at and below the k-th diagonal of an N x M matrix (float64 by default)."""
    dtype = dtype_arg(dtype) if dtype is not None else np_result_type(float)
    return constant(np.tri(int(N), None if M is None else int(M), int(k), dtype=dtype))


def identity(n, dtype=float) -> Tensor:
    return eye(n, n, dtype=dtype)


def arange(start, stop=None, step=1, dtype=None) -> Tensor:
    """`start, start + step, ...` below `stop`; ints give int64 and floats float64 (the
    common dtype of the three numbers), unless `dtype=` says otherwise."""
    if not step:
        raise ValueError("tnp.arange: step must be non-zero. Fix: e.g. tnp.arange(0, 10, 2)")
    if dtype:
        dtype = dtype_arg(dtype)
    else:
        dtype = np_result_type(start, step) if stop is None else np_result_type(start, step, stop)
    if stop is None:
        start, stop = 0, start
    values = np.arange(start, stop, step, dtype=np.result_type(start, stop, step))
    return constant(values.astype(dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=float, axis=0):
    """`num` evenly spaced numbers from `start` to `stop` (differentiable in both, as
    TensorFlow's, which builds it from `tf.linspace`)."""
    if num < 0:
        raise ValueError(f"Argument `num` (number of samples) must be a non-negative integer. "
                         f"Received: num={num}")
    if dtype:
        # as NumPy 2 (and TensorFlow with it): the dtype follows start and stop
        dtype = np_result_type([start * 1.0, stop * 1.0])
    start = array(start, dtype=dtype)
    stop = array(stop, dtype=dtype)
    step = constant(np.nan)
    if endpoint:
        result = _ops.linspace(start, stop, num, axis=axis)
        if num > 1:
            step = (stop - start) / (num - 1)
    else:
        if num > 0:
            step = (stop - start) / num
        if num > 1:
            result = _ops.linspace(start, stop - step, num, axis=axis)
        else:
            result = _ops.linspace(start, stop, num, axis=axis)
    if dtype is not None and np.dtype(dtype).kind in "iu":
        result = _ops.floor(result)
    if dtype is not None:
        result = cast(result, dtype)
    return (result, step) if retstep else result


def copy(a) -> Tensor:
    return array(a, copy=True)
