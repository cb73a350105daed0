"""`tnp.experimental_enable_numpy_behavior`: what it changes on every tensor, as in TensorFlow.

1. Tensors get NumPy's methods: `.T`, `.reshape`, `.ravel`, `.flatten`, `.transpose`,
   `.astype`, `.clip`, `.max`, `.mean`, `.min`, `.size`, `.data`, `round(t)` (each the `tnp`
   function of the same name, so it is differentiable through the same ops). TensorFlow
   adds them to `tf.Tensor` only: a Variable does not get them.
2. Operators (`+ - * / // % ** @ & | < <= > >= == !=`) of tensors and variables promote their
   operands as NumPy does (`int32 + float32` is float64, `float32 + 2.5` stays float32),
   where TensorFlow otherwise refuses mixed dtypes. `tf.add` and the other functions keep
   TensorFlow's rules, as in TensorFlow.
3. With `prefer_float32=True`, Python floats become float32 instead of float64 in `tnp`.

The switch is for the whole process and cannot be undone, as TensorFlow's. TensorFlow
installs the methods and operators on its tensor class; so does this module (TensorFlow's
own mechanism: there is one tensor class, and the switch is global).
"""
from __future__ import annotations

import numbers

import numpy as np

from ...engine.tensor import Tensor, TensorShape, _Operand
from . import math as _math
from . import reductions as _reductions
from . import shapes as _shapes
from .promotion import _flatten, asarray, cast, np_result_type, settings

__all__ = ["experimental_enable_numpy_behavior"]

_MODES = ("off", "legacy", "safe", "all")

#: (the methods a tensor has only after the switch; TensorFlow names these in its hint)
NUMPY_METHOD_NAMES = ("T", "astype", "ravel", "transpose", "reshape", "clip", "size", "data",
                      "flatten", "max", "min", "mean")


def experimental_enable_numpy_behavior(prefer_float32=False, dtype_conversion_mode="legacy"):
    """Give tensors NumPy's methods and NumPy's dtype promotion in operators (see the module
    docstring). `dtype_conversion_mode="off"` keeps TensorFlow's operator dtype rules."""
    if dtype_conversion_mode not in _MODES:
        raise ValueError(f"The provided promotion mode {dtype_conversion_mode} does not exist. "
                         "Make sure the provided dtype conversion mode is one of the "
                         "followings: 'off', 'legacy', 'safe' or 'all'.")
    if dtype_conversion_mode in ("safe", "all"):
        raise NotImplementedError(
            f"experimental_enable_numpy_behavior(dtype_conversion_mode="
            f"{dtype_conversion_mode!r}): tapeviz does not imitate TensorFlow's new type "
            "promotion (weak tensors). Fix: use the default mode, 'legacy' (NumPy's "
            "promotion), or 'off' (TensorFlow's)")
    if not settings.numpy_behavior:
        _install_methods()
        _install_operators()
        settings.numpy_behavior = True
    settings.promotion = dtype_conversion_mode == "legacy"
    settings.prefer_float32 = bool(prefer_float32)


# --- 1. methods -----------------------------------------------------------------------------
def _clip(self, a_min, a_max):
    return _math.clip(self, a_min, a_max)


def _astype(self, dtype):
    return cast(self, np_result_type(dtype))


def _size(self):
    return np.prod(self.shape, dtype=np.int64)


def _install_methods():
    methods = {
        "T": property(lambda self: _shapes.transpose(self)),
        "size": property(_size),
        "data": property(lambda self: self),
        "transpose": _shapes.transpose,
        "flatten": _shapes.ravel,
        "reshape": _shapes.reshape_method,
        "ravel": _shapes.ravel,
        "clip": _clip,
        "astype": _astype,
        "__round__": _math.around,
        "max": _reductions.amax,
        "mean": _reductions.mean,
        "min": _reductions.amin,
    }
    for name, method in methods.items():
        setattr(Tensor, name, method)


# --- 2. operators ---------------------------------------------------------------------------
_PROMOTED = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or")
_COMPARED = ("lt", "le", "gt", "ge", "eq", "ne")


def _promotable(value) -> bool:
    return all(isinstance(v, (_Operand, numbers.Number, np.ndarray, np.generic, TensorShape))
               for v in _flatten([value]))


def _promoted(x, y):
    """`x` (a tensor) and `y` as tensors of NumPy's common dtype."""
    dtype = np_result_type(x, y)
    return [cast(v, dtype) if isinstance(v, Tensor) else asarray(v, dtype) for v in (x, y)]


def _keeps_dtype(x, other) -> bool:
    """Whether NumPy's promotion leaves `x op other` in x's dtype and the operator's own
    conversion gives the same answer: a tensor of x's dtype, or a Python number that NumPy
    treats as weak beside a float (or an int beside an int) tensor."""
    kind = type(other)
    if kind is Tensor:
        return other._value.dtype == x._value.dtype
    if kind is float:
        return x._value.dtype.kind == "f" and (x._value.dtype.itemsize >= 4 or
                                               not settings.prefer_float32)
    return kind is int and x._value.dtype.kind in "fi"


def _promoting(original):
    def operator(self, other):
        if settings.promotion and not _keeps_dtype(self, other) and _promotable(other):
            self, other = _promoted(self, other)
        return original(self, other)
    operator.__name__ = original.__name__
    operator.__doc__ = original.__doc__
    return operator


def _matmul(self, other):
    """TensorFlow's `@` is then tnp.matmul (vectors allowed); two matrices of one dtype take
    the plain matmul, which is what tnp.matmul does with them."""
    plain = type(other) is Tensor and _keeps_dtype(self, other) and self.ndim == other.ndim == 2
    if settings.promotion and not plain and _promotable(other):
        return _reductions.matmul(self, other)
    return _Operand_matmul(self, other)


def _rmatmul(self, other):
    if settings.promotion and _promotable(other):
        return _reductions.matmul(other, self)
    return _Operand_rmatmul(self, other)


_Operand_matmul, _Operand_rmatmul = _Operand.__matmul__, _Operand.__rmatmul__


def _install_operators():
    names = ([f"__{n}__" for n in _PROMOTED] + [f"__r{n}__" for n in _PROMOTED]
             + [f"__{n}__" for n in _COMPARED])
    for name in names:
        setattr(_Operand, name, _promoting(getattr(_Operand, name)))
    _Operand.__matmul__, _Operand.__rmatmul__ = _matmul, _rmatmul


# --- before the switch: TensorFlow's hint for the NumPy methods -----------------------------
def _missing_attribute(self, name):
    """Only called for names a tensor does not have (normal lookups never come here; unset
    private slots such as `_keras_mask` do, and get the cheapest error)."""
    if name[0] == "_":
        raise AttributeError(name)
    if name in NUMPY_METHOD_NAMES and not settings.numpy_behavior:
        raise AttributeError(
            f"{type(self).__name__} object has no attribute {name!r}. If you are looking for "
            "numpy-related methods, please run the following: "
            "tf.experimental.numpy.experimental_enable_numpy_behavior()")
    raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


def install_hint():
    """`t.reshape` before the switch says how to get it, as TensorFlow's tensors do."""
    if "__getattr__" not in Tensor.__dict__:
        Tensor.__getattr__ = _missing_attribute

