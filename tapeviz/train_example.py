"""`tf.train.Example` and its parts (`Features`, `Feature`, `BytesList`, `FloatList`,
`Int64List`, `SequenceExample`, `FeatureList`, `FeatureLists`): TensorFlow's protocol buffer
messages for records, written and read in the protobuf wire format (so files TensorFlow
wrote parse here and the reverse), printed in protobuf's text format.

Only what these messages need is implemented: repeated packed scalars, submessages, string
maps, and the `kind` oneof of `Feature`. A map is printed and serialized in insertion order
(`SerializeToString(deterministic=True)`: sorted by key, as protobuf's).
"""
from __future__ import annotations

import math
import operator
import struct

import numpy as np

__all__ = ["BytesList", "Example", "Feature", "FeatureList", "FeatureLists", "Features",
           "FloatList", "Int64List", "SequenceExample"]


# --- wire format --------------------------------------------------------------------------------
def _varint(n):
    n &= (1 << 64) - 1           # a negative int64 is written as its 64-bit two's complement
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _read_varint(data, pos):
    result = shift = 0
    while True:
        if pos >= len(data):
            raise DecodeError("Truncated message.")
        byte = data[pos]
        result |= (byte & 0x7F) << shift
        pos, shift = pos + 1, shift + 7
        if not byte & 0x80:
            return result, pos


def _signed(n):
    return n - (1 << 64) if n >= 1 << 63 else n


def _fields(data):
    """(field number, wire type, value) of each field: an int for varints, bytes else."""
    pos = 0
    while pos < len(data):
        key, pos = _read_varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _read_varint(data, pos)
        elif wire == 2:
            size, pos = _read_varint(data, pos)
            value, pos = data[pos:pos + size], pos + size
        elif wire in (1, 5):
            width = 8 if wire == 1 else 4
            value, pos = data[pos:pos + width], pos + width
        else:
            raise DecodeError(f"Unexpected wire type {wire} for field {number}.")
        if pos > len(data):
            raise DecodeError("Truncated message.")
        yield number, wire, value


def _length_delimited(number, payload):
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


class DecodeError(Exception):
    """What protobuf raises for bytes that are not a valid message (`google.protobuf`'s
    `DecodeError` has this name)."""


# --- repeated scalars ---------------------------------------------------------------------------
def _as_int64(v):
    if isinstance(v, (float, np.floating)):
        raise TypeError(f"'{type(v).__name__}' object cannot be interpreted as an integer")
    v = operator.index(v)
    if not -(1 << 63) <= v < 1 << 63:
        raise ValueError(f"Value out of range: {v}")
    return v


def _as_float32(v):
    if isinstance(v, (str, bytes)):
        raise TypeError(f"must be real number, not {type(v).__name__}")
    return float(np.float32(v))


def _as_bytes(v):
    if not isinstance(v, bytes):
        raise TypeError(f"expected bytes, {type(v).__name__} found")
    return v


class _Repeated(list):
    """A list that checks and converts what goes in (protobuf's repeated container)."""

    def __init__(self, convert, values=()):
        super().__init__(convert(v) for v in values)
        self._convert = convert

    def append(self, v):
        super().append(self._convert(v))

    def extend(self, values):
        super().extend(self._convert(v) for v in values)

    def __setitem__(self, i, v):
        super().__setitem__(i, [self._convert(x) for x in v] if isinstance(i, slice)
                            else self._convert(v))


_SCALARS = {  # kind -> (convert, encode one, decode one varint/fixed value, text)
    "int64": (_as_int64, _varint, _signed, str),
    "float": (_as_float32, lambda v: struct.pack("<f", v),
              lambda b: float(struct.unpack("<f", b)[0]), lambda v: _float_text(v)),
    "bytes": (_as_bytes, None, None, lambda v: '"' + _c_escape(v) + '"'),
}


def _float_text(v):
    """The shortest text that reads back as the same float32 (protobuf's text format)."""
    if math.isnan(v) or math.isinf(v):
        return str(v)
    for digits in range(1, 10):
        text = f"{v:.{digits}g}"
        if float(np.float32(float(text))) == v:
            return text
    return repr(v)


def _c_escape(data):
    special = {10: r"\n", 13: r"\r", 9: r"\t", 34: r"\"", 39: r"\'", 92: r"\\"}
    return "".join(special.get(b) or (chr(b) if 32 <= b < 127 else f"\\{b:03o}") for b in data)


class _Message:
    """What every message offers, built on its `_encode`, `_decode`, `_text` and `_empty`."""

    def SerializeToString(self, deterministic=False):  # noqa: N802  (protobuf's names)
        return self._encode(deterministic)

    def ParseFromString(self, serialized):  # noqa: N802
        self.__init__()
        self._decode(bytes(serialized))
        return len(serialized)

    @classmethod
    def FromString(cls, serialized):  # noqa: N802
        message = cls()
        message._decode(bytes(serialized))
        return message

    def ByteSize(self):  # noqa: N802
        return len(self._encode())

    def CopyFrom(self, other):  # noqa: N802
        self.ParseFromString(other.SerializeToString())

    def __eq__(self, other):
        return type(self) is type(other) and \
            self._encode(True) == other._encode(True)

    def __str__(self):
        return self._text(0)

    def __repr__(self):
        return self._text(0)


class _ScalarList(_Message):
    """`BytesList`, `FloatList`, `Int64List`: one repeated field, `value`."""
    _kind = ""

    def __init__(self, value=()):
        self.value = value

    @property
    def value(self):
        return self._value

    @value.setter
    def value(self, values):
        self._value = _Repeated(_SCALARS[self._kind][0], values)

    def _encode(self, deterministic=False):
        if not self._value:
            return b""
        if self._kind == "bytes":
            return b"".join(_length_delimited(1, v) for v in self._value)
        return _length_delimited(1, b"".join(_SCALARS[self._kind][1](v) for v in self._value))

    def _decode(self, data):
        decode = _SCALARS[self._kind][2]
        for number, wire, raw in _fields(data):
            if number != 1:
                continue
            if self._kind == "bytes":
                self._value.append(bytes(raw))
            elif wire == 2 and self._kind == "int64":          # packed
                pos = 0
                while pos < len(raw):
                    n, pos = _read_varint(raw, pos)
                    self._value.append(decode(n))
            elif wire == 2:
                self._value.extend(decode(raw[i:i + 4]) for i in range(0, len(raw), 4))
            else:
                self._value.append(decode(raw))

    def _text(self, indent):
        text = _SCALARS[self._kind][3]
        return "".join(f"{' ' * indent}value: {text(v)}\n" for v in self._value)

    def _empty(self):
        return not self._value


class BytesList(_ScalarList):
    _kind = "bytes"


class FloatList(_ScalarList):
    _kind = "float"


class Int64List(_ScalarList):
    _kind = "int64"


from .train_example_messages import (Example, Feature, FeatureList, FeatureLists,  # noqa: E402,F401,E501
                                     Features, SequenceExample)
