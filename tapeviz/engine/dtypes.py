"""TensorFlow's dtypes as thin wrappers of NumPy's: `tv.float32.name == "float32"`."""
from __future__ import annotations

import numpy as np


class DType:
    """A tensor element type; compares equal to its name and to the NumPy dtype."""

    __slots__ = ("name", "np", "is_floating", "is_integer", "is_bool", "is_string",
                 "is_complex")

    def __init__(self, name: str, np_dtype):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.is_floating = self.np.kind == "f"
        self.is_integer = self.np.kind in "iu"
        self.is_bool = self.np.kind == "b"
        self.is_string = name == "string"
        self.is_complex = False

    @property
    def size(self) -> int:
        return self.np.itemsize

    @property
    def real_dtype(self):
        return self

    @property
    def as_numpy_dtype(self):
        return self.np.type

    @property
    def base_dtype(self):
        return self

    @property
    def is_numpy_compatible(self) -> bool:
        return not self.is_string

    @property
    def min(self):
        return np.finfo(self.np).min if self.is_floating else np.iinfo(self.np).min

    @property
    def max(self):
        return np.finfo(self.np).max if self.is_floating else np.iinfo(self.np).max

    def __repr__(self) -> str:
        return f"tv.{self.name}"

    def __eq__(self, other) -> bool:
        if other is self:
            return True
        try:
            return as_dtype(other) is self
        except TypeError:
            return False

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self.name)


class NamedOnly(DType):
    """A TensorFlow dtype tapeviz knows by name but has no tensors of (complex numbers;
    bfloat16, which NumPy lacks): it compares, prints and answers `is_complex`, `size` and
    `real_dtype` as TensorFlow's; making a tensor of it raises, naming the fix."""

    __slots__ = ("_size", "_real")

    def __init__(self, name, size, floating, real=None):
        self.name = name
        self.is_floating, self.is_integer, self.is_bool, self.is_string = floating, False, \
            False, False
        self.is_complex = real is not None
        self._size, self._real = size, real

    @property
    def np(self):
        raise TypeError(f"tapeviz has no {self.name} tensors: its tensors are NumPy arrays of "
                        "float16/32/64, ints, bool and strings. Fix: use tv.float32 (or "
                        "tv.float64); tapeviz imitates TensorFlow's real-valued autodiff only")

    @property
    def size(self) -> int:
        return self._size

    @property
    def real_dtype(self):
        return self._real or self

    @property
    def as_numpy_dtype(self):
        return self.np

    @property
    def is_numpy_compatible(self) -> bool:
        return self.name != "bfloat16"


float16 = DType("float16", np.float16)
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
uint8 = DType("uint8", np.uint8)
bool_ = DType("bool", np.bool_)
string = DType("string", np.object_)
half, double = float16, float64
complex64 = NamedOnly("complex64", 8, False, float32)
complex128 = NamedOnly("complex128", 16, False, float64)
bfloat16 = NamedOnly("bfloat16", 2, True)

ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, bool_, string)
_BY_NP = {d.np: d for d in ALL}
_BY_NAME = {d.name: d for d in ALL}
_BY_NAME.update(half=float16, double=float64, float=float32)   # TensorFlow's aliases
_NAMED_ONLY = {d.name: d for d in (complex64, complex128, bfloat16)}
_BY_NAME.update(_NAMED_ONLY)
# TensorFlow's DataType enum numbers (types.proto): `tf.zeros(shape, 1)` is float32
_BY_ENUM = {1: float32, 2: float64, 3: int32, 4: uint8, 5: int16, 6: int8, 7: string,
            8: complex64, 9: int64, 10: bool_, 14: bfloat16, 18: complex128, 19: float16}


def from_numpy(np_dtype) -> DType:
    """The DType of a NumPy dtype (strings and bytes map to `string`)."""
    d = _BY_NP.get(np_dtype)
    if d is not None:
        return d
    np_dtype = np.dtype(np_dtype)
    d = _BY_NP.get(np_dtype)
    if d is not None:
        return d
    if np_dtype.kind in "USO":
        return string
    raise TypeError(f"tapeviz has no dtype for NumPy's {np_dtype}; "
                    f"use one of {', '.join(sorted(set(_BY_NAME) - set(_NAMED_ONLY)))}")


def as_dtype(value) -> DType:
    """`tv.as_dtype("float32")`, `tv.as_dtype(np.float32)` and `tv.as_dtype(tv.float32)`."""
    if isinstance(value, DType):
        return value
    if isinstance(value, str):
        d = _BY_NAME.get(value)
        if d is None:
            raise TypeError(f"Cannot convert the argument `type_value`: {value!r} to a tapeviz "
                            f"DType. Fix: use one of {', '.join(sorted(_BY_NAME))} "
                            "(or tv.float32, ...)")
        return d
    if value is float:
        return float32
    if value is int:
        return int32
    if value is bool:
        return bool_
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        d = _BY_ENUM.get(int(value))
        if d is None:
            raise TypeError(f"Cannot convert the argument `type_value`: {value!r} to a tapeviz "
                            "DType: as a number it is TensorFlow's DataType enum, and tapeviz "
                            f"knows {sorted(_BY_ENUM)} (1 is float32, 3 int32, 9 int64). "
                            "Fix: pass a dtype (tv.float32, 'float32', or x.dtype)")
        return d
    try:
        np_dtype = np.dtype(value)
        if np_dtype.kind == "c":
            return _NAMED_ONLY[np_dtype.name]
        return from_numpy(np_dtype)
    except (TypeError, ValueError):     # NumPy says ValueError for objects with a .dtype
        raise TypeError(f"Cannot convert the argument `type_value`: {value!r} to a tapeviz "
                        "DType. Fix: pass a dtype (tv.float32, 'float32', or x.dtype)") from None
