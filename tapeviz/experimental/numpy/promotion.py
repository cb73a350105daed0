"""TensorFlow-NumPy's dtype rules and conversion: what every `tnp` function does to its
arguments before it calls one of tapeviz's ops.

TensorFlow's `tf.experimental.numpy` infers dtypes as NumPy does, not as `tf.constant` does:
a Python float is float64 (float32 after `experimental_enable_numpy_behavior(
prefer_float32=True)`), a Python int is int64, and two operands of different dtypes are
promoted with `np.result_type` (Python scalars are "weak": `float32 array * 2.0` stays
float32). A tensor keeps its dtype; converting one to another dtype is a `cast`, so gradients
flow through it like through any op.
"""
from __future__ import annotations

import numbers

import numpy as np

from ...engine import dtypes as _dt
from ...engine import ops as _ops
from ...engine.convert import constant, convert_to_tensor
from ...engine.tensor import Tensor, TensorShape, Variable, _Operand


class _Settings:
    """What `experimental_enable_numpy_behavior` switched on (for the whole process, as in
    TensorFlow)."""
    numpy_behavior = False     # Tensor methods (.T, .reshape, ...) installed
    promotion = False          # operators promote dtypes as NumPy ("legacy" mode)
    prefer_float32 = False     # a Python float is float32 instead of float64


settings = _Settings()


def _float_scalar(x):
    """A Python float as TF-NumPy sees it: weak, or float32 when float32 is preferred."""
    if settings.prefer_float32:
        if isinstance(x, float):
            return np.float32(x)
        if isinstance(x, complex):
            return np.complex64(x)
    return x


def _dtype_of(x):
    """What `np.result_type` is given for `x`: a tensor's dtype, a Python number itself
    (NumPy treats it as weak), a dtype-like as a dtype."""
    if isinstance(x, _Operand):
        return x._value.dtype
    if isinstance(x, numbers.Number) or isinstance(x, np.ndarray):
        return x
    if isinstance(x, _dt.DType):
        return x.as_numpy_dtype
    if _is_symbolic(x):
        return x.dtype.as_numpy_dtype
    if isinstance(x, TensorShape):
        return np.int32        # (as TensorFlow: `t + t.shape` adds int32s)
    return x


def _flatten(values):
    """Nested lists and tuples as one list (a TensorShape stays whole, as in tf.nest)."""
    out = []
    for v in values:
        if isinstance(v, (list, tuple)) and not isinstance(v, TensorShape):
            out.extend(_flatten(v))
        else:
            out.append(v)
    return out


def result_type(*arrays_and_dtypes) -> _dt.DType:
    """`tnp.result_type`: NumPy's promotion of arrays, tensors, scalars and dtypes (sequences
    are looked into element by element, as TensorFlow does), as a tf DType."""
    return _dt.as_dtype(np_result_type(*arrays_and_dtypes))


def np_result_type(*arrays_and_dtypes) -> np.dtype:
    """`result_type` as NumPy's dtype (what the functions here work with)."""
    items = [_float_scalar(_dtype_of(x)) for x in _flatten(arrays_and_dtypes)]
    if not items:
        items = [np.asarray([])]
    try:
        return np.result_type(*items)
    except TypeError as exc:
        raise TypeError(f"tnp.result_type: cannot find a common dtype of {arrays_and_dtypes!r}: "
                        f"{exc}. Fix: pass numbers, arrays, tensors or dtypes") from None


def default_float_type():
    """float64, or float32 once `experimental_enable_numpy_behavior(prefer_float32=True)`."""
    return np.dtype(np.float32 if settings.prefer_float32 else np.float64)


def dtype_arg(dtype):
    """A `dtype=` argument (a Python type, NumPy type or string, or a tf DType) as NumPy's."""
    return None if dtype is None else np_result_type(dtype)


def _is_symbolic(value) -> bool:
    """A tensor-like with a tapeviz dtype and no value (a Keras functional model's input):
    converting it raises the error that turns a tnp call on it into a Keras layer."""
    return isinstance(getattr(value, "dtype", None), _dt.DType)


