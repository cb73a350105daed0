"""TFRecord files: `tf.io.TFRecordWriter`, `tf.io.TFRecordOptions` and the reading behind
`tf.data.TFRecordDataset`, in TensorFlow's format, so that files either one writes read in
the other.

Each record is its length (8 bytes, little-endian), the masked CRC-32C of those 8 bytes,
the data, and the masked CRC-32C of the data; a file may be GZIP- or ZLIB-compressed as a
whole. A record whose checksum does not match is TensorFlow's `DataLossError`.
"""
from __future__ import annotations

import gzip
import struct
import zlib

from .engine.errors import DataLossError, NotFoundError


def _crc32c_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _crc32c_table()


def _crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def _masked_crc(data):
    """TFRecord's masked checksum (a CRC of data holding CRCs is then no CRC of itself)."""
    crc = _crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


class TFRecordOptions:
    """How a TFRecord file is compressed: `compression_type` "", "GZIP" or "ZLIB"."""

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
                 output_buffer_size=None, window_bits=None, compression_level=None,
                 compression_method=None, mem_level=None, compression_strategy=None):
        self.compression_type = _compression(compression_type)
        self.compression_level = compression_level

    @classmethod
    def get_compression_type_string(cls, options):
        return _compression(options.compression_type if isinstance(options, cls) else options)


def _compression(kind):
    kind = "" if kind is None else getattr(kind, "compression_type", kind)
    if kind not in ("", "GZIP", "ZLIB"):
        raise ValueError(f"Unsupported compression type: {kind!r}. Fix: '', 'GZIP' or 'ZLIB'")
    return kind


class TFRecordWriter:
    """Writes records (bytes, e.g. `example.SerializeToString()`) to a TFRecord file; the
    file is complete when the writer is closed (or its `with` block ends)."""

    def __init__(self, path, options=None):
        self._path, self._kind = str(path), _compression(options)
        self._level = getattr(options, "compression_level", None)
        self._records = []
        self._closed = False
        self._save()                  # the file exists from the start, as TensorFlow's

    def write(self, record):
        if self._closed:
            raise ValueError("TFRecordWriter: write on a closed writer. Fix: write inside its "
                             "`with` block, before close()")
        data = record if isinstance(record, bytes) else getattr(record, "_value", record)
        data = data.item() if hasattr(data, "item") else data
        if isinstance(data, str):
            data = data.encode()
        length = struct.pack("<Q", len(data))
        self._records.append(length + struct.pack("<I", _masked_crc(length)) + data +
                             struct.pack("<I", _masked_crc(data)))

    def flush(self):
        self._save()

    def _save(self):
        raw = b"".join(self._records)
        level = -1 if self._level is None else self._level
        if self._kind == "GZIP":
            raw = gzip.compress(raw, compresslevel=9 if level == -1 else level)
        elif self._kind == "ZLIB":
            raw = zlib.compress(raw, level)
        with open(self._path, "wb") as f:
            f.write(raw)

    def close(self):
        if not self._closed:
            self._save()
            self._closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def read_records(path, compression_type=None):
    """The records of one TFRecord file, checked, as bytes."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise NotFoundError(f"{path}; No such file or directory [Op:IteratorGetNext]",
                            "IteratorGetNext") from None
    kind = _compression(compression_type)
    raw = gzip.decompress(raw) if kind == "GZIP" else zlib.decompress(raw) if kind == "ZLIB" \
        else raw
    pos = 0
    while pos < len(raw):
        header = raw[pos:pos + 12]
        if len(header) < 12:
            raise DataLossError(f"truncated record at {pos} in {path} [Op:IteratorGetNext]",
                                "IteratorGetNext")
        (length,), (crc,) = struct.unpack("<Q", header[:8]), struct.unpack("<I", header[8:])
        data = raw[pos + 12:pos + 12 + length]
        footer = raw[pos + 12 + length:pos + 16 + length]
        if crc != _masked_crc(header[:8]) or len(footer) < 4 or \
                struct.unpack("<I", footer)[0] != _masked_crc(data):
            raise DataLossError(f"corrupted record at {pos} in {path} (its checksum does not "
                                "match) [Op:IteratorGetNext]", "IteratorGetNext")
        yield data
        pos += 16 + length
