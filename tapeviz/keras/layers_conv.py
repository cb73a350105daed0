"""Convolution layers: `Conv1D`, `Conv2D`, `Conv2DTranspose` and `Conv1DTranspose` (channels
last, as Keras on a CPU).

Their kernels have Keras's shapes and names: `conv2d/kernel:0` of shape (kh, kw, in, filters)
for `Conv2D`, (k, in, filters) for `Conv1D`, (kh, kw, filters, in) for `Conv2DTranspose`,
(k, filters, in) for `Conv1DTranspose`, then `bias:0` of shape (filters,).
"""
from __future__ import annotations

import numpy as np

from ..engine.ops import add, concat, expand_dims, reshape, split, squeeze
from ..engine.ops.conv import conv1d, conv2d, conv2d_transpose, windowed_output_size
from . import activations as _activations
from . import initializers as _initializers
from . import constraints as _constraints
from . import regularizers as _regularizers
from .layers_base import Layer, _float_input


def int_tuple(value, what: str, layer: str, n: int = 2) -> tuple:
    """Keras's `kernel_size=3` or `(3, 3)` as (3, 3) (n entries, one per spatial axis)."""
    values = (value,) * n if isinstance(value, (int, np.integer)) else tuple(value)
    if len(values) != n or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                                   and v > 0 for v in values):
        raise ValueError(f"{layer}: The `{what}` argument must be a tuple of {n} positive "
                         f"integers. Received: {what}={value!r}. Fix: e.g. {what}=3 or "
                         f"{what}={(3,) * n}")
    return tuple(int(v) for v in values)


def padding_mode(padding, layer: str, causal_ok=False) -> str:
    """Keras's lower-case 'valid' / 'same' (either case accepted; 'causal' for Conv1D)."""
    mode = padding.lower() if isinstance(padding, str) else padding
    if mode not in ("valid", "same") + (("causal",) if causal_ok else ()):
        raise ValueError(f"{layer}: The `padding` argument must be a list/tuple or one of "
                         f'"valid", "same" (or "causal", only for `Conv1D). Received: '
                         f"{padding!r}. Fix: padding='same' keeps the spatial size")
    return mode


def filters_count(filters, layer: str) -> int:
    """A convolution's `filters` (its output channels): a positive int, as Keras checks."""
    if not isinstance(filters, (int, np.integer)) or isinstance(filters, bool) or filters <= 0:
        raise ValueError(f"{layer}: Invalid value for argument `filters`. Expected a strictly "
                         f"positive value. Received filters={filters!r}. Fix: the number of "
                         "output channels, e.g. filters=16")
    return int(filters)


def refuse_strided_dilation(strides, dilation_rate, layer: str):
    """Keras's 2-D convolutions take strides or a dilation rate above 1, not both."""
    if max(strides) > 1 and max(dilation_rate) > 1:
        raise ValueError(f"{layer}: `strides > 1` not supported in conjunction with "
                         f"`dilation_rate > 1`. Received: strides={strides} and "
                         f"dilation_rate={dilation_rate}. Fix: one of them 1")


def check_channels(layer, x, want: int):
    """Keras's error when ``x`` has not the channels (last axis) ``layer`` was built for."""
    if x._value.shape[-1] != want:
        raise ValueError(f"Input 0 of layer {layer.name!r} is incompatible with the layer: "
                         f"expected axis -1 of input shape to have value {want}, but "
                         f"received input with shape {tuple(x.shape)}. Fix: this layer was "
                         f"built for inputs with {want} channels")


def channels_last(data_format, layer: str):
    if data_format not in (None, "channels_last"):
        raise ValueError(f"{layer}: data_format={data_format!r} is not supported by tapeviz, "
                         "which computes convolutions channels last (NHWC), as TensorFlow on "
                         "a CPU. Fix: data_format='channels_last' with inputs of shape "
                         "(batch, height, width, channels)")


def check_rank(layer, shape, rank=4, at_least=False):
    """Keras's input check: exactly `rank` axes, or (`at_least`, as a convolution) at least
    that many (the extra leading axes are batch axes)."""
    if shape is not None and (len(shape) < rank if at_least else len(shape) != rank):
        what = "(batch, height, width, channels)" if rank == 4 else "(batch, steps, channels)"
        raise ValueError(f'Input 0 of layer "{layer.name}" is incompatible with the layer: '
                         f"expected {'min_' if at_least else ''}ndim={rank}, found "
                         f"ndim={len(shape)}. Full shape received: {tuple(shape)}. Fix: "
                         f"inputs of shape {what}, e.g. tv.expand_dims(x, -1) for one channel")


