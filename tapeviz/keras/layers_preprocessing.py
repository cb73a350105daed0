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


_ENCODINGS = ("count", "one_hot", "multi_hot")


class CategoryEncoding(Layer):
    """Integer ids in [0, num_tokens) as vectors of length `num_tokens`: `"one_hot"` (one row
    per id), `"multi_hot"` (one row per sample, 1 where an id occurs) or `"count"` (how often
    each id occurs, or the sum of `count_weights`). As tf-keras: a rank-1 input is one sample
    for multi_hot/count and one id per row for one_hot; outputs of rank above 2 are refused."""

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of tokens "
                             "is not known beforehand, use the IntegerLookup layer instead.")
        if num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        if output_mode not in _ENCODINGS:
            raise ValueError(f"Unkown value for `output_mode` argument of layer "
                             f"CategoryEncoding. Allowed values are: or one of the following "
                             f"values: {_ENCODINGS}. Received: {output_mode}")
        if sparse:
            raise NotImplementedError("CategoryEncoding: sparse=True is not supported by "
                                      "tapeviz (no SparseTensor). Fix: sparse=False")
        self.num_tokens, self.output_mode, self.sparse = int(num_tokens), output_mode, False

    def call(self, inputs, count_weights=None):
        from ..engine.errors import InvalidArgumentError
        ids = np.asarray(convert_to_tensor(inputs).numpy()).astype(np.int64)
        if ids.ndim == 0:
            ids = ids[None]
        if self.output_mode == "one_hot" and ids.shape[-1] != 1:
            ids = ids[..., None]
        if ids.ndim > 2:
            raise ValueError(f"When output_mode is not `'int'`, maximum supported output rank "
                             f"is 2. Received output_mode {self.output_mode} and input shape "
                             f"{tuple(convert_to_tensor(inputs).shape)}, which would result in "
                             f"output rank {ids.ndim}.")
        if ids.size and (ids.min() < 0 or ids.max() >= self.num_tokens):
            raise InvalidArgumentError(
                f"Input values must be in the range 0 <= values < num_tokens with "
                f"num_tokens={self.num_tokens} (layer {self.name!r}); got values from "
                f"{ids.min()} to {ids.max()}. Fix: num_tokens above the largest id",
                "Assert")
        rows = ids.reshape(-1, ids.shape[-1])
        out = np.zeros((len(rows), self.num_tokens), self._dtype.np)
        weights = None if count_weights is None else np.asarray(
            convert_to_tensor(count_weights).numpy(), self._dtype.np).reshape(rows.shape)
        row_index = np.repeat(np.arange(len(rows)), rows.shape[1])
        if self.output_mode == "count":
            np.add.at(out, (row_index, rows.ravel()),
                      1 if weights is None else weights.ravel())
        else:
            out[row_index, rows.ravel()] = 1
        return convert_to_tensor(out if ids.ndim == 2 else out[0])

    def compute_output_shape(self, input_shape):
        if not input_shape:
            return (self.num_tokens,)
        if self.output_mode == "one_hot" and input_shape[-1] != 1:
            return tuple(input_shape) + (self.num_tokens,)
        return tuple(input_shape[:-1]) + (self.num_tokens,)

    def get_config(self) -> dict:
        return {**super().get_config(), "num_tokens": self.num_tokens,
                "output_mode": self.output_mode, "sparse": self.sparse}
