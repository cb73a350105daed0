"""TensorFlow's `ImageProjectiveTransformV3` kernel (what Keras's RandomRotation, RandomZoom
and RandomTranslation call) in NumPy, and Keras's matrices for those transforms.

A transform row [a0, a1, a2, b0, b1, b2, c0, c1] maps an *output* pixel (x, y) to the
*input* point ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k), k = c0 x + c1 y + 1. Points
outside the image are brought back by `fill_mode` ("reflect", "wrap", "nearest") or read as
`fill_value` ("constant"); "nearest" rounds to a pixel, "bilinear" mixes four, all in float32
as TensorFlow's kernel computes them. The gradient is TensorFlow's registered one (see _vjp).
"""
from __future__ import annotations

import numpy as np

from .engine.convert import convert_to_tensor
from .engine.op import apply, defop

FILL_MODES = ("reflect", "wrap", "constant", "nearest")
INTERPOLATIONS = ("nearest", "bilinear")
_f32 = np.float32


def _reflect(c, n):
    """[abcd] -> [dcba|abcd|dcba] (TensorFlow's mapping, then clamped to the image)."""
    if n <= 1:
        return np.zeros_like(c)
    twice = 2 * n
    c = c.copy()
    low = c < 0
    cl = c[low]
    cl = np.where(cl < -twice, twice * np.trunc(-cl / twice) + cl, cl)
    c[low] = np.where(cl < -n, cl + twice, -cl - 1)
    high = c > n - 1
    ch = c[high]
    ch = ch - twice * np.trunc(ch / twice)
    c[high] = np.where(ch >= n, twice - ch - 1, ch)
    return np.clip(c, 0, n - 1)


def _wrap(c, n):
    """[abcd] -> [abcd|abcd|abcd], as TensorFlow's kernel computes it (period len, steps of
    len - 1), then clamped to the image."""
    if n <= 1:
        return np.zeros_like(c)
    c = c.copy()
    low, high = c < 0, c > n - 1
    c[low] = c[low] + n * (np.trunc(-c[low] / (n - 1)) + 1)
    c[high] = c[high] - n * np.trunc(c[high] / (n - 1))
    return np.clip(c, 0, n - 1)


_MAPPERS = {"reflect": _reflect, "wrap": _wrap, "constant": lambda c, n: c,
            "nearest": lambda c, n: np.clip(c, 0, n - 1)}


def _read(image, y, x, fill, dtype=_f32):
    """image[y, x, :] where (y, x) is inside, `fill` elsewhere: (points, channels), in
    `dtype` (bilinear mixes in float32 as TensorFlow's kernel; nearest keeps the dtype)."""
    h, w = image.shape[:2]
    inside = (y >= 0) & (y < h) & (x >= 0) & (x < w)
    # (one gather of rows of the flattened image: faster than indexing by (y, x) pairs)
    flat = np.minimum(np.maximum(y, 0), h - 1) * w + np.minimum(np.maximum(x, 0), w - 1)
    values = image.reshape(h * w, -1).take(flat, axis=0).astype(dtype, copy=False)
    if inside.all():
        return values
    return np.where(inside[:, None], values, np.asarray(fill).astype(dtype))


def _transform_one(image, row, out_hw, mode, interpolation, fill):
    a0, a1, a2, b0, b1, b2, c0, c1 = (_f32(v) for v in row)
    ys, xs = np.meshgrid(np.arange(out_hw[0], dtype=_f32), np.arange(out_hw[1], dtype=_f32),
                         indexing="ij")
    ys, xs = ys.ravel(), xs.ravel()
    k = c0 * xs + c1 * ys + _f32(1)
    safe = np.where(k == 0, _f32(1), k)
    x = _MAPPERS[mode]((a0 * xs + a1 * ys + a2) / safe, image.shape[1]).astype(_f32)
    y = _MAPPERS[mode]((b0 * xs + b1 * ys + b2) / safe, image.shape[0]).astype(_f32)
    if interpolation == "nearest":
        out = _read(image, np.round(y).astype(np.int64), np.round(x).astype(np.int64), fill,
                    image.dtype)
    else:
        y0, x0 = np.floor(y), np.floor(x)
        y1, x1 = y0 + 1, x0 + 1
        iy0, ix0, iy1, ix1 = (v.astype(np.int64) for v in (y0, x0, y1, x1))
        top = (x1 - x)[:, None] * _read(image, iy0, ix0, fill) + \
            (x - x0)[:, None] * _read(image, iy0, ix1, fill)
        bottom = (x1 - x)[:, None] * _read(image, iy1, ix0, fill) + \
            (x - x0)[:, None] * _read(image, iy1, ix1, fill)
        out = (y1 - y)[:, None] * top + (y - y0)[:, None] * bottom
    out = np.where((k == 0)[:, None], np.asarray(fill).astype(out.dtype), out)
    return out.reshape(out_hw[0], out_hw[1], image.shape[2])


