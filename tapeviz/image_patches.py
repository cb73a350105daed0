"""`tf.image.extract_patches`: each output pixel holds the window of the input it starts
(`sizes`, spread by `rates`), flattened in (row, column, channel) order, as TensorFlow's
ExtractImagePatches. It is one gather over the padded, flattened image, so its gradient is
the gather's: each patch's gradient added back where its pixels came from."""
from __future__ import annotations

import numpy as np

from .engine.errors import InvalidArgumentError
from .engine.ops import gather, pad, reshape
from .engine.ops._base import tensor


def _window(values, what):
    values = [int(v) for v in values]
    if len(values) != 4 or values[0] != 1 or values[3] != 1 or min(values) < 1:
        raise ValueError(f"extract_patches: {what} must be 4 positive ints with 1 for the batch "
                         f"and channel axes, got {values}. Fix: e.g. {what}=[1, 3, 3, 1]")
    return values[1], values[2]


def _axis(size, kernel, stride, rate, padding):
    """The number of patches along one axis and the padding before and after it."""
    reach = (kernel - 1) * rate + 1
    if padding == "VALID":
        return max((size - reach) // stride + 1, 0), 0, 0
    count = -(-size // stride)
    total = max((count - 1) * stride + reach - size, 0)
    return count, total // 2, total - total // 2


def extract_patches(images, sizes, strides, rates, padding, name=None):
    x = tensor(images)
    if x._value.ndim != 4:
        raise InvalidArgumentError(
            f"input must be 4-dimensional (batch, height, width, channels), got shape "
            f"{list(x.shape)} ({x.dtype.name}). Fix: add a batch axis, e.g. images[None] "
            "[Op:ExtractImagePatches]", "ExtractImagePatches")
    padding = str(padding).upper()
    if padding not in ("VALID", "SAME"):
        raise ValueError(f"extract_patches: padding must be 'VALID' or 'SAME', got {padding!r}")
    (kh, kw), (sh, sw), (rh, rw) = (_window(v, w) for v, w in ((sizes, "sizes"),
                                                               (strides, "strides"),
                                                               (rates, "rates")))
    batch, height, width, channels = x._value.shape
    out_h, top, bottom = _axis(height, kh, sh, rh, padding)
    out_w, left, right = _axis(width, kw, sw, rw, padding)
    padded = pad(x, [[0, 0], [top, bottom], [left, right], [0, 0]])
    padded_width = width + left + right
    rows = (np.arange(out_h) * sh)[:, None] + (np.arange(kh) * rh)[None, :]   # (out_h, kh)
    cols = (np.arange(out_w) * sw)[:, None] + (np.arange(kw) * rw)[None, :]   # (out_w, kw)
    index = rows[:, None, :, None] * padded_width + cols[None, :, None, :]
    flat = reshape(padded, (batch, -1, channels))
    picked = gather(flat, index.reshape(-1).astype(np.int64), axis=1)
    return reshape(picked, (batch, out_h, out_w, kh * kw * channels))


__all__ = ["extract_patches"]
