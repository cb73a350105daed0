"""Convolutions (`tv.nn.conv2d`, `conv2d_transpose`, `conv1d`), NHWC as TensorFlow on a CPU.

A convolution is im2col and one matmul: the input's patches are copied into a matrix of
shape (N·Ho·Wo, kh·kw·Cin), one strided slice per kernel position (never a loop over
pixels), and multiplied by the filter seen as a (kh·kw·Cin, Cout) matrix. Three ops close
under differentiation, as TensorFlow's:

- Conv2D(x, w)                    y  = patches(x) @ w
- Conv2DBackpropInput(g, w)       dx = col2im(g @ wᵀ)        (the adjoint of x ↦ Conv2D(x, w))
- Conv2DBackpropFilter(x, g)      dw = patches(x)ᵀ @ g       (the adjoint of w ↦ Conv2D(x, w))

each linear in both inputs, so each one's VJPs are the other two. The kernels accept extra
leading (Jacobian batch) axes on either input (`np.matmul` broadcasts them), which keeps
`jacobian` and Hessians vectorized. Padding is resolved to explicit (top, bottom, left, right)
amounts before an op runs, so every op sees one kind of attribute.
"""
from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError, UnimplementedError
from ..op import apply, defop
from ._base import pair, require, shape_list
from .axes import expand_dims, squeeze

# --- arguments ---------------------------------------------------------------------------------


def spatial_pair(value, what: str, op: str, default=1) -> tuple:
    """`strides`, `dilations`, `ksize` as (height, width): an int, a list of 1 or 2, or TF's
    list of 4 for NHWC (whose batch and depth entries must be 1)."""
    if value is None:
        return (default, default)
    raw = shape_list(value) if not isinstance(value, (int, np.integer)) else [int(value)]
    if len(raw) == 1:
        out = (raw[0], raw[0])
    elif len(raw) == 2:
        out = (raw[0], raw[1])
    elif len(raw) == 4:
        if raw[0] != 1 or raw[3] != 1:
            cls = UnimplementedError if what == "strides" and op == "Conv2D" else \
                InvalidArgumentError
            raise cls(f"{op}: Current implementation does not yet support {what} in the batch "
                      f"and depth dimensions (got {what}={raw} for NHWC input). Fix: give "
                      f"{what} for height and width only, e.g. {what}=[{raw[1]}, {raw[2]}] "
                      f"[Op:{op}]", op)
        out = (raw[1], raw[2])
    else:
        raise ValueError(f"{op}: {what} should be of length 1, 2 or 4 but was {len(raw)} "
                         f"({what}={raw}). Fix: pass one int or [height, width]")
    if min(out) < 1:
        raise InvalidArgumentError(f"{op}: {what} must be positive, got {list(out)}. Fix: use "
                                   f"{what} of at least 1 [Op:{op}]", op)
    return out


