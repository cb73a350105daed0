"""Depthwise and separable convolutions (`tv.nn.depthwise_conv2d`, `separable_conv2d`), NHWC.

A depthwise convolution filters each input channel c with its own `M` filters
(`filter[:, :, c, :]`, M the channel multiplier) and puts the results at output channels
c·M ... c·M + M - 1. It is the patch grid of conv.py (one strided slice per kernel position,
never a loop over pixels) and one batched matmul, batched over the channels:

- DepthwiseConv2dNative(x, w)                   y[c]  = patches(x)[c] @ w[c]
- DepthwiseConv2dNativeBackpropInput(g, w)      dx    = col2im(g[c] @ w[c]ᵀ)
- DepthwiseConv2dNativeBackpropFilter(x, g)     dw[c] = patches(x)[c]ᵀ @ g[c]

Each is linear in both inputs and the adjoint of the first in one of them, so, as for Conv2D,
each one's VJPs are the other two. A separable convolution is, as in TensorFlow, a depthwise
convolution followed by a 1x1 `conv2d` (no op of its own).
"""
from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from ..op import apply, defop
from ._base import pair, require, shape_list
from .conv import _geometry, _nhwc, col2im, conv2d, dilated, patch_grid, resolve_padding, \
    spatial_pair


# --- kernels: the leading (Jacobian batch) axes of either input broadcast through matmul ------
def _by_channel(cols):
    """(..., N, Ho, Wo, kh, kw, C) -> (..., C, N·Ho·Wo, kh·kw)."""
    n, ho, wo, kh, kw, c = cols.shape[-6:]
    return np.moveaxis(cols.reshape(cols.shape[:-6] + (n * ho * wo, kh * kw, c)), -1, -3)


def _filter_by_channel(w):
    """(..., kh, kw, C, M) -> (..., C, kh·kw, M)."""
    kh, kw, c, m = w.shape[-4:]
    return np.moveaxis(w.reshape(w.shape[:-4] + (kh * kw, c, m)), -2, -3)


