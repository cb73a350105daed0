"""Depthwise and separable convolution layers: `DepthwiseConv2D` and `SeparableConv2D`
(channels last, as Keras on a CPU).

Their weights have Keras's names and shapes: `depthwise_conv2d/depthwise_kernel:0` of shape
(kh, kw, in, depth_multiplier) and `bias:0` of shape (in·depth_multiplier,);
`separable_conv2d/depthwise_kernel:0`, `pointwise_kernel:0` of shape
(1, 1, in·depth_multiplier, filters) and `bias:0` of shape (filters,).
"""
from __future__ import annotations

import numpy as np

from ..engine.ops import add
from ..engine.ops.conv import windowed_output_size
from ..engine.ops.depthwise import depthwise_conv2d, separable_conv2d
from . import activations as _activations
from . import constraints as _constraints
from . import initializers as _initializers
from . import regularizers as _regularizers
from .layers_base import Layer, _float_input
from .layers_conv import (channels_last, check_channels, check_rank, filters_count, int_tuple,
                          padding_mode, refuse_strided_dilation)


class _DepthwiseBase(Layer):
    """What both layers share: the spatial arguments, the depthwise kernel, the bias."""

    def __init__(self, kernel_size, strides, padding, depth_multiplier, data_format,
                 dilation_rate, activation, use_bias, depthwise_initializer, bias_initializer,
                 depthwise_regularizer, bias_regularizer, activity_regularizer,
                 depthwise_constraint, bias_constraint, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        kind = type(self).__name__
        self.kernel_size = int_tuple(kernel_size, "kernel_size", kind)
        self.strides = int_tuple(strides, "strides", kind)
        self.dilation_rate = int_tuple(dilation_rate, "dilation_rate", kind)
        refuse_strided_dilation(self.strides, self.dilation_rate, kind)
        self.padding = padding_mode(padding, kind)
        channels_last(data_format, kind)
        self.data_format = "channels_last"
        if not isinstance(depth_multiplier, (int, np.integer)) or \
                isinstance(depth_multiplier, bool) or depth_multiplier <= 0:
            raise ValueError(f"{kind}: depth_multiplier must be a positive integer, got "
                             f"{depth_multiplier!r}. Fix: e.g. depth_multiplier=1")
        self.depth_multiplier = int(depth_multiplier)
        self.activation = _activations.get(activation)
        self.use_bias = bool(use_bias)
        self.depthwise_initializer = _initializers.get(depthwise_initializer)
        self.bias_initializer = _initializers.get(bias_initializer)
        self.depthwise_regularizer = _regularizers.get(depthwise_regularizer)
        self.bias_regularizer = _regularizers.get(bias_regularizer)
        self.depthwise_constraint = _constraints.get(depthwise_constraint)
        self.bias_constraint = _constraints.get(bias_constraint)
        self.depthwise_kernel = None
        self.bias = None

    def _channels(self, input_shape) -> int:
        check_rank(self, input_shape, 4)
        if input_shape[-1] is None:
            raise ValueError(f"The channel dimension of the inputs to {type(self).__name__} "
                             f"should be defined. Found None. Full input shape received: "
                             f"{input_shape}")
        return int(input_shape[-1])

    def _build_depthwise(self, channels):
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint)

    def _build_bias(self, size):
        if self.use_bias:
            self.bias = self.add_weight("bias", (size,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)

    def _input(self, inputs):
        x = _float_input(inputs, self._dtype, f"{type(self).__name__} layer {self.name!r}")
        check_rank(self, tuple(x.shape), 4)
        check_channels(self, x, self.depthwise_kernel._value.shape[2])
        return x

    def _finish(self, out):
        if self.use_bias:
            out = add(out, self.bias)
        return out if self.activation is None else self.activation(out)

    def _spatial_output(self, input_shape):
        out = []
        for size, k, s, d in zip(input_shape[1:3], self.kernel_size, self.strides,
                                 self.dilation_rate):
            out.append(windowed_output_size(size, (k - 1) * d + 1, s, self.padding))
        return (input_shape[0],) + tuple(out)


class DepthwiseConv2D(_DepthwiseBase):
    """`activation(depthwise_conv2d(inputs, depthwise_kernel) + bias)`: each input channel
    filtered by its own `depth_multiplier` filters.

    >>> import tapeviz as tv
    >>> tv.keras.layers.DepthwiseConv2D(3, depth_multiplier=2)(tv.ones((1, 5, 5, 3))).shape
    TensorShape([1, 3, 3, 6])
    """

    def __init__(self, kernel_size, strides=(1, 1), padding="valid", depth_multiplier=1,
                 data_format=None, dilation_rate=(1, 1), activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(kernel_size, strides, padding, depth_multiplier, data_format,
                         dilation_rate, activation, use_bias, depthwise_initializer,
                         bias_initializer, depthwise_regularizer, bias_regularizer,
                         activity_regularizer, depthwise_constraint, bias_constraint, **kwargs)

    def build(self, input_shape):
        channels = self._channels(input_shape)
        self._build_depthwise(channels)
        self._build_bias(channels * self.depth_multiplier)
        self.built = True

    def call(self, inputs):
        x = self._input(inputs)
        return self._finish(depthwise_conv2d(
            x, self.depthwise_kernel, (1,) + self.strides + (1,), self.padding.upper(),
            dilations=self.dilation_rate))

    def compute_output_shape(self, input_shape):
        channels = input_shape[3] and input_shape[3] * self.depth_multiplier
        return self._spatial_output(input_shape) + (channels,)


class SeparableConv2D(_DepthwiseBase):
    """`activation(separable_conv2d(inputs, depthwise_kernel, pointwise_kernel) + bias)`: a
    depthwise convolution, then a 1x1 convolution to `filters` channels.

    >>> import tapeviz as tv
    >>> tv.keras.layers.SeparableConv2D(4, 3, padding="same")(tv.ones((1, 5, 5, 3))).shape
    TensorShape([1, 5, 5, 4])
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), depth_multiplier=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", pointwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None,
                 **kwargs):
        super().__init__(kernel_size, strides, padding, depth_multiplier, data_format,
                         dilation_rate, activation, use_bias, depthwise_initializer,
                         bias_initializer, depthwise_regularizer, bias_regularizer,
                         activity_regularizer, depthwise_constraint, bias_constraint, **kwargs)
        self.filters = filters_count(filters, "SeparableConv2D")
        self.pointwise_initializer = _initializers.get(pointwise_initializer)
        self.pointwise_regularizer = _regularizers.get(pointwise_regularizer)
        self.pointwise_constraint = _constraints.get(pointwise_constraint)
        self.pointwise_kernel = None

    def build(self, input_shape):
        channels = self._channels(input_shape)
        self._build_depthwise(channels)
        self.pointwise_kernel = self.add_weight(
            "pointwise_kernel", (1, 1, channels * self.depth_multiplier, self.filters),
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint)
        self._build_bias(self.filters)
        self.built = True

    def call(self, inputs):
        x = self._input(inputs)
        return self._finish(separable_conv2d(
            x, self.depthwise_kernel, self.pointwise_kernel, (1,) + self.strides + (1,),
            self.padding.upper(), dilations=self.dilation_rate))

    def compute_output_shape(self, input_shape):
        return self._spatial_output(input_shape) + (self.filters,)