def _has_tensor(value) -> bool:
    if isinstance(value, (list, tuple)):
        return any(_has_tensor(v) for v in value)
    return isinstance(value, _Operand) or _is_symbolic(value)


def cast(t: Tensor, dtype) -> Tensor:
    """`t` as `dtype` (the tensor itself when it already is: no extra op on the tape)."""
    dtype = np.dtype(dtype)
    return t if t._value.dtype == dtype else _ops.cast(t, _dt.from_numpy(dtype))


def array(val, dtype=None, copy=True, ndmin=0) -> Tensor:
    """`tnp.array`: a tensor of `val` with NumPy's dtype inference (a tensor stays on the
    tape: converting it is a cast, copying it an identity)."""
    dtype = dtype_arg(dtype)
    if isinstance(val, Tensor):
        out = val if dtype is None else cast(val, dtype)
        if copy and out is val:
            out = _ops.identity(val)
    elif isinstance(val, Variable) or _has_tensor(val):
        out = convert_to_tensor(val)           # a read of the variable, or a stack
        out = cast(out, dtype if dtype is not None else np_result_type(val))
    else:
        dtype = dtype if dtype is not None else _unary_dtype(val)
        if isinstance(val, TensorShape) and dtype.kind != "i":
            raise TypeError(f"Cannot convert TensorShape {tuple(val)} to dtype {dtype.name}. "
                            "Allowed dtypes are tf.int32 and tf.int64. Fix: cast the tensor "
                            "beside it to an integer dtype, or use the shape's dimensions")
        try:
            value = np.asarray(val).astype(dtype)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"tnp.array: cannot make an array of dtype {dtype} from "
                             f"{val!r}: {exc}. Fix: pass numbers, nested lists of numbers or "
                             "an array") from None
        out = constant(value)
    if ndmin > out.ndim:
        out = _ops.reshape(out, [1] * (ndmin - out.ndim) + list(out.shape))
    return out


def _unary_dtype(val):
    """The dtype of an array made from a Python or NumPy value (a string stays a string)."""
    if isinstance(val, str):
        return np.dtype(np.str_)
    if isinstance(val, bytes):
        return np.dtype(np.bytes_)
    if isinstance(val, (np.ndarray, np.generic)):
        return val.dtype
    return np_result_type(val)


def asarray(a, dtype=None) -> Tensor:
    """`tnp.asarray`: a tensor is returned as it is (when its dtype is the one asked for)."""
    dtype = dtype_arg(dtype)
    if isinstance(a, Tensor) and (dtype is None or dtype == a._value.dtype):
        return a
    return array(a, dtype, copy=False)


def promote(*arrays):
    """The arguments as tensors of their common NumPy dtype."""
    first = arrays[0]
    if type(first) is Tensor and all(type(a) is Tensor and a._value.dtype == first._value.dtype
                                     for a in arrays):
        return list(arrays)      # (the common case, without NumPy's promotion machinery)
    dtype = np_result_type(*arrays)
    return [asarray(a, dtype) for a in arrays]


def promote_to_float(x: Tensor) -> Tensor:
    """An integer or bool tensor as float64, as TF-NumPy's math functions take it."""
    if x._value.dtype.kind in "fc":
        return x
    require_numpy_behavior(x, "to float")
    return cast(x, np.float64)


def require_numpy_behavior(x: Tensor, what: str) -> None:
    """TensorFlow converts some results with the `.astype` method, which tensors only have
    after `experimental_enable_numpy_behavior()`: without it, those calls fail as in TF."""
    if not settings.numpy_behavior:
        raise AttributeError(
            f"EagerTensor object has no attribute 'astype' (tf.experimental.numpy converts "
            f"this {x.dtype.name} tensor of shape {tuple(x.shape)} {what} with it). Fix: "
            "call tf.experimental.numpy.experimental_enable_numpy_behavior() first, as "
            "TensorFlow requires, or pass a float array")