class _Conv(Layer):
    """What `Conv1D`, `Conv2D` and `Conv2DTranspose` share: arguments, the kernel, the bias."""
    rank = 2             # spatial axes

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        kind = type(self).__name__
        self.kernel_regularizer = _regularizers.get(kernel_regularizer)
        self.bias_regularizer = _regularizers.get(bias_regularizer)
        self.kernel_constraint = _constraints.get(kernel_constraint)
        self.bias_constraint = _constraints.get(bias_constraint)
        self.filters = filters_count(filters, kind)
        self.kernel_size = int_tuple(kernel_size, "kernel_size", kind, self.rank)
        self.strides = int_tuple(strides, "strides", kind, self.rank)
        self.dilation_rate = int_tuple(dilation_rate, "dilation_rate", kind, self.rank)
        self.padding = padding_mode(padding, kind, causal_ok=self.rank == 1)
        channels_last(data_format, kind)
        self.data_format = "channels_last"
        self.activation = _activations.get(activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = _initializers.get(kernel_initializer)
        self.bias_initializer = _initializers.get(bias_initializer)
        self.kernel = None
        self.bias = None

    def _kernel_shape(self, channels):
        raise NotImplementedError

    #: how many groups the channels are cut into, each convolved with its own filters
    groups = 1

    def build(self, input_shape):
        check_rank(self, input_shape, self.rank + 2, at_least=self._any_batch)
        if input_shape is None or input_shape[-1] is None:
            raise ValueError(f"The channel dimension of the inputs to {type(self).__name__} "
                             f"should be defined. Found None. Full input shape received: "
                             f"{input_shape}")
        if int(input_shape[-1]) % self.groups:
            raise ValueError(f"The number of input channels must be evenly divisible by the "
                             f"number of groups. Received groups={self.groups}, but the input "
                             f"has {input_shape[-1]} channels (full input shape is "
                             f"{tuple(input_shape)}). Fix: groups dividing the channels")
        self.kernel = self.add_weight("kernel", self._kernel_shape(int(input_shape[-1])),
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        if self.use_bias:
            self.bias = self.add_weight("bias", (self.filters,),
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)
        self.built = True

    def _input(self, inputs, channel_axis):
        x = _float_input(inputs, self._dtype, f"{type(self).__name__} layer {self.name!r}")
        check_rank(self, tuple(x.shape), self.rank + 2, at_least=self._any_batch)
        check_channels(self, x, self.kernel._value.shape[channel_axis] * self.groups)
        return x

    _any_batch = True     # Conv1D and Conv2D take extra leading batch axes, as Keras's

    def _convolve(self, x, conv, padding, **kwargs):
        """`conv(x, kernel, strides, padding)` with any leading batch axes folded into one."""
        core = self.rank + 2
        lead = tuple(x.shape[:x._value.ndim - core + 1])
        if len(lead) > 1:
            x = reshape(x, (-1,) + tuple(x.shape[len(lead):]))
        args = (self.strides, padding)
        if self.groups == 1:
            out = conv(x, self.kernel, *args, dilations=self.dilation_rate, **kwargs)
        else:       # each group of input channels convolved with its own filters
            out = concat([conv(part, kernel, *args, dilations=self.dilation_rate, **kwargs)
                          for part, kernel in zip(split(x, self.groups, axis=-1),
                                                  split(self.kernel, self.groups, axis=-1))], -1)
        if len(lead) > 1:
            out = reshape(out, lead + tuple(out.shape[1:]))
        return self._finish(out)

    def _finish(self, out):
        if self.use_bias:
            out = add(out, self.bias)
        return out if self.activation is None else self.activation(out)  # as Keras's Conv


class Conv2D(_Conv):
    """`activation(conv2d(inputs, kernel) + bias)`.

    >>> import tapeviz as tv
    >>> tv.keras.layers.Conv2D(4, 3, padding="same")(tv.ones((2, 8, 8, 1))).shape
    TensorShape([2, 8, 8, 4])
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), groups=1, **kwargs):
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate,
                         **kwargs)
        refuse_strided_dilation(self.strides, self.dilation_rate, "Conv2D")
        groups = groups or 1                  # (0 and None mean one group, as in Keras)
        if self.filters % groups or groups < 1:
            raise ValueError(f"The number of filters must be evenly divisible by the number of "
                             f"groups. Received: groups={groups}, filters={self.filters}. Fix: "
                             "a positive groups dividing filters")
        self.groups = int(groups)

    def _kernel_shape(self, channels):
        return self.kernel_size + (channels // self.groups, self.filters)

    def call(self, inputs):
        x = self._input(inputs, self.rank)
        return self._convolve(x, conv2d, self.padding.upper())

    def compute_output_shape(self, input_shape):
        out = list(input_shape[:-self.rank - 1])          # the batch axes
        for size, k, s, d in zip(input_shape[-self.rank - 1:-1], self.kernel_size, self.strides,
                                 self.dilation_rate):
            out.append(windowed_output_size(size, (k - 1) * d + 1, s, self.padding))
        return tuple(out) + (self.filters,)


class Conv1D(Conv2D):
    """`activation(conv1d(inputs, kernel) + bias)` on (batch, steps, channels); 'causal'
    padding pads the start of the sequence only, so step t sees steps <= t."""
    rank = 1

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, groups=1, **kwargs):
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate,
                         groups, **kwargs)

    def call(self, inputs):
        x = self._input(inputs, 1)
        padding = self.padding.upper()
        if self.padding == "causal":
            left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            padding = [[0, 0], [left, 0], [0, 0]]          # (Keras pads, then 'VALID')
        return self._convolve(x, conv1d, padding)


class Conv2DTranspose(_Conv):
    """The transposed convolution: `conv2d_transpose(inputs, kernel)` to Keras's output size
    (`inputs · strides` with 'same', plus `max(kernel - strides, 0)` with 'valid')."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", output_padding=None,
                 data_format=None, dilation_rate=(1, 1), **kwargs):
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate,
                         **kwargs)
        kind = type(self).__name__
        if max(self.dilation_rate) != 1:
            raise ValueError(f"{kind}: dilation_rate > 1 is not supported by tapeviz "
                             f"(got {self.dilation_rate}). Fix: dilation_rate=1")
        self.output_padding = None if output_padding is None else \
            tuple(int(v) for v in ((output_padding,) * self.rank if isinstance(output_padding, int)
                                   else output_padding))
        if self.output_padding is not None and any(
                p >= s for p, s in zip(self.output_padding, self.strides)):
            raise ValueError(f"{kind}: Strides {self.strides} must be greater than "
                             f"output padding {self.output_padding}. Fix: output_padding < "
                             "strides on each axis")

    _any_batch = False

    def _kernel_shape(self, channels):
        return self.kernel_size + (self.filters, channels)

    def _output_size(self, size, axis):
        k, s = self.kernel_size[axis], self.strides[axis]
        if size is None:
            return None
        if self.output_padding is None:
            return size * s + max(k - s, 0) if self.padding == "valid" else size * s
        pad = k // 2 if self.padding == "same" else 0
        return (size - 1) * s + k - 2 * pad + self.output_padding[axis]

    def call(self, inputs):
        x = self._input(inputs, 3)
        n, h, w = x._value.shape[:3]
        shape = [n, self._output_size(h, 0), self._output_size(w, 1), self.filters]
        return self._finish(conv2d_transpose(x, self.kernel, shape, self.strides,
                                             self.padding.upper()))

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self._output_size(input_shape[1], 0),
                self._output_size(input_shape[2], 1), self.filters)


class Conv1DTranspose(Conv2DTranspose):
    """The transposed convolution on (batch, steps, channels): Conv2DTranspose's op on a
    height-1 image, so its values and gradients are those of `conv2d_transpose`."""
    rank = 1

    def __init__(self, filters, kernel_size, strides=1, padding="valid", output_padding=None,
                 data_format=None, dilation_rate=1, **kwargs):
        super().__init__(filters, kernel_size, strides, padding, output_padding, data_format,
                         dilation_rate, **kwargs)
        if self.padding == "causal":
            raise ValueError("Conv1DTranspose: padding='causal' is not supported (as in "
                             "tf-keras, whose transposed convolution has no causal mode). "
                             "Fix: padding='same' or 'valid'")

    def call(self, inputs):
        x = self._input(inputs, 2)
        n, steps = x._value.shape[:2]
        shape = [n, 1, self._output_size(steps, 0), self.filters]
        out = conv2d_transpose(expand_dims(x, 1), expand_dims(self.kernel, 0), shape,
                               (1,) + self.strides, self.padding.upper())
        return self._finish(squeeze(out, 1))

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self._output_size(input_shape[1], 0), self.filters)
