"""`Rescaling`: x · scale + offset; `Normalization`: Keras's feature-wise standardisation layer, `(x - mean) / sqrt(variance)`
with the statistics set by `adapt(data)` or given, kept as non-trainable weights as Keras
keeps them (`mean`, `variance`, `count`)."""
from __future__ import annotations

import numpy as np

from ..engine.convert import convert_to_tensor
from ..engine.ops import cast, maximum, reshape, sqrt
from ..engine.tensor import _Operand
from . import backend as _backend
from .layers_base import Layer, _float_input


class Normalization(Layer):
    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        if axis is None:
            axis = ()
        self.axis = (axis,) if isinstance(axis, int) else tuple(axis)
        if (mean is None) != (variance is None):
            raise ValueError(f"Normalization: when setting values directly, both `mean` and "
                             f"`variance` must be set. Got mean: {mean} and variance: "
                             f"{variance}. Fix: pass both, or neither and call adapt(data)")
        self.input_mean, self.input_variance, self.invert = mean, variance, bool(invert)

    def build(self, input_shape):
        rank = len(input_shape)
        keep = tuple(a % rank for a in self.axis)
        for a in keep:
            if input_shape[a] is None:
                raise ValueError(f"Normalization: all `axis` values to be kept must have known "
                                 f"shape. Got axis: {self.axis}, input shape: "
                                 f"{tuple(input_shape)}, with unknown axis at index {a}")
        self._reduce = tuple(a for a in range(rank) if a not in keep)
        self._broadcast = [int(input_shape[a]) if a in keep else 1 for a in range(rank)]
        kept_shape = tuple(int(input_shape[a]) for a in keep)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight("mean", kept_shape, initializer="zeros",
                                              trainable=False)
            self.adapt_variance = self.add_weight("variance", kept_shape, initializer="ones",
                                                  trainable=False)
            self.count = self.add_weight("count", (), dtype="int64", initializer="zeros",
                                         trainable=False)
        self.built = True

    def adapt(self, data, batch_size=None, steps=None):
        """Set the mean and variance (over every axis but `axis`) from `data`: an array, a
        tensor or a `tf.data.Dataset` of batches."""
        from ..data import Dataset
        if isinstance(data, Dataset):
            data = np.concatenate([np.asarray(convert_to_tensor(b)._value) for b in data])
        values = np.asarray(data._value if isinstance(data, _Operand) else data, np.float32)
        if not self.built:
            self._maybe_build(values.shape)
            if self._batch_input_shape is None:
                # as Keras: a Sequential model that starts with an adapted layer is built
                self._batch_input_shape = (None,) + tuple(values.shape[1:])
        if self.input_mean is not None:
            raise ValueError("Normalization: cannot adapt a layer given `mean` and `variance`.")
        self.adapt_mean.assign(values.mean(axis=self._reduce, dtype=np.float32))
        self.adapt_variance.assign(values.var(axis=self._reduce, dtype=np.float32))
        self.count.assign(np.int64(values.size // max(1, self.adapt_mean._value.size)))

    @property
    def mean(self):
        value = self.input_mean if self.input_mean is not None else self.adapt_mean
        return reshape(convert_to_tensor(value, "float32"), self._broadcast)

    @property
    def variance(self):
        value = self.input_variance if self.input_variance is not None else self.adapt_variance
        return reshape(convert_to_tensor(value, "float32"), self._broadcast)

    def call(self, inputs):
        x = _float_input(inputs, self._dtype, f"Normalization layer {self.name!r}")
        scale = maximum(sqrt(self.variance), _backend.epsilon())
        if self.invert:
            return self.mean + x * scale
        return (x - self.mean) / scale


class Rescaling(Layer):
    """`Rescaling(scale, offset=0.0)`: inputs cast to the layer's float dtype, times `scale`,
    plus `offset` (`Rescaling(1.0 / 255)` maps pixels to [0, 1])."""

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset

    def call(self, inputs):
        x = convert_to_tensor(inputs)
        if x._value.dtype != self._dtype.np:
            x = cast(x, self._dtype)
        return x * cast(self.scale, self._dtype) + cast(self.offset, self._dtype)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "scale": self.scale, "offset": self.offset}
