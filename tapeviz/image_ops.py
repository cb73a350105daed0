"""`tv.image`'s array functions as TensorFlow's `image_ops_impl.py` computes them: dtype
conversion, flips, rotations, crops and pads, brightness, grayscale and per-image
standardization (the random flips and crop are in image_random.py).

Each is built from tapeviz ops (reverse, transpose, slicing, pad, arithmetic), so gradients
flow where TensorFlow's do. Images are (height, width, channels) or a batch of them.
"""
from __future__ import annotations

import numpy as np

from .engine import dtypes as dt
from .engine.convert import convert_to_tensor
from .engine.ops import (cast, clip_by_value, expand_dims, floordiv, maximum, pad,
                         reduce_mean, reduce_std, reverse, rsqrt, tensordot, tile, transpose)

__all__ = ["adjust_brightness", "central_crop", "convert_image_dtype", "crop_to_bounding_box",
           "flip_left_right", "flip_up_down", "grayscale_to_rgb", "pad_to_bounding_box",
           "per_image_standardization", "resize_with_crop_or_pad", "resize_with_pad",
           "rgb_to_grayscale", "rot90"]


def _image(image, what="image", ranks=(3, 4)):
    x = convert_to_tensor(image)
    if x._value.ndim not in ranks:
        raise ValueError(f"'{what}' (shape {tuple(x.shape)}) must have either 3 or 4 "
                         "dimensions." if ranks == (3, 4) else
                         f"'{what}' (shape {tuple(x.shape)}) must be at least three-dimensional.")
    return x


def _saturate_cast(x, dtype):
    """TensorFlow's saturate_cast: clip to the range both dtypes hold, then cast."""
    lo, hi = max(x.dtype.min, dtype.min), min(x.dtype.max, dtype.max)
    if lo > x.dtype.min or hi < x.dtype.max:
        x = clip_by_value(x, lo, hi)
    return cast(x, dtype)


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Integers scaled to [0, 1] as floats and back (255 -> 1.0), as TensorFlow scales."""
    x = convert_to_tensor(image)
    dtype = dt.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_integer):
        raise AttributeError("dtype must be either floating point or integer")
    if not (x.dtype.is_floating or x.dtype.is_integer):
        raise AttributeError("image dtype must be either floating point or integer")
    if dtype == x.dtype:
        return x
    if x.dtype.is_integer and dtype.is_integer:
        if x.dtype.max > dtype.max:
            scaled = floordiv(x, (x.dtype.max + 1) // (dtype.max + 1))
            return _saturate_cast(scaled, dtype) if saturate else cast(scaled, dtype)
        widened = _saturate_cast(x, dtype) if saturate else cast(x, dtype)
        return widened * ((dtype.max + 1) // (x.dtype.max + 1))
    if x.dtype.is_floating and dtype.is_floating:
        return cast(x, dtype)
    if x.dtype.is_integer:
        return cast(x, dtype) * (1.0 / x.dtype.max)
    scaled = x * (dtype.max + 0.5)   # (+0.5: TensorFlow's guard against rounding down)
    return _saturate_cast(scaled, dtype) if saturate else cast(scaled, dtype)


def _axes(x):
    """(height axis, width axis) of one image or a batch."""
    return (0, 1) if x._value.ndim == 3 else (1, 2)


def flip_left_right(image):
    x = _image(image)
    return reverse(x, [_axes(x)[1]])


def flip_up_down(image):
    x = _image(image)
    return reverse(x, [_axes(x)[0]])


def rot90(image, k=1, name=None):
    """Rotate counter-clockwise by k quarter turns."""
    x = _image(image)
    h, w = _axes(x)
    perm = list(range(x._value.ndim))
    perm[h], perm[w] = w, h
    k = int(np.asarray(getattr(k, "_value", k))) % 4
    if k == 1:
        return transpose(reverse(x, [w]), perm)
    if k == 2:
        return reverse(x, [h, w])
    if k == 3:
        return reverse(transpose(x, perm), [w])
    return x


def rgb_to_grayscale(images, name=None):
    """TensorFlow's weights 0.2989 R + 0.5870 G + 0.1140 B, computed in float32."""
    x = convert_to_tensor(images)
    flt = convert_image_dtype(x, dt.float32)
    gray = tensordot(flt, convert_to_tensor([0.2989, 0.5870, 0.1140], dt.float32),
                     [[x._value.ndim - 1], [0]])
    return convert_image_dtype(expand_dims(gray, -1), x.dtype)


def grayscale_to_rgb(images, name=None):
    x = convert_to_tensor(images)
    if x._value.ndim < 2 or x._value.shape[-1] != 1:
        raise ValueError(f"Last dimension of a grayscale image should be size 1, got shape "
                         f"{tuple(x.shape)}")
    return tile(x, [1] * (x._value.ndim - 1) + [3])