def _grad_by_channel(g, c):
    """(..., N, Ho, Wo, C·M) -> (..., C, N·Ho·Wo, M)."""
    n, ho, wo, cm = g.shape[-4:]
    return np.moveaxis(g.reshape(g.shape[:-4] + (n * ho * wo, c, cm // c)), -2, -3)


def _forward(x, w, strides, pads, dilations):
    kh, kw, c, m = w.shape[-4:]
    window = dilated((kh, kw), dilations)
    out_hw = tuple((x.shape[-3 + a] + pads[2 * a] + pads[2 * a + 1] - window[a]) // strides[a]
                   + 1 for a in range(2))
    cols = patch_grid(x, (kh, kw), out_hw, strides, pads, dilations)
    y = np.matmul(_by_channel(cols), _filter_by_channel(w))           # (..., C, P, M)
    y = np.moveaxis(y, -3, -2)                                         # (..., P, C, M)
    return y.reshape(y.shape[:-3] + (x.shape[-4],) + out_hw + (c * m,))


def _backprop_input_forward(g, w, input_hw, strides, pads, dilations):
    kh, kw, c, m = w.shape[-4:]
    n, ho, wo = g.shape[-4:-1]
    cols = np.matmul(_grad_by_channel(g, c), np.swapaxes(_filter_by_channel(w), -1, -2))
    cols = np.moveaxis(cols, -3, -1)                                    # (..., P, K, C)
    return col2im(cols.reshape(cols.shape[:-3] + (n, ho, wo, kh, kw, c)), input_hw, strides,
                  pads, dilations)


def _backprop_filter_forward(x, g, ksize, strides, pads, dilations):
    c = x.shape[-1]
    cols = patch_grid(x, ksize, g.shape[-3:-1], strides, pads, dilations)
    dw = np.matmul(np.swapaxes(_by_channel(cols), -1, -2), _grad_by_channel(g, c))
    dw = np.moveaxis(dw, -3, -2)                                        # (..., K, C, M)
    return dw.reshape(dw.shape[:-3] + tuple(ksize) + dw.shape[-2:])


def _ksize(w):
    return tuple(w._value.shape[-4:-2])


def _input_hw(x):
    return tuple(x._value.shape[-3:-1])


_depthwise = defop(
    "DepthwiseConv2dNative", _forward,
    [lambda g, y, x, w, **geo: apply(_backprop_input, (g, w), {"input_hw": _input_hw(x), **geo}),
     lambda g, y, x, w, **geo: apply(_backprop_filter, (x, g), {"ksize": _ksize(w), **geo})],
    "y[..., c·M + m] = patches(x)[c] @ w[:, :, c, m]  (each channel its own filters)",
    ["∂x = DepthwiseConv2dNativeBackpropInput(g, w)",
     "∂w = DepthwiseConv2dNativeBackpropFilter(x, g)"], saves=((0, 1), False))
_backprop_input = defop(
    "DepthwiseConv2dNativeBackpropInput", _backprop_input_forward,
    [lambda u, dx, g, w, input_hw, **geo: apply(_depthwise, (u, w), geo),
     lambda u, dx, g, w, input_hw, **geo: apply(_backprop_filter, (u, g),
                                                {"ksize": _ksize(w), **geo})],
    "y = col2im(g[c] @ w[c]ᵀ)", ["∂g = DepthwiseConv2dNative(gg, w)",
                                 "∂w = DepthwiseConv2dNativeBackpropFilter(gg, g)"],
    saves=((0, 1), False))
_backprop_filter = defop(
    "DepthwiseConv2dNativeBackpropFilter", _backprop_filter_forward,
    [lambda u, dw, x, g, ksize, **geo: apply(_backprop_input, (g, u),
                                             {"input_hw": _input_hw(x), **geo}),
     lambda u, dw, x, g, ksize, **geo: apply(_depthwise, (x, u), geo)],
    "y[c] = patches(x)[c]ᵀ @ g[c]", ["∂x = DepthwiseConv2dNativeBackpropInput(g, gg)",
                                     "∂g = DepthwiseConv2dNative(x, gg)"],
    saves=((0, 1), False))


# --- public functions --------------------------------------------------------------------------
def _strides(strides, op):
    """TensorFlow's depthwise strides: a list of 4, [1, sh, sw, 1]."""
    if isinstance(strides, (int, np.integer)):
        raise TypeError(f"Expected list for 'strides' argument to '{op}' Op, not {strides!r}. "
                        f"Fix: strides=[1, {strides}, {strides}, 1]")
    raw = shape_list(strides)
    if len(raw) != 4:
        raise InvalidArgumentError(f"{op}: Sliding window strides field must specify 4 "
                                   f"dimensions, got strides={raw}. Fix: strides=[1, "
                                   f"height, width, 1], e.g. [1, 2, 2, 1] [Op:{op}]", op)
    return spatial_pair(raw, "strides", op)


def _depthwise_operands(input, filter, op):
    x, w = pair(input, filter, op)
    require(x, op, "f", "a floating-point")
    for what, t, shape in (("input", x, "(batch, height, width, channels)"),
                           ("filter", w, "[height, width, in_channels, channel_multiplier]")):
        if t._value.ndim != 4:
            raise ValueError(f"{op}: {what} must be 4-dimensional, {shape}, got shape "
                             f"{tuple(t.shape)}. Fix: add the missing axes, e.g. "
                             "tv.expand_dims(x, 0) for one image")
    if x._value.shape[3] != w._value.shape[2]:
        raise InvalidArgumentError(
            f"{op}: input depth must be evenly divisible by filter depth: {x._value.shape[3]} "
            f"vs {w._value.shape[2]} (input shape {tuple(x.shape)}, filter shape "
            f"{tuple(w.shape)}). Fix: the filter's third axis must equal the input's channels "
            f"({x._value.shape[3]}) [Op:{op}]", op)
    return x, w


def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None,
                     name=None):
    """Each channel of NHWC `input` convolved with its own filters: `filter` of shape
    [kh, kw, in_channels, channel_multiplier] gives in_channels·channel_multiplier channels.
    `strides` is [1, sh, sw, 1]; `dilations` [dh, dw] (only with strides of 1).

    >>> import tapeviz as tv
    >>> tv.nn.depthwise_conv2d(tv.ones((1, 5, 5, 3)), tv.ones((3, 3, 3, 2)), [1, 1, 1, 1],
    ...                        "VALID").shape
    TensorShape([1, 3, 3, 6])
    """
    op = "DepthwiseConv2dNative"
    _nhwc(data_format, op)
    x, w = _depthwise_operands(input, filter, op)
    strides = _strides(strides, op)
    dilations = spatial_pair(dilations, "dilations", op)
    if max(dilations) > 1 and max(strides) > 1:
        # (TensorFlow only warns, then computes a wrongly shaped answer)
        raise ValueError(f"depthwise_conv2d: When dilation rate is greater than 1, then all "
                         f"values of strides must be 1. Received: dilations="
                         f"{list(dilations)} and strides={list(shape_list(strides))}. Fix: "
                         "strides=[1, 1, 1, 1] or dilations=None")
    window = dilated(w._value.shape[:2], dilations)
    pads, _ = resolve_padding(padding, x._value.shape[1:3], window, strides, op)
    return apply(_depthwise, (x, w), _geometry(strides, pads, dilations))


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,
                     data_format=None, dilations=None, name=None):
    """`depthwise_conv2d` then a 1x1 `conv2d` mixing the channels, as TensorFlow computes it:
    `pointwise_filter` has shape [1, 1, in_channels·channel_multiplier, out_channels]."""
    pw_shape = tuple(getattr(pointwise_filter, "shape", np.shape(pointwise_filter)))
    if len(pw_shape) != 4 or tuple(pw_shape[:2]) != (1, 1):
        raise ValueError(f"separable_conv2d: pointwise_filter must have shape [1, 1, "
                         f"in_channels * channel_multiplier, out_channels], got "
                         f"{pw_shape}. Fix: a 1x1 filter")
    depthwise = depthwise_conv2d(input, depthwise_filter, strides, padding, data_format,
                                 dilations)
    return conv2d(depthwise, pointwise_filter, [1, 1, 1, 1], "VALID", data_format)


__all__: list = []      # tv.nn.* only, as in TensorFlow
