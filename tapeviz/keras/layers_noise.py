"""Keras's regularization layers that add noise only when training: `GaussianNoise`,
`GaussianDropout`, `SpatialDropout1D`/`2D`/`3D` (one dropout draw per channel, kept or dropped
over every step or pixel). Called with `training=False` or None (inference, `predict`) each
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
