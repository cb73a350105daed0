"""`tf.io.serialize_tensor` / `tf.io.parse_tensor`: a tensor as the bytes of TensorFlow's
`TensorProto` (dtype, shape, then the raw little-endian values, or one entry per string), so
that either library reads what the other wrote."""
from __future__ import annotations

import numpy as np

from .engine.convert import convert_to_tensor
from .engine.dtypes import as_dtype
from .engine.errors import InvalidArgumentError
from .engine.ops.makers import _make
from .train_example import DecodeError, _fields, _length_delimited, _varint

__all__ = ["parse_tensor", "serialize_tensor"]

#: TensorFlow's DataType enum values
_ENUM = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6,
         "string": 7, "int64": 9, "bool": 10, "uint16": 17, "float16": 19, "uint32": 22,
         "uint64": 23}
_BY_ENUM = {v: k for k, v in _ENUM.items()}


def serialize_tensor(tensor, name=None):
    """The TensorProto bytes of `tensor`, as a scalar string tensor."""
    t = convert_to_tensor(tensor)
    value, dtype = t._value, t.dtype.name
    if dtype not in _ENUM:
        raise InvalidArgumentError(f"SerializeTensor: dtype {dtype} is not supported by "
                                   "tapeviz's TensorProto. Fix: cast to a float or int dtype "
                                   "[Op:SerializeTensor]", "SerializeTensor")
    # (a size of 0 is protobuf's default value: not written)
    shape = b"".join(_length_delimited(2, b"\x08" + _varint(d) if d else b"")
                     for d in value.shape)
    out = b"\x08" + _varint(_ENUM[dtype]) + _length_delimited(2, shape)
    if dtype == "string":
        out += b"".join(_length_delimited(8, v if isinstance(v, bytes) else str(v).encode())
                        for v in value.reshape(-1).tolist())
    elif value.size:
        out += _length_delimited(4, np.ascontiguousarray(value, value.dtype.newbyteorder("<"))
                                 .tobytes())
    return _make(np.asarray(out, dtype=object))


def _shape(raw):
    dims = []
    for number, _, dim in _fields(raw):
        if number == 2:
            size = next((v for n, _, v in _fields(dim) if n == 1), 0)
            dims.append(size)
    return tuple(dims)


def parse_tensor(serialized, out_type, name=None):
    """The tensor whose TensorProto bytes `serialized` holds; its dtype must be `out_type`."""
    raw = np.asarray(getattr(serialized, "_value", serialized), dtype=object)[()]
    raw = raw if isinstance(raw, bytes) else str(raw).encode()
    wanted = as_dtype(out_type).name
    enum, shape, content, strings = None, (), b"", []
    try:
        for number, _, value in _fields(raw):
            if number == 1:
                enum = value
            elif number == 2:
                shape = _shape(value)
            elif number == 4:
                content = bytes(value)
            elif number == 8:
                strings.append(bytes(value))
    except DecodeError:
        enum = None
    if enum not in _BY_ENUM:
        raise InvalidArgumentError("Could not parse `serialized` as TensorProto: "
                                   f"{raw[:40]!r}. Fix: pass the output of "
                                   "tf.io.serialize_tensor [Op:ParseTensor]", "ParseTensor")
    if _BY_ENUM[enum] != wanted:
        raise InvalidArgumentError(f"Type mismatch between parsed tensor ({_BY_ENUM[enum]}) and "
                                   f"dtype ({wanted}). Fix: out_type={_BY_ENUM[enum]} "
                                   "[Op:ParseTensor]", "ParseTensor")
    if wanted == "string":
        return _make(np.array(strings, dtype=object).reshape(shape))
    np_type = as_dtype(wanted).np
    return _make(np.frombuffer(content, np.dtype(np_type).newbyteorder("<"))
                 .astype(np_type).reshape(shape))