def _check_box(x, offset_height, offset_width, target_height, target_width, crop):
    hx, wx = _axes(x)
    height, width = x._value.shape[hx], x._value.shape[wx]
    checks = [(offset_width >= 0, "offset_width must be >= 0."),
              (offset_height >= 0, "offset_height must be >= 0.")]
    if crop:
        checks += [(target_width > 0, "target_width must be > 0."),
                   (target_height > 0, "target_height must be > 0."),
                   (width >= target_width + offset_width, "width must be >= target + offset."),
                   (height >= target_height + offset_height,
                    "height must be >= target + offset.")]
    else:
        checks += [(target_width - offset_width - width >= 0,
                    "width must be <= target - offset"),
                   (target_height - offset_height - height >= 0,
                    "height must be <= target - offset")]
    for ok, message in checks:
        if not ok:
            raise ValueError(f"{message} (image shape {tuple(x.shape)}, offsets "
                             f"{(offset_height, offset_width)}, target "
                             f"{(target_height, target_width)})")
    return hx, wx, height, width


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    x = _image(image)
    hx, wx, _, _ = _check_box(x, offset_height, offset_width, target_height, target_width, True)
    key = [slice(None)] * x._value.ndim
    key[hx] = slice(offset_height, offset_height + target_height)
    key[wx] = slice(offset_width, offset_width + target_width)
    return x[tuple(key)]


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    x = _image(image)
    hx, wx, height, width = _check_box(x, offset_height, offset_width, target_height,
                                       target_width, False)
    paddings = [[0, 0]] * x._value.ndim
    paddings[hx] = [offset_height, target_height - offset_height - height]
    paddings[wx] = [offset_width, target_width - offset_width - width]
    return pad(x, paddings)


def resize_with_crop_or_pad(image, target_height, target_width):
    """Crop or zero-pad evenly on both sides to the target size (the centre is kept)."""
    x = _image(image)
    if target_width <= 0 or target_height <= 0:
        raise ValueError(f"target_width and target_height must be > 0, got "
                         f"{(target_height, target_width)}")
    hx, wx = _axes(x)
    height, width = x._value.shape[hx], x._value.shape[wx]
    off_w, off_h = max((width - target_width) // 2, 0), max((height - target_height) // 2, 0)
    cropped = crop_to_bounding_box(x, off_h, off_w, min(target_height, height),
                                   min(target_width, width))
    return pad_to_bounding_box(cropped, max((target_height - height) // 2, 0),
                               max((target_width - width) // 2, 0), target_height, target_width)


def resize_with_pad(image, target_height, target_width, method="bilinear", antialias=False):
    """Resized to fit inside the target keeping the aspect ratio, then zero-padded evenly
    (TensorFlow's float32 arithmetic for the size and the padding)."""
    from .image_resize import resize
    x = _image(image)
    hx, wx = _axes(x)
    height, width = np.float32(x._value.shape[hx]), np.float32(x._value.shape[wx])
    th, tw = np.float32(target_height), np.float32(target_width)
    ratio = max(width / tw, height / th)
    new_h, new_w = height / ratio, width / ratio
    pad_h = max(0, int(np.floor((th - new_h) / np.float32(2))))
    pad_w = max(0, int(np.floor((tw - new_w) / np.float32(2))))
    resized = resize(x, [int(np.floor(new_h)), int(np.floor(new_w))], method=method,
                     antialias=antialias)
    return pad_to_bounding_box(resized, pad_h, pad_w, int(target_height), int(target_width))


def central_crop(image, central_fraction):
    """The central `central_fraction` of each side (TensorFlow's rounding of the start)."""
    x = _image(image)
    if central_fraction <= 0.0 or central_fraction > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    if central_fraction == 1.0:
        return x
    hx, wx = _axes(x)
    height, width = x._value.shape[hx], x._value.shape[wx]
    top = int((height - height * np.float64(central_fraction)) / 2)
    left = int((width - width * np.float64(central_fraction)) / 2)
    return crop_to_bounding_box(x, top, left, height - 2 * top, width - 2 * left)


def adjust_brightness(image, delta):
    """`image + delta`, in float32 for integer images and converted back saturating."""
    x = convert_to_tensor(image)
    flt = x if x.dtype in (dt.float16, dt.float32) else convert_image_dtype(x, dt.float32)
    adjusted = flt + cast(convert_to_tensor(delta), flt.dtype)
    return convert_image_dtype(adjusted, x.dtype, saturate=True)


def per_image_standardization(image):
    """(x - mean) / max(std, 1/√N) over each image's height, width and channels."""
    x = _image(image, ranks=tuple(range(3, 33)))
    if not x.dtype.is_floating or x.dtype == dt.float64:
        x = cast(x, dt.float32) if not x.dtype.is_floating else x
    n = int(np.prod(x._value.shape[-3:]))
    mean = reduce_mean(x, axis=[-1, -2, -3], keepdims=True)
    std = reduce_std(x, axis=[-1, -2, -3], keepdims=True)
    return (x - mean) / maximum(std, rsqrt(cast(convert_to_tensor(n), x.dtype)))
