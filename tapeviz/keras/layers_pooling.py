"""Pooling layers: `MaxPooling2D`, `AveragePooling2D`, `MaxPooling1D`, `AveragePooling1D`
(windows, `strides` defaulting to the window), `GlobalAveragePooling2D`, `GlobalMaxPooling2D`
(over height and width) and `GlobalAveragePooling1D`, `GlobalMaxPooling1D` (over the steps of
a sequence)."""
from __future__ import annotations

from ..engine.convert import convert_to_tensor
from ..engine.ops import reduce_max, reduce_mean
from ..engine.ops.conv import windowed_output_size
from ..engine.ops.pooling import avg_pool, avg_pool2d, max_pool, max_pool2d
from .layers_base import Layer
from .layers_conv import channels_last, check_rank, int_tuple, padding_mode


class _Pooling(Layer):
    _pool = None
    rank = 2             # spatial axes

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        kind = type(self).__name__
        self.pool_size = int_tuple(pool_size, "pool_size", kind, self.rank)
        self.strides = self.pool_size if strides is None else int_tuple(strides, "strides", kind,
                                                                        self.rank)
        self.padding = padding_mode(padding, kind)
        channels_last(data_format, kind)
        self.data_format = "channels_last"

    def call(self, inputs):
        x = convert_to_tensor(inputs)
        check_rank(self, tuple(x.shape), self.rank + 2)
        # (1-D windows go to tv.nn.max_pool / avg_pool as their rank-3 form)
        size, steps = (self.pool_size, self.strides) if self.rank == 2 else \
            (self.pool_size[0], self.strides[0])
        return type(self)._pool(x, size, steps, self.padding.upper())

    def compute_output_shape(self, input_shape):
        out = [input_shape[0]]
        for size, k, s in zip(input_shape[1:-1], self.pool_size, self.strides):
            out.append(windowed_output_size(size, k, s, self.padding))
        return tuple(out) + (input_shape[-1],)


class MaxPooling2D(_Pooling):
    """The max of each `pool_size` window (`tv.nn.max_pool2d`).

    >>> import tapeviz as tv
    >>> tv.keras.layers.MaxPooling2D()(tv.ones((1, 4, 6, 3))).shape
    TensorShape([1, 2, 3, 3])
    """
    _pool = staticmethod(max_pool2d)


class AveragePooling2D(_Pooling):
    """The mean of each `pool_size` window (`tv.nn.avg_pool2d`)."""
    _pool = staticmethod(avg_pool2d)


class MaxPooling1D(_Pooling):
    """The max of each `pool_size` window of steps: (batch, steps, features)."""
    _pool = staticmethod(max_pool)
    rank = 1


class AveragePooling1D(_Pooling):
    """The mean of each `pool_size` window of steps: (batch, steps, features)."""
    _pool = staticmethod(avg_pool)
    rank = 1


class _GlobalPooling(Layer):
    _reduce = None
    _rank = 4            # the axes between the batch and the channels are reduced

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        if data_format != "channels_first":     # (a global mean needs no NCHW kernel)
            channels_last(data_format, type(self).__name__)
        self.data_format = data_format or "channels_last"
        self.keepdims = bool(keepdims)

    def _axes(self):
        """The axes reduced: those between the batch and the channels."""
        first = 1 if self.data_format == "channels_last" else 2
        return list(range(first, first + self._rank - 2))

    def call(self, inputs):
        x = convert_to_tensor(inputs)
        if x._value.ndim != self._rank:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: '
                             f"expected ndim={self._rank}, found ndim={x._value.ndim}. Full "
                             f"shape received: {tuple(x.shape)}")
        return type(self)._reduce(x, axis=self._axes(), keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        axes = self._axes()
        return tuple(1 if i in axes else d for i, d in enumerate(input_shape)
                     if self.keepdims or i not in axes)


class _GlobalPooling2D(_GlobalPooling):
    _rank = 4


class _GlobalPooling1D(_GlobalPooling):
    _rank = 3


class GlobalAveragePooling1D(_GlobalPooling1D):
    """The mean over the steps: (batch, steps, features) -> (batch, features); with a mask
    (from `Embedding(mask_zero=True)`), the mean over the unmasked steps, as Keras's."""
    _reduce = staticmethod(reduce_mean)

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        if self.data_format == "channels_first":
            raise ValueError(f"GlobalAveragePooling1D {self.name!r}: a mask with "
                             "data_format='channels_first' is not supported by tapeviz. Fix: "
                             "data_format='channels_last'")
        from ..engine.ops import cast, expand_dims, reduce_sum
        x = convert_to_tensor(inputs)
        weights = expand_dims(cast(mask, x.dtype), 2)
        return reduce_sum(x * weights, axis=1, keepdims=self.keepdims) / \
            reduce_sum(weights, axis=1, keepdims=self.keepdims)

    def compute_mask(self, inputs, mask=None):
        return None                      # (the steps are gone: no mask to hand on)


class GlobalMaxPooling1D(_GlobalPooling1D):
    """The max over the steps: (batch, steps, features) -> (batch, features)."""
    _reduce = staticmethod(reduce_max)


class GlobalAveragePooling2D(_GlobalPooling2D):
    """The mean over height and width: (batch, h, w, c) -> (batch, c)."""
    _reduce = staticmethod(reduce_mean)


class GlobalMaxPooling2D(_GlobalPooling2D):
    """The max over height and width: (batch, h, w, c) -> (batch, c)."""
    _reduce = staticmethod(reduce_max)
