"""Keras's random image augmentation layers (tf-keras 2): `RandomFlip`, `RandomRotation`,
`RandomZoom`, `RandomTranslation`, `RandomContrast`, `RandomBrightness`, `RandomCrop`,
`RandomHeight`, `RandomWidth`.

As in tf-keras, `call`'s `training` defaults to True: called directly, a layer transforms;
inside a model it follows the model's mode (`fit` trains, `predict`/`evaluate` do not), and
in inference it returns its input cast to the layer's dtype (RandomCrop: the largest centred
window of the target's aspect ratio, resized). The transforms are TensorFlow's (the same
matrices, ImageProjectiveTransformV3's sampling and fill modes, AdjustContrastv2's channel
means), and so are the random parameters (TensorFlow's Philox streams, philox.py) given a
`seed`, or when Python's `random` is seeded (`tf.keras.utils.set_random_seed`), from which
tf-keras seeds an unseeded layer.
"""
from __future__ import annotations

import random

import numpy as np

from ..engine.ops import cast, clip_by_value, reduce_mean, reverse, where
from ..engine.ops.makers import _make
from .. import image_transform as it
from .. import philox
from .layers_base import Layer
from .layers_image_preprocessing import _image, smart_resize


def _probing():
    from .functional import probing
    return probing()


class _RandomLayer(Layer):
    """A layer draws as tf-keras's does: from its own tf.random.Generator.from_seed(seed)
    (philox.py), directly or through make_seeds() and a stateless draw. Without a `seed`,
    tf-keras draws one at the first random call with random.randint(1, 10**9), from the
    generator `set_random_seed` made, else from Python's global one: so is it here, and a
    program that seeds Python's `random` gets TensorFlow's numbers."""

    def __init__(self, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.seed = seed
        self._generator = philox.Generator(seed) if seed is not None else None

    def _philox(self):
        if self._generator is None:
            from .initializers import seed_generator
            source = getattr(seed_generator, "generator", None) or random
            self._generator = philox.Generator(source.randint(1, int(1e9)))
        return self._generator

    def _uniform(self, shape, low, high):
        """Generator.uniform(shape, low, high), float32."""
        if _probing():
            return self._placeholder(shape, low, high)
        return self._philox().uniform(shape, low, high)

    def _stateless_uniform(self, shape, low, high):
        """A stateless uniform draw seeded by the generator's make_seeds()[:, 0]."""
        if _probing():
            return self._placeholder(shape, low, high)
        return philox.stateless_uniform(shape, self._philox().make_seed(), low, high)

    def _placeholder(self, shape, low, high):
        # a call on a tf.keras.Input's stand-ins: tf-keras traces its random ops into a graph
        # then, which makes the generator (drawing an unseeded layer's seed) but runs no draw
        self._philox()
        return np.full(shape, (np.float32(low) + np.float32(high)) / 2, np.float32)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "seed": self.seed}


def _bounds(factor, name, layer):
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(f"{layer}: `{name}` must be a number or a pair (lower, upper), "
                             f"got {factor!r}")
        lower, upper = float(factor[0]), float(factor[1])
    else:
        lower, upper = -float(factor), float(factor)
    if upper < lower:
        raise ValueError(f"{layer}: `{name}` cannot have upper bound less than lower bound, "
                         f"got {factor!r}. Fix: (lower, upper) with lower <= upper")
    return lower, upper


def _check_modes(fill_mode, interpolation):
    if fill_mode not in it.FILL_MODES:
        raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Only `reflect`, `wrap`, "
                                  "`constant` and `nearest` are supported.")
    if interpolation not in it.INTERPOLATIONS:
        raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Only `nearest` "
                                  "and `bilinear` are supported.")


