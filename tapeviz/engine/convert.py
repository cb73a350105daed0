"""Conversion with TensorFlow's dtype rules: Python float -> float32, int -> int32 (int64 when
it does not fit), NumPy keeps its dtype, and an operator's other operand takes the tensor's
dtype (a float never silently becomes an int)."""
from __future__ import annotations

import numpy as np

from . import dtypes as _dt
from .. import engine
from .node import leaf_node, mark_copy
from .tensor import Tensor, Variable, _Operand, _read_variable
from .indexed_slices import IndexedSlices




def _infer_array(value):
    """NumPy array for a Python value with TensorFlow's inference rules."""
    if isinstance(value, bool):
        return np.bool_(value)
    if isinstance(value, int):
        if -2**31 <= value < 2**31:
            return np.int32(value)
        if -2**63 <= value < 2**63:
            return np.int64(value)
        raise ValueError(f"Can't convert Python int {value} (>= 2**{abs(value).bit_length() - 1})"
                         " to int64: it does not fit in 64 bits. Fix: use a float "
                         "(tv.constant(float(v))) or a smaller number")
    if isinstance(value, float):
        if abs(value) > 3.4028234663852886e38 and value == value:   # inf in float32, as TF
            return np.float32(np.inf if value > 0 else -np.inf)
        return np.float32(value)
    if isinstance(value, (str, bytes)):
        return np.asarray(value.encode() if isinstance(value, str) else value, dtype=object)
    if value is None or isinstance(value, (dict, set)):
        raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type "
                         f"({type(value)!r}) to a Tensor. Fix: pass a number, a nested list of "
                         "numbers, a NumPy array or a tensor")
    try:
        arr = np.asarray(value)
    except (ValueError, OverflowError) as exc:
        raise ValueError(f"Can't convert non-rectangular Python sequence to Tensor: {value!r} "
                         f"({exc}). Fix: every row must have the same length; pad the rows or "
                         "use one tensor per row") from None
    kind = arr.dtype.kind
    if kind == "f" and arr.dtype != np.float32:
        return arr.astype(np.float32)
    if kind == "i" and arr.dtype != np.int32:
        if arr.size == 0 or (arr.min() >= -2**31 and arr.max() < 2**31):
            return arr.astype(np.int32)
        return arr.astype(np.int64)
    if kind in "US":
        if not _all_strings(value):
            raise ValueError(f"Can't convert {value!r} to a Tensor: it mixes strings with "
                             "numbers. Fix: use only numbers, or only strings")
        return np.vectorize(lambda s: s.encode() if isinstance(s, str) else s,
                            otypes=[object])(arr)
    if kind == "O":
        raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type to a "
                         "Tensor: nested sequences must be rectangular and hold numbers, bools "
                         "or strings (no None). Fix: replace None by a number (e.g. float('nan'))")
    return arr


def _object_array(array):
    """A NumPy object array as a string tensor's value: TF takes one only when every element
    is a str or bytes (str is encoded as UTF-8); numbers, None or other objects are refused."""
    flat = array.reshape(-1)
    bad = next((v for v in flat if not isinstance(v, (bytes, str))), flat)
    if bad is not flat:
        raise ValueError(f"Failed to convert a NumPy array to a Tensor (Unsupported object type "
                         f"{type(bad).__name__}): an object array of shape {array.shape} becomes "
                         f"a string tensor only if it holds str or bytes, and it holds {bad!r}. "
                         "Fix: convert it with array.astype(np.float32) (numbers) or "
                         "array.astype(str) (text) first")
    if any(isinstance(v, str) for v in flat):
        return np.vectorize(lambda s: s.encode() if isinstance(s, str) else s,
                            otypes=[object])(array)
    return array


def _all_strings(value) -> bool:
    if isinstance(value, (list, tuple)):
        return all(_all_strings(v) for v in value)
    return isinstance(value, (str, bytes))


