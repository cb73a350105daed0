"""Pooling layers: `MaxPooling2D`, `AveragePooling2D` (windows, `strides` defaulting to the
window), `GlobalAveragePooling2D`, `GlobalMaxPooling2D` (over height and width) and
`GlobalAveragePooling1D`, `GlobalMaxPooling1D` (over the steps of a sequence)."""
from __future__ import annotations

from ..engine.convert import convert_to_tensor
from ..engine.ops import reduce_max, reduce_mean
from ..engine.ops.pooling import avg_pool2d, max_pool2d
from .layers_base import Layer
from .layers_conv import channels_last, check_rank4, int_pair, padding_mode


class _Pooling2D(Layer):
    _pool = None

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(**kwargs)
        kind = type(self).__name__
        self.pool_size = int_pair(pool_size, "pool_size", kind)
        self.strides = self.pool_size if strides is None else int_pair(strides, "strides", kind)
        self.padding = padding_mode(padding, kind).lower()
        channels_last(data_format, kind)
        self.data_format = "channels_last"

    def call(self, inputs):
        x = convert_to_tensor(inputs)
        check_rank4(self, tuple(x.shape))
        return type(self)._pool(x, self.pool_size, self.strides, self.padding.upper())

    def compute_output_shape(self, input_shape):
        out = [input_shape[0]]
        for size, k, s in zip(input_shape[1:3], self.pool_size, self.strides):
            out.append(None if size is None else -(-size // s) if self.padding == "same"
                       else (size - k) // s + 1)
        return tuple(out) + (input_shape[3],)


class MaxPooling2D(_Pooling2D):
    """The max of each `pool_size` window (`tv.nn.max_pool2d`).

    >>> import tapeviz as tv
    >>> tv.keras.layers.MaxPooling2D()(tv.ones((1, 4, 6, 3))).shape
    TensorShape([1, 2, 3, 3])
    """
    _pool = staticmethod(max_pool2d)


class AveragePooling2D(_Pooling2D):
    """The mean of each `pool_size` window (`tv.nn.avg_pool2d`)."""
    _pool = staticmethod(avg_pool2d)


class _GlobalPooling(Layer):
    _reduce = None
    _rank = 4            # the axes between the batch and the channels are reduced

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        channels_last(data_format, type(self).__name__)
        self.data_format = "channels_last"
        self.keepdims = bool(keepdims)

    def call(self, inputs):
        x = convert_to_tensor(inputs)
        if x._value.ndim != self._rank:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: '
                             f"expected ndim={self._rank}, found ndim={x._value.ndim}. Full "
                             f"shape received: {tuple(x.shape)}")
        axes = list(range(1, self._rank - 1))
        return type(self)._reduce(x, axis=axes, keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        kept = (1,) * (self._rank - 2) if self.keepdims else ()
        return (input_shape[0],) + kept + (input_shape[-1],)


class _GlobalPooling2D(_GlobalPooling):
    _rank = 4


class _GlobalPooling1D(_GlobalPooling):
    _rank = 3


class GlobalAveragePooling1D(_GlobalPooling1D):
    """The mean over the steps: (batch, steps, features) -> (batch, features)."""
    _reduce = staticmethod(reduce_mean)


class GlobalMaxPooling1D(_GlobalPooling1D):
    """The max over the steps: (batch, steps, features) -> (batch, features)."""
    _reduce = staticmethod(reduce_max)


class GlobalAveragePooling2D(_GlobalPooling2D):
    """The mean over height and width: (batch, h, w, c) -> (batch, c)."""
    _reduce = staticmethod(reduce_mean)


class GlobalMaxPooling2D(_GlobalPooling2D):
    """The max over height and width: (batch, h, w, c) -> (batch, c)."""
    _reduce = staticmethod(reduce_max)
