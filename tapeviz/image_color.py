"""`tv.image.adjust_saturation` and `adjust_contrast` as TensorFlow's AdjustSaturation and
AdjustContrastv2 kernels compute them (float32; other dtypes converted there and back with
`convert_image_dtype`), and `adjust_hue` as AdjustHue. Saturation and hue go through the
kernels' own HSV conversion, pixel by pixel, and have no gradient, as in TensorFlow;
contrast is built from tapeviz ops."""
from __future__ import annotations

import numpy as np

from .engine import dtypes as dt
from .engine.convert import convert_to_tensor
from .engine.ops import cast, reduce_mean
from .engine.ops.makers import _make
from .image_ops import convert_image_dtype

_f32 = np.float32


def _hsv_scaled_saturation(rgb, scale, hue_delta=None):
    """The kernel's rgb_to_hsv, s = clamp(s * scale, 0, 1), hsv_to_rgb, all in float32
    (AdjustHue's kernel instead: h += delta, h -= floor(h), s as it is)."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    v = np.maximum(r, np.maximum(g, b))
    span = v - np.minimum(r, np.minimum(g, b))
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(v > 0, span / v, _f32(0))
        norm = _f32(1) / (_f32(6) * span)
        h = np.where(r == v, norm * (g - b),
                     np.where(g == v, norm * (b - r) + _f32(2 / 6), norm * (r - g) + _f32(4 / 6)))
    h = np.where(span <= 0, _f32(0), h)
    h = np.where(h < 0, h + _f32(1), h).astype(_f32)
    if hue_delta is None:
        s = np.clip(s * _f32(scale), 0, 1).astype(_f32)
    else:
        h = (h + _f32(hue_delta)).astype(_f32)
        h = (h - np.floor(h)).astype(_f32)
    c = s * v
    m = v - c
    dh = h * _f32(6)
    category = np.trunc(dh).astype(np.int64)
    fmodu = dh.copy()                      # the kernel's while loops into (0, 2)
    fmodu = np.where(fmodu <= 0, fmodu + _f32(2), fmodu)
    fmodu = np.where(fmodu >= 2, fmodu - _f32(2) * np.floor(fmodu / _f32(2)), fmodu)
    x = c * (_f32(1) - np.abs(fmodu - _f32(1)))
    zero = np.zeros_like(c)
    table = {0: (c, x, zero), 1: (x, c, zero), 2: (zero, c, x), 3: (zero, x, c),
             4: (x, zero, c), 5: (c, zero, x)}
    out = [zero.copy(), zero.copy(), zero.copy()]
    for k, parts in table.items():
        for channel, part in enumerate(parts):
            out[channel] = np.where(category == k, part, out[channel])
    return (np.stack(out, axis=-1) + m[..., None]).astype(_f32)


def _as_float(image):
    x = convert_to_tensor(image)
    return x, (x if x.dtype in (dt.float16, dt.float32) else convert_image_dtype(x, dt.float32))


def _adjust_hsv(image, op, factor=None, delta=None):
    x, flt = _as_float(image)
    if x.shape.rank < 1 or int(x.shape[-1]) != 3:
        from .engine.errors import InvalidArgumentError
        raise InvalidArgumentError(f"{op}: input must have 3 channels but input "
                                   f"only has {x.shape[-1] if x.shape.rank else 0} channels "
                                   f"(shape {list(x.shape)}). Fix: an RGB image "
                                   f"[Op:{op}]", op)
    rgb = np.asarray(flt._value, dtype=_f32)
    adjusted = _make(_hsv_scaled_saturation(rgb, factor, delta).astype(flt._value.dtype))
    return convert_image_dtype(adjusted, x.dtype)


def _scalar(value):
    return float(np.asarray(getattr(value, "_value", value)))


def adjust_saturation(image, saturation_factor, name=None):
    """Saturation (HSV's S) times `saturation_factor`, clamped to [0, 1]; last axis RGB."""
    return _adjust_hsv(image, "AdjustSaturation", factor=_scalar(saturation_factor))


def adjust_hue(image, delta, name=None):
    """Hue (HSV's H) turned by `delta` (in [-1, 1]) and wrapped into [0, 1), pixel by pixel
    as TensorFlow's AdjustHue kernel; last axis RGB; no gradient, as in TensorFlow."""
    return _adjust_hsv(image, "AdjustHue", delta=_scalar(delta))


def adjust_contrast(images, contrast_factor, name=None):
    """(x - mean) · factor + mean, the mean per image and channel (over height and width)."""
    x, flt = _as_float(images)
    mean = reduce_mean(flt, axis=[-3, -2], keepdims=True)
    adjusted = (flt - mean) * cast(convert_to_tensor(contrast_factor), flt.dtype) + mean
    return convert_image_dtype(adjusted, x.dtype, saturate=True)