def _cannot(value, dtype, op=None) -> TypeError:
    where = f" for {op}" if op else ""
    return TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}{where}: "
                     "tapeviz, like TensorFlow, never turns a float (or a string) into this dtype "
                     "silently. Fix: cast the tensor first, e.g. tv.cast(x, tv.float32), or use "
                     "a value of the tensor's dtype")


def float_scalar(number, np_dtype):
    """A Python number as a NumPy scalar of the float dtype ``np_dtype``: one too large for
    it is its infinity, as in TensorFlow, and NumPy's overflow warning is not the user's."""
    with np.errstate(over="ignore"):
        return np_dtype.type(number)


def _to_array(value, dtype=None, strict=False, op=None):
    """The NumPy value of a Python or NumPy object, optionally of `dtype` (TF's checks).

    `strict` is the conversion of an operator's other operand (`i32 * 2.0`): any float going
    to an integer dtype is refused, as TensorFlow refuses it."""
    if isinstance(value, _Operand):
        value = value._read()
    elif isinstance(value, np.ndarray) and value.dtype.kind == "O":
        value = _object_array(value)
    if dtype is None:
        if isinstance(value, (np.ndarray, np.generic)):
            if value.dtype.kind in "US":
                return _infer_array(value.tolist())
            return value
        return _infer_array(value)
    dtype = _dt.as_dtype(dtype)
    if type(value) in (int, float) and dtype.is_floating:
        return float_scalar(value, dtype.np)
    if isinstance(value, (np.ndarray, np.generic)):
        src = value
    elif isinstance(value, (str, bytes)) or (isinstance(value, (list, tuple)) and
                                               dtype.is_string):
        src = _infer_array(value)
    else:
        src = np.asarray(value)       # Python floats stay float64 until cast to `dtype`
        if src.dtype.kind in "US":
            src = _infer_array(value)
    if dtype.is_string:
        if src.dtype.kind != "O":
            raise _cannot(value, dtype, op)
        return src
    if src.dtype.kind == "O":
        raise _cannot(value, dtype, op)
    if src.dtype.kind == "f" and not dtype.is_floating:
        if strict or not np.all(np.asarray(src) == np.round(np.asarray(src))):
            raise _cannot(value, dtype, op)
    if src.dtype == dtype.np:
        return src
    return np.asarray(src).astype(dtype.np) if np.ndim(src) else dtype.np.type(src)


def like(value, t, op=None) -> "Tensor":
    """An operator's other operand as a tensor of `t`'s dtype (`x * 2`, `2 ** x`, `arr + x`).

    A Python number must convert (`i32 * 2.5` is a TypeError, as in TF); a list, string or
    array that cannot falls back to its own dtype, and the op then reports the mismatch."""
    if isinstance(value, _Operand):
        return value
    if isinstance(value, IndexedSlices):   # a sparse gradient: its dense tensor
        return value._dense()
    if isinstance(value, (list, tuple)) and value and _holds_tensor(value):
        # `loss + layer.losses`: TF packs the tensors, so gradients flow through the list
        return convert_to_tensor(value, dtype_hint=t.dtype)
    try:
        return Tensor(_to_array(value, t._value.dtype, strict=True, op=op))
    except TypeError:
        if isinstance(value, (int, float)):
            raise
        return Tensor(_to_array(value))


