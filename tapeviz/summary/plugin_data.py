"""What `tf.summary.histogram`, `image` and `text` write, computed as TensorBoard's own summary
functions compute it (tensorboard/plugins/*/summary_v2.py), in NumPy:

- a histogram: a float64 tensor of shape [buckets, 3], rows (left edge, right edge, count),
  `buckets` equal-width buckets from the minimum to the maximum;
- images: a string tensor [width, height, png, png, ...], the first `max_outputs` images of
  a [k, height, width, channels] batch converted to uint8 as `tf.image.convert_image_dtype`
  (floats times 255.5, saturated) and encoded as PNG;
- text: the strings themselves.
"""
from __future__ import annotations

import struct
import zlib

import numpy as np

DEFAULT_BUCKET_COUNT = 30


def histogram_buckets(data: np.ndarray, bucket_count=None) -> np.ndarray:
    """TensorBoard's buckets: empty data gives `bucket_count` rows of zeros; one distinct
    value gives rows whose edges are that value, all its count in the last row."""
    count = DEFAULT_BUCKET_COUNT if bucket_count is None else max(0, int(bucket_count))
    data = np.asarray(data, np.float64).reshape(-1)
    if data.size == 0 or count == 0:
        return np.zeros((count, 3))
    low, high = data.min(), data.max()
    if low == high:
        counts = np.zeros(count)
        counts[-1] = data.size
        return np.stack([np.full(count, high), np.full(count, high), counts], axis=1)
    width = (high - low) / count
    index = np.minimum(np.floor((data - low) / width).astype(np.int64), count - 1)
    counts = np.bincount(index, minlength=count).astype(np.float64)
    edges = np.linspace(low, high, count + 1)
    edges[-1] = high
    return np.stack([edges[:-1], edges[1:], counts], axis=1)


def to_uint8(images: np.ndarray) -> np.ndarray:
    """`tf.image.convert_image_dtype(images, tf.uint8, saturate=True)`."""
    if images.dtype == np.uint8:
        return images
    if images.dtype.kind == "f":
        return np.clip(images.astype(np.float64) * 255.5, 0, 255).astype(np.uint8)
    if images.dtype.kind in "iu":      # another integer: rescaled by a power of two
        shift = images.dtype.itemsize * 8 - (images.dtype.kind == "i") - 8
        wide = images.astype(np.int64)
        return (wide >> shift if shift >= 0 else wide << -shift).astype(np.uint8)
    raise TypeError(f"tf.summary.image: images must be numbers, got dtype {images.dtype}. "
                    "Fix: floats in [0, 1] or uint8 in [0, 255]")


_COLOR_TYPES = {1: 0, 2: 4, 3: 2, 4: 6}      # channels -> PNG colour type (gray, +alpha, RGB, +A)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data +
            struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def encode_png(image: np.ndarray) -> bytes:
    """One [height, width, channels] uint8 image as PNG (no row filters, zlib level 6)."""
    height, width, channels = image.shape
    rows = np.concatenate([np.zeros((height, 1), np.uint8),
                           image.reshape(height, width * channels)], axis=1)
    header = struct.pack(">IIBBBBB", width, height, 8, _COLOR_TYPES[channels], 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) +
            _chunk(b"IDAT", zlib.compress(rows.tobytes(), 6)) + _chunk(b"IEND", b""))


def image_strings(images: np.ndarray, max_outputs: int) -> np.ndarray:
    """[width, height, png...] as TensorBoard's image summary writes them."""
    if images.ndim != 4 or images.shape[-1] not in _COLOR_TYPES:
        raise ValueError(f"tf.summary.image: images must have shape [k, height, width, "
                         f"channels] with 1, 2, 3 or 4 channels, got shape "
                         f"{tuple(images.shape)}. Fix: e.g. tf.expand_dims(image, 0) for "
                         "one image")
    if max_outputs < 0:
        raise ValueError(f"tf.summary.image: max_outputs must be non-negative, got "
                         f"{max_outputs}")
    pixels = to_uint8(images)
    encoded = [encode_png(image) for image in pixels[:max_outputs]]
    return np.array([str(images.shape[2]).encode(), str(images.shape[1]).encode()] + encoded,
                    dtype=object)


def decode_png(data: bytes) -> np.ndarray:
    """The pixels of a PNG that `encode_png` wrote (no row filters), for reading back."""
    pos, chunks = 8, {}
    while pos < len(data):
        (size,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        chunks[kind] = chunks.get(kind, b"") + data[pos + 8:pos + 8 + size]
        pos += 12 + size
    width, height, _, color = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    channels = {v: k for k, v in _COLOR_TYPES.items()}[color]
    rows = np.frombuffer(zlib.decompress(chunks[b"IDAT"]), np.uint8).reshape(height, -1)
    if rows[:, 0].any():
        raise ValueError("decode_png: filtered rows are not supported")
    return rows[:, 1:].reshape(height, width, channels)
