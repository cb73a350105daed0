"""`tv.image.random_*` (the stateful ones) as TensorFlow's image_ops_impl.py builds them: each
draws its parameter with `tv.random.uniform(..., seed=seed)`, so that under
`tv.random.set_seed` or with `seed=` they give TensorFlow's exact numbers (its stateful
RandomUniform / RandomUniformInt kernels: engine/ops/random_stateful.py), a second call
with the same seed draws anew, and `set_seed` starts over. Unseeded they draw from NumPy."""
from __future__ import annotations

import numpy as np

from .engine import dtypes as dt
from .engine.convert import convert_to_tensor
from .engine.errors import InvalidArgumentError
from .engine.ops import cast, reverse, round as _round
from .engine.ops.makers import uniform as _uniform

__all__ = ["random_brightness", "random_contrast", "random_crop", "random_flip_left_right",
           "random_flip_up_down", "random_hue", "random_saturation"]


def _random_flip(image, seed, flip_index):
    """One image flips where u < 0.5; a batch as flips * flipped + (1 - flips) * image,
    flips = round(u) per image, in the image's dtype (TensorFlow's _random_flip)."""
    x = convert_to_tensor(image)
    rank = x._value.ndim
    if rank < 3:
        raise ValueError(f"'image' (shape {tuple(x.shape)}) must be at least "
                         "three-dimensional.")
    if rank == 3:
        u = _uniform([], 0, 1.0, seed=seed)
        return reverse(x, [flip_index]) if float(u._value) < 0.5 else x
    if rank != 4:
        raise ValueError(f"'image' (shape {tuple(x.shape)}) must have either 3 or 4 "
                         "dimensions.")
    batch = int(x._value.shape[0])
    u = _uniform([batch], 0, 1.0, seed=seed)
    flips = cast(_round(u._value.reshape(batch, 1, 1, 1)), x.dtype)
    return flips * reverse(x, [flip_index + 1]) + (1 - flips) * x


def random_flip_left_right(image, seed=None):
    """Each image mirrored left to right with probability 1/2."""
    return _random_flip(image, seed, 1)


def random_flip_up_down(image, seed=None):
    """Each image turned upside down with probability 1/2."""
    return _random_flip(image, seed, 0)


def random_brightness(image, max_delta, seed=None):
    """adjust_brightness by one delta drawn in [-max_delta, max_delta)."""
    from .image_ops import adjust_brightness
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_brightness(image, _uniform([], -max_delta, max_delta, seed=seed))


def _factor_bounds(lower, upper):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


def random_contrast(image, lower, upper, seed=None):
    """adjust_contrast by one factor drawn in [lower, upper)."""
    from .image_color import adjust_contrast
    _factor_bounds(lower, upper)
    return adjust_contrast(image, _uniform([], lower, upper, seed=seed))


def random_saturation(image, lower, upper, seed=None):
    """adjust_saturation by one factor drawn in [lower, upper)."""
    from .image_color import adjust_saturation
    _factor_bounds(lower, upper)
    return adjust_saturation(image, _uniform([], lower, upper, seed=seed))


def random_hue(image, max_delta, seed=None):
    """adjust_hue by one delta drawn in [-max_delta, max_delta), max_delta at most 0.5."""
    from .image_color import adjust_hue
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_hue(image, _uniform([], -max_delta, max_delta, seed=seed))


def random_crop(value, size, seed=None, name=None):
    """A `size` block of `value` at an offset drawn per axis: an int32 in [0, 2^31 - 1)
    mod the room left on that axis, as TensorFlow's random_crop."""
    x = convert_to_tensor(value)
    size = [int(s) for s in np.asarray(getattr(size, "_value", size)).reshape(-1)]
    shape = list(x._value.shape)
    if len(size) != len(shape):
        raise InvalidArgumentError(f"random_crop: Incompatible shapes: [{len(shape)}] vs. "
                                   f"[{len(size)}] (value of shape {shape}, size {size}). Fix: "
                                   "one size per axis of value", "GreaterEqual")
    if any(s > n for s, n in zip(size, shape)):
        raise InvalidArgumentError(f"random_crop: Need value.shape >= size, got shape {shape} "
                                   f"and size {size}. Fix: each size at most that axis's "
                                   "length", "Assert")
    words = _uniform([len(shape)], 0, dt.int32.max, dtype=dt.int32, seed=seed)._value
    starts = [int(w) % (n - s + 1) for w, n, s in zip(words, shape, size)]
    return x[tuple(slice(b, b + s) for b, s in zip(starts, size))]