class RandomFlip(_RandomLayer):
    def __init__(self, mode="horizontal_and_vertical", seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        if mode not in ("horizontal", "vertical", "horizontal_and_vertical"):
            raise ValueError(f"RandomFlip layer {self.name} received an unknown mode argument "
                             f"{mode}")
        self.mode = mode

    def call(self, inputs, training=True):
        x = _image(inputs, self._dtype)
        if not training:
            return x
        batched = x.shape.rank == 4
        for wanted, axis in (("horizontal", -2), ("vertical", -3)):
            if wanted in self.mode:
                # (tf.image's stateless flips: a batch flips where round(u) is 1, one image
                # where u < 0.5)
                u = self._stateless_uniform([int(x.shape[0])] if batched else [], 0.0, 1.0)
                flips = np.round(u) == 1 if batched else u < 0.5
                x = where(_make(np.asarray(flips).reshape((-1, 1, 1, 1) if batched else ())),
                          reverse(x, [x.shape.rank + axis]), x)
        return x

    def get_config(self) -> dict:
        return {**super().get_config(), "mode": self.mode}


class _Transforming(_RandomLayer):
    """Layers that sample the image through a projective transform per image."""

    def __init__(self, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, **kwargs):
        super().__init__(seed=seed, **kwargs)
        _check_modes(fill_mode, interpolation)
        self.fill_mode, self.interpolation = fill_mode, interpolation
        self.fill_value = fill_value

    def call(self, inputs, training=True):
        x = _image(inputs, self._dtype)
        if not training:
            return x
        batch = x if x.shape.rank == 4 else x[None]
        n, height, width = (int(d) for d in batch.shape[:3])
        out = it.transform(batch, self._matrices(n, height, width), self.fill_mode,
                           self.fill_value, self.interpolation)
        return out if x.shape.rank == 4 else out[0]

    def get_config(self) -> dict:
        return {**super().get_config(), "fill_mode": self.fill_mode,
                "fill_value": self.fill_value, "interpolation": self.interpolation}


class RandomRotation(_Transforming):
    """Rotates by an angle drawn in [lower, upper] · 2π (counter-clockwise positive)."""

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, **kwargs)
        self.factor = factor
        self.lower, self.upper = _bounds(factor, "factor", "RandomRotation")

    def _matrices(self, n, height, width):
        two_pi = 2.0 * np.pi
        angles = self._uniform([n], self.lower * two_pi, self.upper * two_pi)
        return it.rotation_matrix(angles, height, width)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor}


class RandomTranslation(_Transforming):
    """Shifts by fractions of the height and width drawn in [lower, upper]."""

    def __init__(self, height_factor, width_factor, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = _bounds(height_factor, "height_factor",
                                                       "RandomTranslation")
        self.width_lower, self.width_upper = _bounds(width_factor, "width_factor",
                                                     "RandomTranslation")
        if max(abs(self.height_lower), abs(self.height_upper), abs(self.width_lower),
               abs(self.width_upper)) > 1.0:
            raise ValueError(f"RandomTranslation: factors must have values between [-1, 1]. "
                             f"Received: height_factor={height_factor}, "
                             f"width_factor={width_factor}")

    def _matrices(self, n, height, width):
        dy = self._uniform([n], self.height_lower, self.height_upper) * np.float32(height)
        dx = self._uniform([n], self.width_lower, self.width_upper) * np.float32(width)
        return it.translation_matrix(dx, dy)

    def get_config(self) -> dict:
        return {**super().get_config(), "height_factor": self.height_factor,
                "width_factor": self.width_factor}


class RandomZoom(_Transforming):
    """Zooms by 1 + a factor drawn in [lower, upper] (negative: zoom in); the width by the
    height's factor unless `width_factor` is given."""

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = _bounds(height_factor, "height_factor",
                                                       "RandomZoom")
        self.width_lower, self.width_upper = (None, None) if width_factor is None else \
            _bounds(width_factor, "width_factor", "RandomZoom")
        if min(v for v in (self.height_lower, self.height_upper, self.width_lower,
                           self.width_upper) if v is not None) < -1.0:
            raise ValueError(f"RandomZoom: factors must have values larger than -1. Received: "
                             f"height_factor={height_factor}, width_factor={width_factor}")

    def _matrices(self, n, height, width):
        zy = self._uniform([n], 1.0 + self.height_lower, 1.0 + self.height_upper)
        zx = zy if self.width_factor is None else \
            self._uniform([n], 1.0 + self.width_lower, 1.0 + self.width_upper)
        return it.zoom_matrix(zx, zy, height, width)

    def get_config(self) -> dict:
        return {**super().get_config(), "height_factor": self.height_factor,
                "width_factor": self.width_factor}


class RandomContrast(_RandomLayer):
    """(x - channel mean) · factor + channel mean, factor drawn in [1 - lower, 1 + upper]
    (one per call, as TensorFlow's random_contrast), clipped to [0, 255]."""

    def __init__(self, factor, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.factor = factor
        lower, upper = (factor if isinstance(factor, (tuple, list)) else (factor, factor))
        if lower < 0.0 or upper < 0.0 or lower > 1.0:
            raise ValueError(f"`factor` argument cannot have negative values or values greater "
                             f"than 1.Received: factor={factor}")
        self.lower, self.upper = float(lower), float(upper)

    def call(self, inputs, training=True):
        x = _image(inputs, self._dtype)
        if not training:
            return x
        if not 1.0 - self.lower < 1.0 + self.upper:       # (TensorFlow's random_contrast)
            raise ValueError(f"RandomContrast: upper must be > lower, got the range "
                             f"[{1.0 - self.lower}, {1.0 + self.upper}] from factor="
                             f"{self.factor}. Fix: a factor above 0")
        factor = self._stateless_uniform([], 1.0 - self.lower, 1.0 + self.upper)
        mean = reduce_mean(x, axis=[-3, -2], keepdims=True)
        return clip_by_value((x - mean) * cast(factor, x.dtype) + mean, 0, 255)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor}


class RandomBrightness(_RandomLayer):
    """Adds (drawn factor) · (value range width) to each image, clipped to `value_range`."""

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        error = ("The `factor` argument should be a number (or a list of two numbers) in the "
                 "range [-1.0, 1.0]. ")
        if isinstance(factor, (tuple, list)):
            if len(factor) != 2 or any(abs(f) > 1.0 for f in factor):
                raise ValueError(error + f"Got {factor}")
            self._factor = sorted(float(f) for f in factor)
        elif isinstance(factor, (int, float)) and not isinstance(factor, bool):
            if abs(factor) > 1.0:
                raise ValueError(error + f"Got {factor}")
            self._factor = [-abs(float(factor)), abs(float(factor))]
        else:
            raise ValueError(error + f"Got {factor}")
        if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
            raise ValueError("The `value_range` argument should be a list of two numbers. "
                             f"Got {value_range}")
        self._value_range = sorted(value_range)

    def call(self, inputs, training=True):
        x = _image(inputs, self._dtype)
        if not training:
            return x
        shape = [int(x.shape[0]), 1, 1, 1] if x.shape.rank == 4 else [1, 1, 1]
        low, high = self._value_range
        delta = self._uniform(shape, *self._factor) * np.float32(high - low)
        return clip_by_value(x + cast(_make(delta), x.dtype), low, high)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self._factor,
                "value_range": self._value_range}


