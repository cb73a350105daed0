"""TensorBoard event files, written and read without TensorFlow or protobuf.

An event file is a sequence of TFRecords (`length` as uint64, its masked CRC32C, the bytes,
their masked CRC32C), each one a serialized `tensorflow.Event` protocol buffer. The few
messages a summary needs are encoded here by hand (field numbers from TensorFlow's
event.proto, summary.proto, tensor.proto, tensor_shape.proto):

    Event         wall_time=1 (double), step=2 (int64), file_version=3, summary=5,
                  source_metadata=10 {writer=1}
    Summary       value=1 (repeated Value)
    Value         tag=1, tensor=8 (TensorProto), metadata=9 (SummaryMetadata)
    Metadata      plugin_data=1 {plugin_name=1, content=2}, summary_description=3
    TensorProto   dtype=1, tensor_shape=2 {dim=2 {size=1}}, tensor_content=4, string_val=8

Each summary carries its plugin's metadata, as TensorFlow's writer does, so TensorBoard's
scalars, histograms, text and images dashboards show them. `read_events` reads such files
back (those TensorFlow writes too), for tests and for anyone without TensorBoard.
"""
from __future__ import annotations

import itertools
import os
import socket
import struct
import threading
import time

import numpy as np

# --- CRC32C (Castagnoli), as TFRecord frames its records --------------------------------------
_CRC_TABLE = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC_TABLE.append(_c)


def crc32c(data: bytes) -> int:
    crc, table = 0xFFFFFFFF, _CRC_TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data: bytes) -> int:
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def tfrecord(data: bytes) -> bytes:
    length = struct.pack("<Q", len(data))
    return (length + struct.pack("<I", masked_crc32c(length)) + data +
            struct.pack("<I", masked_crc32c(data)))


# --- protocol buffer encoding ------------------------------------------------------------------
def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1                     # an int64 below zero takes ten bytes, as protobuf's
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited field (a string, bytes, or an embedded message)."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _int_field(number: int, value: int) -> bytes:
    return _varint(number << 3) + _varint(value)


#: TensorFlow's DataType numbers of the dtypes a summary holds
DTYPES = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "string": 7, "int64": 9,
          "bool": 10}
_NUMPY = {code: name for name, code in DTYPES.items()}


def tensor_proto(array: np.ndarray) -> bytes:
    """A TensorProto of a NumPy array: numbers as tensor_content, strings as string_val."""
    shape = b"".join(_field(2, _int_field(1, int(d))) for d in array.shape)
    if array.dtype.kind in "OSU":
        values = [v if isinstance(v, bytes) else str(v).encode() for v in array.reshape(-1)]
        return (_int_field(1, DTYPES["string"]) + _field(2, shape) +
                b"".join(_field(8, v) for v in values))
    name = "bool" if array.dtype.kind == "b" else array.dtype.name
    return (_int_field(1, DTYPES[name]) + _field(2, shape) +
            _field(4, np.ascontiguousarray(array, array.dtype.newbyteorder("<")).tobytes()))


def plugin_metadata(plugin: str, description=None) -> bytes:
    """A serialized SummaryMetadata naming the TensorBoard plugin that shows the value."""
    return _field(1, _field(1, plugin.encode())) + (
        _field(3, str(description).encode()) if description else b"")


def summary_event(tag: str, tensor: np.ndarray, step: int, metadata: bytes = b"",
                  wall_time: float | None = None) -> bytes:
    """A serialized Event holding one summary value."""
    value = _field(1, tag.encode()) + _field(8, tensor_proto(tensor)) + _field(9, metadata)
    return (b"\x09" + struct.pack("<d", time.time() if wall_time is None else wall_time) +
            _int_field(2, step) + _field(5, _field(1, value)))


def version_event(wall_time: float | None = None) -> bytes:
    """The first event of every file: the format version and who wrote it."""
    return (b"\x09" + struct.pack("<d", time.time() if wall_time is None else wall_time) +
            _field(3, b"brain.Event:2") + _field(10, _field(1, b"tapeviz")))


