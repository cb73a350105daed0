"""`tv.image.stateless_random_*`: the image draws that depend only on a `seed` pair, with
TensorFlow's numbers (its StatelessRandomGetKeyCounter and Philox, philox.py): flips,
brightness, contrast and crop, as image_ops_impl.py computes them."""
from __future__ import annotations

import numpy as np

from . import philox
from .engine.convert import convert_to_tensor
from .engine.errors import InvalidArgumentError
from .engine.ops import cast, reverse
from .engine.ops.makers import _make

__all__ = ["stateless_random_brightness", "stateless_random_contrast",
           "stateless_random_crop", "stateless_random_flip_left_right",
           "stateless_random_flip_up_down"]


def _seed(seed, op):
    value = np.asarray(getattr(seed, "_value", seed))
    if value.shape != (2,) or value.dtype.kind not in "iu":
        raise InvalidArgumentError(f"{op}: seed must be a pair of ints of shape [2], got "
                                   f"{value!r}. Fix: seed=(1, 2) [Op:{op}]", op)
    return [int(v) for v in value]


def _flip(image, seed, axis_from_end):
    """tf.image's _random_flip: one image flips where u < 0.5, a batch where round(u) is 1
    (computed as flips * flipped + (1 - flips) * image, in the image's dtype)."""
    x = convert_to_tensor(image)
    if x.shape.rank not in (3, 4):
        raise ValueError(f"'image' (shape {tuple(x.shape)}) must have either 3 or 4 "
                         "dimensions.")
    pair = _seed(seed, "StatelessRandomUniformV2")
    flipped = reverse(x, [x.shape.rank - axis_from_end])
    if x.shape.rank == 3:
        return flipped if philox.stateless_uniform([], pair) < 0.5 else x
    u = philox.stateless_uniform([int(x.shape[0])], pair)
    flips = cast(_make(np.round(u).reshape(-1, 1, 1, 1)), x.dtype)
    return flips * flipped + (1 - flips) * x


def stateless_random_flip_left_right(image, seed):
    return _flip(image, seed, 2)


def stateless_random_flip_up_down(image, seed):
    return _flip(image, seed, 3)


def stateless_random_brightness(image, max_delta, seed):
    """adjust_brightness by a delta drawn in [-max_delta, max_delta)."""
    from .image_ops import adjust_brightness
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    pair = _seed(seed, "StatelessRandomUniformV2")
    return adjust_brightness(image, _make(philox.stateless_uniform([], pair, -max_delta,
                                                                   max_delta)))


def stateless_random_contrast(image, lower, upper, seed):
    """adjust_contrast by a factor drawn in [lower, upper)."""
    from .image_color import adjust_contrast
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    pair = _seed(seed, "StatelessRandomUniformV2")
    return adjust_contrast(image, _make(philox.stateless_uniform([], pair, lower, upper)))


def stateless_random_crop(value, size, seed, name=None):
    """A `size` block of `value` at an offset drawn per axis (a word mod the room left)."""
    x = convert_to_tensor(value)
    size = [int(s) for s in np.asarray(getattr(size, "_value", size)).reshape(-1)]
    shape = list(x.shape)
    if len(size) != len(shape) or any(s > n for s, n in zip(size, shape)):
        raise InvalidArgumentError(f"stateless_random_crop: Need value.shape >= size, got "
                                   f"shape {shape} and size {size}. Fix: one size per axis, "
                                   "each at most that axis's length", "Assert")
    words = philox.stateless_uniform_int([len(shape)], _seed(seed, "StatelessRandomUniformIntV2"),
                                         0, 2 ** 31 - 1)
    starts = [int(w) % (n - s + 1) for w, n, s in zip(words, shape, size)]
    return x[tuple(slice(b, b + s) for b, s in zip(starts, size))]