def convert_to_tensor(value, dtype=None, name=None, dtype_hint=None, preferred_dtype=None):
    """A Tensor from a Tensor, Variable (a read), NumPy array or Python value.

    >>> convert_to_tensor(1.5)
    <tv.Tensor: shape=(), dtype=float32, numpy=1.5>
    """
    t = type(value)
    if t is Tensor:
        if dtype is not None and _dt.as_dtype(dtype).np != value._value.dtype:
            raise ValueError(f"Tensor conversion requested dtype {_dt.as_dtype(dtype).name} for "
                             f"Tensor with dtype {value.dtype.name}: {value!r}. "
                             f"Fix: tv.cast(x, {_dt.as_dtype(dtype)!r})")
        return value
    if isinstance(value, Variable):
        if dtype is not None and _dt.as_dtype(dtype).np != value._value.dtype:
            raise ValueError(f"Tensor conversion requested dtype {_dt.as_dtype(dtype).name} for "
                             f"Variable with dtype {value.dtype.name}: {value!r}")
        return _read_variable(value)
    if isinstance(value, IndexedSlices):      # a sparse gradient: its dense tensor
        dense = value._dense()
        if dtype is not None and _dt.as_dtype(dtype).np != dense._value.dtype:
            raise ValueError(f"Tensor conversion requested dtype {_dt.as_dtype(dtype).name} "
                             f"for IndexedSlices with dtype {value.dtype.name}. Fix: "
                             f"tv.cast(tv.convert_to_tensor(slices), {_dt.as_dtype(dtype)!r})")
        return dense
    if isinstance(value, (list, tuple)) and value and _holds_tensor(value):
        return engine.ops.stack([convert_to_tensor(v, dtype, dtype_hint=dtype_hint) for v in value])
    hint = dtype_hint or preferred_dtype
    if dtype is None and hint is not None and not isinstance(value, (np.ndarray, np.generic)):
        try:
            return Tensor(_to_array(value, hint), leaf_node("Const"))
        except (TypeError, ValueError):
            pass
    return Tensor(_to_array(value, dtype), leaf_node("Const"))


def _holds_tensor(seq) -> bool:
    for v in seq:
        if isinstance(v, _Operand):
            return True
        if isinstance(v, (list, tuple)) and v and _holds_tensor(v):
            return True
    return False


def constant(value, dtype=None, shape=None, name=None):
    """An immutable Tensor; Python float -> float32, int -> int32, NumPy keeps its dtype.

    As in TensorFlow, a Tensor of that dtype and shape is returned itself (its gradient path
    stays); a Variable, or a Tensor given a new shape, is copied into a new constant, which
    starts a new history (its node keeps what it copied, for `copied_value` explanations)."""
    copied = None
    if isinstance(value, Tensor):
        wanted = _dt.as_dtype(dtype) if dtype is not None else value.dtype
        if wanted.np != value._value.dtype:
            raise TypeError(f"constant: expected tensor {value._value} with dtype {wanted!r}, but "
                            f"got dtype {value.dtype!r} (shape {tuple(value.shape)}). Fix: "
                            f"tv.cast(x, tv.{wanted.name})")
        if shape is None or _shape_tuple(shape) == tuple(value.shape):
            return value
    if isinstance(value, _Operand):
        copied = value
        value = value._read()
    array = _to_array(value, dtype)
    if shape is not None:
        shape = _shape_tuple(shape)
        if np.size(array) == 1:
            array = np.full(shape, np.asarray(array).reshape(()), dtype=array.dtype)
        else:
            if np.size(array) != int(np.prod(shape)):
                raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor "
                                f"{value!r} has {np.size(array)} elements, but got `shape` "
                                f"{shape} with {int(np.prod(shape))} elements. Fix: give a "
                                "shape with as many elements, or a single value to fill it")
            array = np.reshape(array, shape)
    node = leaf_node("Const")
    if name:
        node.attrs = {"name": str(name)}
    if copied is not None:
        mark_copy(node, copied)
    return Tensor(array, node)


def _shape_tuple(shape) -> tuple:
    return tuple(int(s) for s in (shape if isinstance(shape, (list, tuple)) else [shape]))


def is_tensor(x) -> bool:
    return isinstance(x, (_Operand, IndexedSlices))



def get_static_value(tensor, partial=False):
    """A tensor's value as a NumPy array (a copy): every eager tensor's value is known. As in
    TensorFlow 2, a Variable gives None (its value may change) and anything that is no
    tensor is returned as it is."""
    if isinstance(tensor, Variable):
        return None
    if isinstance(tensor, Tensor):
        return np.array(tensor._value)
    return tensor