def windowed_output_size(size, window, stride, padding):
    """How many outputs a window of `window` elements (the dilated kernel), moved `stride`
    at a time, gives along an axis of `size` elements, by TensorFlow's rule: with 'SAME'
    padding (and Keras's 'causal', which pads the start only) ceil(size / stride); with
    'VALID' the windows that fit, (size - window) // stride + 1, or size - window + 1 (zero
    or negative, which the ops refuse as TensorFlow does) when none fits. The padding's name
    in either case; None for an axis of unknown size."""
    if size is None:
        return None
    if padding.upper() in ("SAME", "CAUSAL"):
        return -(-size // stride)
    return (size - window) // stride + 1 if size >= window else size - window + 1


def output_hw(in_hw, window, strides, pads) -> tuple:
    """(height, width) of an op's output: its windows over (H, W) padded by `pads` (top,
    bottom, left, right) as resolved by `resolve_padding`."""
    return tuple(windowed_output_size(in_hw[a] + pads[2 * a] + pads[2 * a + 1], window[a],
                                      strides[a], "VALID") for a in range(2))


def resolve_padding(padding, in_hw, window, strides, op: str, explicit_ok=True):
    """TF's 'SAME', 'VALID' or explicit [[0, 0], [top, bottom], [left, right], [0, 0]] as
    ((top, bottom, left, right), (out_h, out_w)); `window` is the dilated kernel size."""
    if isinstance(padding, (str, bytes)):
        mode = padding.decode() if isinstance(padding, bytes) else padding
        if mode not in ("SAME", "VALID"):
            allowed = '"SAME", "VALID"' + (', "EXPLICIT"' if explicit_ok else "")
            fix = mode.upper() if mode.upper() in ("SAME", "VALID") else "SAME"
            raise InvalidArgumentError(
                f"{op}: Value for attr 'padding' of \"{mode}\" is not in the list of allowed "
                f"values: {allowed}. Fix: padding='{fix}' (upper case, as TensorFlow) "
                f"[Op:{op}]", op)
        pads, out = [], []
        for size, k, s in zip(in_hw, window, strides):
            n = windowed_output_size(size, k, s, mode)
            total = max((n - 1) * s + k - size, 0) if mode == "SAME" else 0
            pads += [total // 2, total - total // 2]
            out.append(n)
    else:
        if not explicit_ok:
            raise TypeError(f"{op}: Expected string for argument 'padding' not {padding!r}. "
                            "Fix: padding='SAME' or 'VALID' (this op takes no explicit padding)")
        try:
            rows = [shape_list(p) for p in (padding._value.tolist() if hasattr(padding, "_value")
                                             else padding)]
        except (TypeError, InvalidArgumentError):
            rows = None
        if rows is None or len(rows) != 4 or any(len(r) != 2 for r in rows):
            raise ValueError(f"{op}: explicit padding must be a list of 4 [before, after] pairs "
                             f"for NHWC, got {padding!r}. Fix: e.g. "
                             "[[0, 0], [1, 1], [1, 1], [0, 0]]")
        if any(rows[0]) or any(rows[3]):
            raise InvalidArgumentError(f"{op}: Nonzero explicit padding in the batch or depth "
                                       f"dimensions is not supported (padding={rows}). Fix: pad "
                                       f"height and width only [Op:{op}]", op)
        if min(rows[1] + rows[2]) < 0:
            raise InvalidArgumentError(f"{op}: explicit padding must be non-negative, got "
                                       f"{rows} [Op:{op}]", op)
        pads = rows[1] + rows[2]
        out = output_hw(in_hw, window, strides, pads)
    for i, n in enumerate(out):
        if n < 0:
            raise InvalidArgumentError(
                f"{op}: Computed output size would be negative: {n} [input_size: {in_hw[i]}, "
                f"effective_filter_size: {window[i]}, stride: {strides[i]}]. Fix: a smaller "
                f"kernel or padding='SAME' [Op:{op}]", op)
    return tuple(pads), tuple(out)


def dilated(ksize, dilations) -> tuple:
    return tuple((k - 1) * d + 1 for k, d in zip(ksize, dilations))


def position_slices(i, j, out_hw, strides, dilations):
    """The slice of the padded input (its H and W axes) that kernel position (i, j) reads for
    every output pixel at once."""
    (ho, wo), (sh, sw), (dh, dw) = out_hw, strides, dilations
    return (slice(i * dh, i * dh + (ho - 1) * sh + 1, sh),
            slice(j * dw, j * dw + (wo - 1) * sw + 1, sw))


def pad_hw(x, pads, fill=0):
    """`x` (..., H, W, C) padded on H and W (no copy when there is nothing to pad)."""
    if not any(pads):
        return x
    width = [(0, 0)] * (x.ndim - 3) + [(pads[0], pads[1]), (pads[2], pads[3]), (0, 0)]
    return np.pad(x, width, constant_values=fill)


# --- kernels -----------------------------------------------------------------------------------
def _patches(x, ksize, out_hw, strides, pads, dilations):
    """im2col: (..., N, H, W, C) -> (..., N·Ho·Wo, kh·kw·C), one slice per kernel position."""
    xp = pad_hw(x, pads)
    kh, kw = ksize
    cols = np.empty(x.shape[:-3] + tuple(out_hw) + (kh, kw, x.shape[-1]), x.dtype)
    for i in range(kh):
        for j in range(kw):
            hs, ws = position_slices(i, j, out_hw, strides, dilations)
            cols[..., i, j, :] = xp[..., hs, ws, :]
    return cols.reshape(x.shape[:-4] + (-1, kh * kw * x.shape[-1]))


def _conv_forward(x, w, strides, pads, dilations):
    kh, kw, ci, co = w.shape[-4:]
    out_hw = output_hw(x.shape[-3:-1], dilated((kh, kw), dilations), strides, pads)
    cols = _patches(x, (kh, kw), out_hw, strides, pads, dilations)
    y = np.matmul(cols, w.reshape(w.shape[:-4] + (kh * kw * ci, co)))
    return y.reshape(y.shape[:-2] + (x.shape[-4],) + out_hw + (co,))


def _backprop_input_forward(g, w, input_hw, strides, pads, dilations):
    kh, kw, ci, co = w.shape[-4:]
    n, ho, wo = g.shape[-4:-1]
    cols = np.matmul(g.reshape(g.shape[:-4] + (n * ho * wo, co)),
                     np.swapaxes(w.reshape(w.shape[:-4] + (kh * kw * ci, co)), -1, -2))
    cols = cols.reshape(cols.shape[:-2] + (n, ho, wo, kh, kw, ci))
    hp, wp = input_hw[0] + pads[0] + pads[1], input_hw[1] + pads[2] + pads[3]
    dxp = np.zeros(cols.shape[:-6] + (n, hp, wp, ci), cols.dtype)
    for i in range(kh):       # col2im: each kernel position adds its slice back
        for j in range(kw):
            hs, ws = position_slices(i, j, (ho, wo), strides, dilations)
            dxp[..., hs, ws, :] += cols[..., i, j, :]
    return dxp[..., pads[0]:pads[0] + input_hw[0], pads[2]:pads[2] + input_hw[1], :]


def _backprop_filter_forward(x, g, ksize, strides, pads, dilations):
    co = g.shape[-1]
    cols = _patches(x, ksize, g.shape[-3:-1], strides, pads, dilations)
    dw = np.matmul(np.swapaxes(cols, -1, -2), g.reshape(g.shape[:-4] + (-1, co)))
    return dw.reshape(dw.shape[:-2] + tuple(ksize) + (x.shape[-1], co))


def _geometry(strides, pads, dilations):
    return {"strides": strides, "pads": pads, "dilations": dilations}


def _conv_vjp_x(g, y, x, w, strides, pads, dilations):
    return apply(_backprop_input, (g, w), {"input_hw": tuple(x._value.shape[-3:-1]),
                                           **_geometry(strides, pads, dilations)})


def _conv_vjp_w(g, y, x, w, strides, pads, dilations):
    return apply(_backprop_filter, (x, g), {"ksize": tuple(w._value.shape[-4:-2]),
                                            **_geometry(strides, pads, dilations)})


_conv = defop("Conv2D", _conv_forward, [_conv_vjp_x, _conv_vjp_w],
              "y = patches(x) @ w  (im2col, then one matmul)",
              ["∂x = Conv2DBackpropInput(g, w)", "∂w = Conv2DBackpropFilter(x, g)"],
              saves=((0, 1), False))
_backprop_input = defop(
    "Conv2DBackpropInput", _backprop_input_forward,
    [lambda u, dx, g, w, input_hw, **geo: apply(_conv, (u, w), geo),
     lambda u, dx, g, w, input_hw, **geo: apply(
         _backprop_filter, (u, g), {"ksize": tuple(w._value.shape[-4:-2]), **geo})],
    "y = col2im(g @ wᵀ)  (the transposed convolution)",
    ["∂g = Conv2D(gg, w)", "∂w = Conv2DBackpropFilter(gg, g)"], saves=((0, 1), False))
_backprop_filter = defop(
    "Conv2DBackpropFilter", _backprop_filter_forward,
    [lambda u, dw, x, g, ksize, **geo: apply(
        _backprop_input, (g, u), {"input_hw": tuple(x._value.shape[-3:-1]), **geo}),
     lambda u, dw, x, g, ksize, **geo: apply(_conv, (x, u), geo)],
    "y = patches(x)ᵀ @ g", ["∂x = Conv2DBackpropInput(g, gg)", "∂g = Conv2D(x, gg)"],
    saves=((0, 1), False))


# --- public functions --------------------------------------------------------------------------
def _nhwc(data_format, op):
    if data_format not in (None, "NHWC"):
        raise UnimplementedError(
            f"{op}: data_format={data_format!r} is not supported: tapeviz, like TensorFlow on a "
            f"CPU, computes convolutions in NHWC. Fix: tv.transpose(x, [0, 2, 3, 1]) to NHWC "
            f"and data_format='NHWC' [Op:{op}]", op)


def _operands(input, filters, op):
    x, w = pair(input, filters, op)
    require(x, op, "fiu", "a numeric")
    for name, t in (("input", x), ("filters", w)):
        if t._value.ndim != 4:
            raise ValueError(f"{op}: {name} must be 4-dimensional (NHWC input, filters of "
                             f"shape [height, width, in_channels, out_channels]), got shape "
                             f"{tuple(t.shape)}. Fix: add the missing axes, e.g. "
                             "tv.expand_dims(x, 0) for one image")
    return x, w


def _depth_check(x, w, op):
    in_channels, filter_depth = x._value.shape[3], w._value.shape[2]
    if in_channels != filter_depth:
        fits = filter_depth and in_channels % filter_depth == 0
        raise InvalidArgumentError(
            f"{op}: input depth must be evenly divisible by filter depth: {in_channels} vs "
            f"{filter_depth}" + (" (grouped convolutions are not supported by tapeviz)"
                                 if fits else "") +
            f" (input shape {tuple(x.shape)}, filters shape {tuple(w.shape)}). Fix: the "
            f"filters' third axis must equal the input's channels ({in_channels}) [Op:{op}]", op)


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    """A 2-D convolution of NHWC `input` with `filters` of shape [kh, kw, in, out].

    >>> import tapeviz as tv
    >>> tv.nn.conv2d(tv.ones((1, 4, 4, 1)), tv.ones((3, 3, 1, 2)), 1, "VALID").shape
    TensorShape([1, 2, 2, 2])
    """
    op = "Conv2D"
    _nhwc(data_format, op)
    x, w = _operands(input, filters, op)
    strides = spatial_pair(strides, "strides", op)
    dilations = spatial_pair(dilations, "dilations", op)
    _depth_check(x, w, op)
    window = dilated(w._value.shape[:2], dilations)
    pads, _ = resolve_padding(padding, x._value.shape[1:3], window, strides, op)
    return apply(_conv, (x, w), _geometry(strides, pads, dilations))


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC",
                     dilations=None, name=None):
    """The gradient of `conv2d` with respect to its input: `input` (N, H, W, out) and
    `filters` [kh, kw, out_channels, in_channels] give a tensor of `output_shape`."""
    op = "Conv2DBackpropInput"
    _nhwc(data_format, op)
    g, w = _operands(input, filters, op)
    strides = spatial_pair(strides, "strides", op)
    dilations = spatial_pair(dilations, "dilations", op)
    if dilations != (1, 1):
        raise InvalidArgumentError(f"{op}: Current CPU implementations do not yet support "
                                   f"dilation rates larger than 1 (dilations={list(dilations)}"
                                   f"). Fix: dilations=1 [Op:{op}]", op)
    shape = shape_list(output_shape)
    if len(shape) != 4:
        raise ValueError(f"{op}: output_shape must have length 4 (NHWC), got {shape}. Fix: "
                         "e.g. output_shape=[batch, height, width, channels]")
    if shape[3] != w._value.shape[2] or g._value.shape[3] != w._value.shape[3]:
        raise ValueError(f"{op}: the filter's shape {tuple(w.shape)} must be [kh, kw, "
                         f"output channels ({shape[3]}), input channels "
                         f"({g._value.shape[3]})]. Fix: filters of shape "
                         f"[kh, kw, {shape[3]}, {g._value.shape[3]}]")
    window = dilated(w._value.shape[:2], dilations)
    pads, out_hw = resolve_padding(padding, shape[1:3], window, strides, op)
    for axis, (want, got) in enumerate(zip(out_hw, g._value.shape[1:3])):
        if want != got or shape[0] != g._value.shape[0]:
            raise InvalidArgumentError(
                f"{op}: Conv2DCustomBackpropInput: Size of out_backprop doesn't match "
                f"computed: actual = {got}, computed = {want} spatial_dim: {axis + 1} "
                f"input: {shape[1 + axis]} filter: {w._value.shape[axis]} output: {got} "
                f"stride: {strides[axis]} dilation: {dilations[axis]}. Fix: an output_shape "
                f"whose convolution with these strides and padding gives the input's shape "
                f"{tuple(g.shape)} [Op:{op}]", op)
    return apply(_backprop_input, (g, w), {"input_hw": tuple(shape[1:3]),
                                           **_geometry(strides, pads, dilations)})


__all__: list = []      # tv.nn.* only, as in TensorFlow


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):
    """A 1-D convolution of (N, W, C) `input` with `filters` [k, in, out], computed as
    TensorFlow computes it: a 2-D convolution over a height of 1 (expand_dims, conv2d,
    squeeze). `padding` is 'SAME', 'VALID' or [[0, 0], [before, after], [0, 0]]."""
    op = "Conv2D"
    if data_format not in (None, "NWC"):
        _nhwc(data_format, op)
    x, w = pair(input, filters, op)
    for what, t in (("input", x), ("filters", w)):
        if t._value.ndim != 3:
            raise ValueError(f"conv1d: {what} must be 3-dimensional ((batch, width, channels) "
                             f"input, filters of shape [width, in_channels, out_channels]), "
                             f"got shape {tuple(t.shape)}. Fix: add the missing axes, e.g. "
                             "tv.expand_dims(x, -1) for one channel")
    if not isinstance(padding, (str, bytes)):
        rows = [list(p) for p in padding]
        padding = [[0, 0], [0, 0]] + rows[1:] if len(rows) == 3 else padding
    stride = spatial_pair(stride, "stride", "conv1d")[0] if not isinstance(
        stride, (list, tuple)) or len(stride) != 3 else int(stride[1])
    dilation = 1 if dilations is None else (
        int(dilations) if isinstance(dilations, (int, np.integer)) else int(list(dilations)[-1]))
    out = conv2d(expand_dims(x, 1), expand_dims(w, 0), [1, stride], padding,
                 dilations=[1, dilation])
    return squeeze(out, [1])
