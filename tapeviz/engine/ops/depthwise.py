"""Depthwise and separable convolutions (`tv.nn.depthwise_conv2d`, `separable_conv2d`), NHWC.

A depthwise convolution filters each input channel c with its own `M` filters
(`filter[:, :, c, :]`, M the channel multiplier) and puts the results at output channels
c·M ... c·M + M - 1. With so few products per pixel (kh·kw·M, where a convolution has
kh·kw·Cin·Cout) a matmul has nothing to gain: each kernel position is one broadcast
multiply-add of a strided slice of the padded input (conv.py's `position_slices`), never a
loop over pixels:

- DepthwiseConv2dNative(x, w)                   y  = Σ_ij slice_ij(x) · w[i, j]
- DepthwiseConv2dNativeBackpropInput(g, w)      dx = Σ_ij slice_ijᵀ(Σ_m g · w[i, j])
- DepthwiseConv2dNativeBackpropFilter(x, g)     dw[i, j] = Σ_nhw slice_ij(x) · g

Each is linear in both inputs and the adjoint of the first in one of them, so, as for Conv2D,
each one's VJPs are the other two. A separable convolution is, as in TensorFlow, a depthwise
convolution followed by a 1x1 `conv2d` (no op of its own).
"""
from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from ..op import apply, defop
from ._base import pair, require, shape_list
from .conv import _geometry, _nhwc, conv2d, dilated, output_hw, pad_hw, position_slices, \
    resolve_padding, spatial_pair


# --- kernels: the leading (Jacobian batch) axes of either input broadcast --------------------
def _tap(w, i, j):
    """Kernel position (i, j) of (..., kh, kw, C, M) filters as (..., M, 1, 1, 1, C), to
    broadcast against pixels laid out (..., M, N, Ho, Wo, C): the channels stay the
    innermost, contiguous axis (an innermost M of 1 would make NumPy crawl)."""
    tap = np.swapaxes(w[..., i, j, :, :], -1, -2)
    return tap.reshape(tap.shape[:-1] + (1, 1, 1) + tap.shape[-1:])


def _forward(x, w, strides, pads, dilations):
    kh, kw, c, m = w.shape[-4:]
    out_hw = output_hw(x.shape[-3:-1], dilated(w.shape[-4:-2], dilations), strides, pads)
    xp = pad_hw(x, pads)[..., None, :, :, :, :]                   # (..., 1, N, Hp, Wp, C)
    y = term = None
    for i in range(kh):              # one multiply-add of every pixel per kernel position
        for j in range(kw):          # (into two buffers: fresh arrays cost more than the sums)
            hs, ws = position_slices(i, j, out_hw, strides, dilations)
            if y is None:
                y = xp[..., hs, ws, :] * _tap(w, i, j)               # (..., M, N, Ho, Wo, C)
            else:
                term = np.multiply(xp[..., hs, ws, :], _tap(w, i, j), out=term)
                y += term
    y = np.moveaxis(y, -5, -1)                                       # (..., N, Ho, Wo, C, M)
    return y.reshape(y.shape[:-2] + (c * m,))


def _backprop_input_forward(g, w, input_hw, strides, pads, dilations):
    kh, kw, c, m = w.shape[-4:]
    g = np.moveaxis(g.reshape(g.shape[:-1] + (c, m)), -1, -5)       # (..., M, N, Ho, Wo, C)
    n, ho, wo = g.shape[-4:-1]
    lead = np.broadcast_shapes(g.shape[:-5], w.shape[:-4])
    dxp = np.zeros(lead + (n, input_hw[0] + pads[0] + pads[1], input_hw[1] + pads[2] + pads[3],
                           c), np.result_type(g, w))
    term = None
    for i in range(kh):              # col2im: each kernel position adds its share back
        for j in range(kw):
            hs, ws = position_slices(i, j, (ho, wo), strides, dilations)
            term = np.multiply(g, _tap(w, i, j), out=term)
            dxp[..., hs, ws, :] += term[..., 0, :, :, :, :] if m == 1 else term.sum(axis=-5)
    return dxp[..., pads[0]:pads[0] + input_hw[0], pads[2]:pads[2] + input_hw[1], :]


def _backprop_filter_forward(x, g, ksize, strides, pads, dilations):
    c = x.shape[-1]
    g = g.reshape(g.shape[:-1] + (c, g.shape[-1] // c))
    xp = pad_hw(x, pads)
    taps = []
    for i in range(ksize[0]):
        for j in range(ksize[1]):
            hs, ws = position_slices(i, j, g.shape[-4:-2], strides, dilations)
            taps.append(np.einsum("...nhwc,...nhwcm->...cm", xp[..., hs, ws, :], g))
    dw = np.stack(taps, axis=-3)                                     # (..., kh·kw, C, M)
    return dw.reshape(dw.shape[:-3] + tuple(ksize) + dw.shape[-2:])


def _ksize(w):
    return tuple(w._value.shape[-4:-2])


def _input_hw(x):
    return tuple(x._value.shape[-3:-1])


_depthwise = defop(
    "DepthwiseConv2dNative", _forward,
    [lambda g, y, x, w, **geo: apply(_backprop_input, (g, w), {"input_hw": _input_hw(x), **geo}),
     lambda g, y, x, w, **geo: apply(_backprop_filter, (x, g), {"ksize": _ksize(w), **geo})],
    "y[..., c·M + m] = Σ_ij slice_ij(x)[..., c] · w[i, j, c, m]  (a channel, its filters)",
    ["∂x = DepthwiseConv2dNativeBackpropInput(g, w)",
     "∂w = DepthwiseConv2dNativeBackpropFilter(x, g)"], saves=((0, 1), False))
_backprop_input = defop(
    "DepthwiseConv2dNativeBackpropInput", _backprop_input_forward,
    [lambda u, dx, g, w, input_hw, **geo: apply(_depthwise, (u, w), geo),
     lambda u, dx, g, w, input_hw, **geo: apply(_backprop_filter, (u, g),
                                                {"ksize": _ksize(w), **geo})],
    "y = Σ_ij slice_ijᵀ(Σ_m g · w[i, j])", ["∂g = DepthwiseConv2dNative(gg, w)",
                                 "∂w = DepthwiseConv2dNativeBackpropFilter(gg, g)"],
    saves=((0, 1), False))
_backprop_filter = defop(
    "DepthwiseConv2dNativeBackpropFilter", _backprop_filter_forward,
    [lambda u, dw, x, g, ksize, **geo: apply(_backprop_input, (g, u),
                                             {"input_hw": _input_hw(x), **geo}),
     lambda u, dw, x, g, ksize, **geo: apply(_depthwise, (x, u), geo)],
    "y[i, j] = Σ_nhw slice_ij(x) · g", ["∂x = DepthwiseConv2dNativeBackpropInput(g, gg)",
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
    pw_shape = tuple(np.shape(pointwise_filter))
    if len(pw_shape) != 4 or tuple(pw_shape[:2]) != (1, 1):
        raise ValueError(f"separable_conv2d: pointwise_filter must have shape [1, 1, "
                         f"in_channels * channel_multiplier, out_channels], got "
                         f"{pw_shape}. Fix: a 1x1 filter")
    depthwise = depthwise_conv2d(input, depthwise_filter, strides, padding, data_format,
                                 dilations)
    return conv2d(depthwise, pointwise_filter, [1, 1, 1, 1], "VALID", data_format)


__all__: list = []      # tv.nn.* only, as in TensorFlow