class RandomCrop(_RandomLayer):
    """A `height` x `width` window at a drawn offset (the same for the whole batch); in
    inference, or for a smaller image, the centred window of that aspect ratio, resized."""

    def __init__(self, height, width, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.height, self.width = int(height), int(width)

    def call(self, inputs, training=True):
        x = _image(inputs, self._dtype)
        h_diff = int(x.shape[-3]) - self.height
        w_diff = int(x.shape[-2]) - self.width
        if training and h_diff >= 0 and w_diff >= 0:
            draws = self._philox().uniform_int([2], 0, 2 ** 31 - 1) if not _probing() \
                else [0, 0]                                  # (then mod, as Keras)
            top, left = int(draws[0]) % (h_diff + 1), int(draws[1]) % (w_diff + 1)
            return x[..., top:top + self.height, left:left + self.width, :]
        out = smart_resize(x, [self.height, self.width])
        return out if out.dtype == self._dtype else cast(out, self._dtype)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-3]) + (self.height, self.width, input_shape[-1])

    def get_config(self) -> dict:
        return {**super().get_config(), "height": self.height, "width": self.width}


_RESIZE_METHODS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5",
                   "gaussian", "mitchellcubic")


class _RandomSide(_RandomLayer):
    """RandomHeight / RandomWidth: one side resized by 1 + a factor drawn in [lower, upper]
    (one draw per call); in inference the input as it is (its dtype kept)."""
    axis = -3

    def __init__(self, factor, interpolation="bilinear", seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.factor = factor
        self.lower, self.upper = _bounds(factor, "factor", type(self).__name__)
        if self.lower < -1.0 or self.upper < -1.0:
            raise ValueError(f"`factor` argument must have values larger than -1. Received: "
                             f"factor={factor}")
        if interpolation not in _RESIZE_METHODS:
            raise NotImplementedError(f"Value not recognized for `interpolation`: "
                                      f"{interpolation}. Supported values are: "
                                      f"{set(_RESIZE_METHODS)}")
        self.interpolation = interpolation

    def call(self, inputs, training=True):
        from ..engine.convert import convert_to_tensor
        from ..image_resize import resize
        x = convert_to_tensor(inputs)
        if not training:
            return x
        factor = self._uniform([], 1.0 + self.lower, 1.0 + self.upper)
        size = [int(x.shape[-3]), int(x.shape[-2])]
        side = 0 if self.axis == -3 else 1
        size[side] = int(factor * np.float32(size[side]))
        out = resize(x, size, method=self.interpolation)
        return out if out.dtype == self._dtype else cast(out, self._dtype)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        shape[self.axis] = None
        return tuple(shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor,
                "interpolation": self.interpolation}


class RandomHeight(_RandomSide):
    axis = -3


class RandomWidth(_RandomSide):
    axis = -2
