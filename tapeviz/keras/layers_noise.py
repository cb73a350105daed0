"""Keras's regularization layers that add noise only when training: `GaussianNoise`,
`GaussianDropout`, `AlphaDropout`, `SpatialDropout1D`/`2D`/`3D` (one dropout draw per channel,
kept or dropped over every step or pixel); and `ActivityRegularization`. Called with `training=False` or None (inference, `predict`) each
returns its input unchanged, as Keras's; the random draws come from tapeviz's generator, so
their values are not TensorFlow's."""
from __future__ import annotations

import numpy as np

from ..engine.convert import convert_to_tensor
from .layers_base import Layer
from .layers_core import Dropout


def _rate(rate, layer):
    if isinstance(rate, (str, bytes, bool)) or not isinstance(rate, (int, float, np.number)):
        raise TypeError(f"{layer}: `rate` must be a float between 0 and 1, got {rate!r}. "
                        f"Fix: e.g. {layer}(0.2)")
    return float(rate)


class GaussianNoise(Layer):
    """`inputs + N(0, stddev²)` noise when training."""

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.stddev, self.seed = float(stddev), seed

    def call(self, inputs, training=None):
        x = convert_to_tensor(inputs)
        if not training:
            return x
        from ..random import normal
        return x + normal(tuple(x.shape), 0.0, self.stddev, dtype=x.dtype, seed=self.seed)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "stddev": self.stddev, "seed": self.seed}


class GaussianDropout(Layer):
    """`inputs · N(1, rate / (1 - rate))` noise when training (0 < rate < 1)."""

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.rate, self.seed = _rate(rate, "GaussianDropout"), seed

    def call(self, inputs, training=None):
        x = convert_to_tensor(inputs)
        if not training or not 0 < self.rate < 1:
            return x
        from ..random import normal
        stddev = np.sqrt(self.rate / (1.0 - self.rate))
        return x * normal(tuple(x.shape), 1.0, stddev, dtype=x.dtype, seed=self.seed)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}


class _SpatialDropout(Dropout):
    rank = 3

    def __init__(self, rate, data_format=None, **kwargs):
        super().__init__(_rate(rate, type(self).__name__), **kwargs)
        if data_format not in (None, "channels_last", "channels_first"):
            raise ValueError(f'`data_format` must be "channels_last" or "channels_first". '
                             f"Received: data_format={data_format}.")
        self.data_format = data_format or "channels_last"

    def call(self, inputs, training=None):
        x = convert_to_tensor(inputs)
        if x._value.ndim != self.rank:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: '
                             f"expected ndim={self.rank}, found ndim={x._value.ndim}. Full "
                             f"shape received: {tuple(x.shape)}")
        shape = tuple(x.shape)
        ones = (1,) * (self.rank - 2)
        self.noise_shape = (shape[0],) + ones + (shape[-1],) \
            if self.data_format == "channels_last" else shape[:2] + ones
        return super().call(x, training=training)

    def get_config(self) -> dict:
        config = {**super().get_config(), "rate": self.rate}
        if self.rank > 3:
            config["data_format"] = self.data_format
        return config


class SpatialDropout1D(_SpatialDropout):
    """Dropout of whole channels of a (batch, steps, channels) input."""
    rank = 3

    def __init__(self, rate, **kwargs):
        super().__init__(rate, **kwargs)


class SpatialDropout2D(_SpatialDropout):
    """Dropout of whole feature maps of a (batch, rows, cols, channels) input."""
    rank = 4


class SpatialDropout3D(_SpatialDropout):
    """Dropout of whole feature volumes of a 5-D input."""
    rank = 5


class AlphaDropout(Layer):
    """Dropout that keeps a SELU network's mean and variance when training: dropped units
    are set to SELU's negative saturation -αλ, then all are scaled by a and shifted by b."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.rate, self.noise_shape, self.seed = _rate(rate, "AlphaDropout"), noise_shape, seed

    def call(self, inputs, training=None):
        x = convert_to_tensor(inputs)
        if not training or not 0 < self.rate < 1:
            return x
        from ..engine.ops import cast
        from ..random import uniform
        rate = self.rate
        alpha_p = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946
        shape = tuple(self.noise_shape) if self.noise_shape else tuple(x.shape)
        kept = cast(uniform(shape, seed=self.seed) >= rate, x.dtype)
        a = ((1 - rate) * (1 + rate * alpha_p ** 2)) ** -0.5
        b = -a * alpha_p * rate
        return a * (x * kept + alpha_p * (1 - kept)) + b

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}


class ActivityRegularization(Layer):
    """Passes its input through and adds `l1·Σ|x| + l2·Σx²` (over the batch size) to the
    layer's losses."""

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        from . import regularizers
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.supports_masking = True
        self.l1, self.l2 = l1, l2

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self) -> dict:
        config = {k: v for k, v in super().get_config().items() if k != "activity_regularizer"}
        return {**config, "l1": self.l1, "l2": self.l2}