class EventFileWriter:
    """Appends events to `logdir/events.out.tfevents.<time>.<host>.<pid>.<n><suffix>`, a
    name TensorBoard finds. Thread-safe; writes go through a buffer until `flush`."""

    _count = itertools.count()

    def __init__(self, logdir: str, filename_suffix: str = ".v2"):
        os.makedirs(logdir, exist_ok=True)
        name = (f"events.out.tfevents.{int(time.time())}.{socket.gethostname()}."
                f"{os.getpid()}.{next(self._count)}{filename_suffix}")
        self.path = os.path.join(logdir, name)
        self._lock = threading.Lock()
        self._file = open(self.path, "ab")
        self.write(version_event())
        self.flush()

    def write(self, event: bytes) -> None:
        with self._lock:
            self._file.write(tfrecord(event))

    def flush(self) -> None:
        with self._lock:
            if not self._file.closed:
                self._file.flush()

    def close(self) -> None:
        with self._lock:
            self._file.close()

    @property
    def closed(self) -> bool:
        return self._file.closed


# --- reading -----------------------------------------------------------------------------------
def _read_varint(data: bytes, pos: int) -> tuple:
    shift = result = 0
    while True:
        byte = data[pos]
        result |= (byte & 0x7F) << shift
        pos, shift = pos + 1, shift + 7
        if not byte & 0x80:
            return result, pos


def parse_message(data: bytes) -> dict:
    """A protobuf message as {field number: [raw values]} (ints, floats as 8 or 4 bytes,
    bytes for length-delimited fields)."""
    fields: dict = {}
    pos = 0
    while pos < len(data):
        key, pos = _read_varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _read_varint(data, pos)
        elif wire == 1:
            value, pos = data[pos:pos + 8], pos + 8
        elif wire == 2:
            size, pos = _read_varint(data, pos)
            value, pos = data[pos:pos + size], pos + size
        elif wire == 5:
            value, pos = data[pos:pos + 4], pos + 4
        else:
            raise ValueError(f"read_events: unsupported protobuf wire type {wire}")
        fields.setdefault(number, []).append(value)
    return fields


def read_records(path: str) -> list:
    """The records of a TFRecord file, each CRC checked."""
    with open(path, "rb") as f:
        data = f.read()
    records, pos = [], 0
    while pos < len(data):
        header = data[pos:pos + 12]
        (length,), (crc,) = struct.unpack("<Q", header[:8]), struct.unpack("<I", header[8:])
        body = data[pos + 12:pos + 12 + length]
        (body_crc,) = struct.unpack("<I", data[pos + 12 + length:pos + 16 + length])
        if crc != masked_crc32c(header[:8]) or body_crc != masked_crc32c(body):
            raise ValueError(f"read_events: {path}: a corrupt record at byte {pos}")
        records.append(body)
        pos += 16 + length
    return records


def _tensor(data: bytes):
    fields = parse_message(data)
    dtype = _NUMPY.get(fields.get(1, [0])[0], "unknown")
    shape = tuple(parse_message(d)[1][0] if 1 in parse_message(d) else 0
                  for d in parse_message(fields.get(2, [b""])[0]).get(2, []))
    if dtype == "string":
        return np.array(fields.get(8, []), dtype=object).reshape(shape)
    return np.frombuffer(fields[4][0], np.dtype(dtype).newbyteorder("<")).reshape(shape)


def _signed(n: int) -> int:
    return n - (1 << 64) if n >= 1 << 63 else n


def read_events(path: str) -> list:
    """Every event of a file as a dict: wall_time, step, and file_version or summary (a list
    of {tag, plugin, description, value (a NumPy array)})."""
    events = []
    for record in read_records(path):
        fields = parse_message(record)
        event = {"wall_time": struct.unpack("<d", fields[1][0])[0] if 1 in fields else 0.0,
                 "step": _signed(fields.get(2, [0])[0])}
        if 3 in fields:
            event["file_version"] = fields[3][0].decode()
        if 5 in fields:
            event["summary"] = []
            for raw in parse_message(fields[5][0]).get(1, []):
                value = parse_message(raw)
                meta = parse_message(value.get(9, [b""])[0])
                plugin = parse_message(meta[1][0]).get(1, [b""])[0] if 1 in meta else b""
                event["summary"].append({
                    "tag": value[1][0].decode(), "plugin": plugin.decode(),
                    "description": meta.get(3, [b""])[0].decode(),
                    "value": _tensor(value[8][0]) if 8 in value else None})
        events.append(event)
    return events