def _forward(value, rows, out_hw, fill_mode, interpolation, fill_value):
    out = [_transform_one(img, rows[i if len(rows) > 1 else 0], out_hw, fill_mode,
                          interpolation, fill_value) for i, img in enumerate(value)]
    stacked = np.stack(out) if out else np.zeros((0,) + out_hw + value.shape[3:], _f32)
    if value.dtype.kind in "iu":
        stacked = np.trunc(stacked)       # (TensorFlow's kernel casts its float result back)
    return stacked.astype(value.dtype)


def _inverse_rows(rows):
    """TensorFlow's gradient transforms: each 3x3 matrix inverted, scaled to end in 1."""
    matrices = np.concatenate([rows, np.ones((len(rows), 1), _f32)], axis=1).reshape(-1, 3, 3)
    flat = np.linalg.inv(matrices).astype(_f32).reshape(-1, 9)
    return (flat / flat[:, 8:9])[:, :8]


def _vjp(g, y, x, rows, out_hw, fill_mode, interpolation, fill_value):
    # TensorFlow's registered gradient: the upstream gradient sampled through the inverse
    # transforms (with zeros outside), not the exact adjoint of the sampling
    return apply(_TRANSFORM, (g,), {"rows": _inverse_rows(rows),
                                    "out_hw": tuple(x.shape[1:3]), "fill_mode": fill_mode,
                                    "interpolation": interpolation, "fill_value": 0.0})


_TRANSFORM = defop("ImageProjectiveTransformV3", _forward, [_vjp],
                   "y = images sampled at the transformed points",
                   ["∂images = ∂y sampled through the inverse transforms"], batchable=False)


def transform(images, transforms, fill_mode="reflect", fill_value=0.0,
              interpolation="bilinear", output_shape=None):
    """`images` (batch, height, width, channels) under one transform row for all, or one
    per image (`transforms` of shape (8,), (1, 8) or (batch, 8)); same dtype out."""
    x = convert_to_tensor(images)
    value = np.asarray(x._value)
    if value.ndim != 4:
        raise ValueError(f"ImageProjectiveTransformV3: images must be rank 4 (batch, height, "
                         f"width, channels), got shape {list(value.shape)}. Fix: "
                         "tf.expand_dims(image, 0) for one image")
    if fill_mode not in FILL_MODES or interpolation not in INTERPOLATIONS:
        raise NotImplementedError(f"Unknown fill_mode {fill_mode!r} or interpolation "
                                  f"{interpolation!r}. Fix: fill_mode one of {FILL_MODES}, "
                                  f"interpolation one of {INTERPOLATIONS}")
    rows = np.asarray(getattr(transforms, "_value", transforms), dtype=_f32).reshape(-1, 8)
    if len(rows) not in (1, len(value)):
        raise ValueError(f"ImageProjectiveTransformV3: {len(rows)} transforms for a batch of "
                         f"{len(value)} images. Fix: one transform, or one per image")
    out_hw = tuple(value.shape[1:3]) if output_shape is None else \
        tuple(int(d) for d in np.asarray(getattr(output_shape, "_value", output_shape)))
    return apply(_TRANSFORM, (x,), {"rows": rows, "out_hw": out_hw, "fill_mode": fill_mode,
                                    "interpolation": interpolation,
                                    "fill_value": float(fill_value)})


# --- Keras's matrices (tf-keras image_preprocessing.py), one row per image ---------------------
def rotation_matrix(angles, height, width):
    cos, sin = np.cos(angles).astype(_f32), np.sin(angles).astype(_f32)
    h, w = _f32(height) - 1, _f32(width) - 1
    x_offset = (w - (cos * w - sin * h)) / _f32(2)
    y_offset = (h - (sin * w + cos * h)) / _f32(2)
    zeros = np.zeros_like(cos)
    return np.stack([cos, -sin, x_offset, sin, cos, y_offset, zeros, zeros], axis=1)


def translation_matrix(dx, dy):
    ones, zeros = np.ones_like(dx), np.zeros_like(dx)
    return np.stack([ones, zeros, -dx, zeros, ones, -dy, zeros, zeros], axis=1).astype(_f32)


def zoom_matrix(zx, zy, height, width):
    zeros = np.zeros_like(zx)
    x_offset = ((_f32(width) - 1) / _f32(2)) * (_f32(1) - zx)
    y_offset = ((_f32(height) - 1) / _f32(2)) * (_f32(1) - zy)
    return np.stack([zx, zeros, x_offset, zeros, zy, y_offset, zeros, zeros],
                    axis=1).astype(_f32)
