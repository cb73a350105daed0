"""2-D pooling (`tv.nn.max_pool2d`, `avg_pool2d`, and the rank-generic `max_pool`/`avg_pool`
for 1-D and 2-D windows), NHWC as TensorFlow on a CPU.

Every kernel loops over the positions of the pooling window (4 for 2x2), each a strided
slice of the whole input, never over pixels. Max pooling sends each output's gradient to the
first maximum of its window in row-major order (TensorFlow's CPU kernel compares with `>`),
so ties give one element the whole gradient; NaN follows TensorFlow's two kernels too (the
forward one skips it, the gradient's keeps a NaN that comes first in its window). Average pooling with 'SAME' padding divides by
the number of input elements in the window, not by the window's size, as TensorFlow does.

Ops: MaxPool, its gradient MaxPoolGrad(x, y, g) and that one's MaxPoolGradGrad(x, y, gg)
(linear in their last input, so they are each other's VJPs); AvgPool and AvgPoolGrad (each
the other's adjoint). The kernels accept extra leading (Jacobian batch) axes.
"""
from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError, UnimplementedError
from ..op import apply, defop
from ._base import require, tensor
from .axes import expand_dims, squeeze
from .conv import output_hw, pad_hw, position_slices, resolve_padding, spatial_pair
from .makers import zeros

_NO_DILATION = (1, 1)


def _lowest(dtype):
    return np.finfo(dtype).min if dtype.kind == "f" else np.iinfo(dtype).min


def _inside(i, j, in_hw, out_hw, strides, pads):
    """Where window position (i, j) reads the input, not the padding: (Ho, Wo, 1) bools."""
    rows = np.arange(out_hw[0]) * strides[0] + i - pads[0]
    cols = np.arange(out_hw[1]) * strides[1] + j - pads[2]
    return (((rows >= 0) & (rows < in_hw[0]))[:, None] &
            ((cols >= 0) & (cols < in_hw[1]))[None, :])[..., None]


def _chosen(x, ksize, strides, pads, from_first=True):
    """For each window position (i, j): its slices of the padded input and where it holds
    the element the window's gradient goes to. TensorFlow's CPU gradient kernel scans a
    window in row-major order from its first element inside the input, moving on only to a
    strictly greater one: the first maximum, or a NaN that comes first (no later one). Its
    second-order kernel (`from_first=False`) starts from the lowest value instead, as the
    forward kernel: a NaN is never chosen."""
    xp = pad_hw(x, pads)
    out_hw = output_hw(x.shape[-3:-1], ksize, strides, pads)
    best = np.full(x.shape[:-3] + out_hw + x.shape[-1:], _lowest(x.dtype), x.dtype)
    where = np.full(best.shape, -1, np.int8 if ksize[0] * ksize[1] < 128
                    else np.int32)
    positions = [(i, j) for i in range(ksize[0]) for j in range(ksize[1])]
    for p, (i, j) in enumerate(positions):
        hs, ws = position_slices(i, j, out_hw, strides, _NO_DILATION)
        value = xp[..., hs, ws, :]
        ahead = best < value
        if from_first:
            ahead |= where < 0
        take = _inside(i, j, x.shape[-3:-1], out_hw, strides, pads) & ahead
        np.copyto(best, value, where=take)
        np.copyto(where, p, where=take)
    for p, (i, j) in enumerate(positions):
        hs, ws = position_slices(i, j, out_hw, strides, _NO_DILATION)
        yield hs, ws, where == p


def _max_pool_forward(x, ksize, strides, pads):
    # TensorFlow's forward kernel starts each window at the lowest value and keeps the
    # greater: NaN is skipped (np.fmax), a window of NaN only gives the lowest value
    floats = x.dtype.kind == "f"
    xp = pad_hw(x, pads, fill=np.nan if floats else _lowest(x.dtype))
    out_hw = output_hw(x.shape[-3:-1], ksize, strides, pads)
    y = np.full(x.shape[:-3] + out_hw + x.shape[-1:], _lowest(x.dtype), x.dtype)
    keep = np.fmax if floats else np.maximum
    for i in range(ksize[0]):
        for j in range(ksize[1]):
            hs, ws = position_slices(i, j, out_hw, strides, _NO_DILATION)
            keep(y, xp[..., hs, ws, :], out=y)
    return y


def _max_pool_grad_forward(x, y, g, ksize, strides, pads):
    hp, wp = x.shape[-3] + pads[0] + pads[1], x.shape[-2] + pads[2] + pads[3]
    lead = np.broadcast_shapes(x.shape[:-3], g.shape[:-3])
    dxp = np.zeros(lead + (hp, wp, x.shape[-1]), g.dtype)
    zero = np.zeros((), g.dtype)
    for hs, ws, chosen in _chosen(x, ksize, strides, pads):
        # routed, not multiplied: a NaN or Inf upstream reaches only the chosen element, as
        # TensorFlow's kernel scatters it (0 * NaN would spread NaN over the whole window)
        dxp[..., hs, ws, :] += np.where(chosen, g, zero)
    return dxp[..., pads[0]:hp - pads[1], pads[2]:wp - pads[3], :]


def _max_pool_grad_grad_forward(x, y, gg, ksize, strides, pads):
    ggp = pad_hw(gg, pads)
    out = None
    for hs, ws, chosen in _chosen(x, ksize, strides, pads, from_first=False):
        part = np.where(chosen, ggp[..., hs, ws, :], np.zeros((), gg.dtype))
        out = part if out is None else out + part
    return out


def _zeros_for(x, g, core_rank=4):
    """Zeros of x's shape with g's Jacobian batch axes (a gradient the kernel has none of)."""
    lead = tuple(g.shape[:g._value.ndim - core_rank]) if g._value.ndim > core_rank else ()
    return zeros(lead + tuple(x._value.shape[-core_rank:]), x.dtype)


_max_pool_grad_grad = defop(
    "MaxPoolGradGrad", _max_pool_grad_grad_forward,
    [lambda u, out, x, y, gg, **a: _zeros_for(x, u),
     lambda u, out, x, y, gg, **a: _zeros_for(y, u),
     lambda u, out, x, y, gg, **a: apply(_max_pool_grad, (x, y, u), a)],
    "y = gg at each window's first maximum", ["∂x = 0", "∂y = 0", "∂gg = MaxPoolGrad(u)"],
    saves=((0,), False))
_max_pool_grad = defop(
    "MaxPoolGrad", _max_pool_grad_forward,
    [lambda u, dx, x, y, g, **a: _zeros_for(x, u),
     lambda u, dx, x, y, g, **a: _zeros_for(y, u),
     lambda u, dx, x, y, g, **a: apply(_max_pool_grad_grad, (x, y, u), a)],
    "y = g sent to each window's first maximum", ["∂x = 0", "∂y = 0",
                                                  "∂g = MaxPoolGradGrad(gg)"],
    saves=((0,), False))
_max_pool = defop("MaxPool", _max_pool_forward,
                  [lambda g, y, x, **a: apply(_max_pool_grad, (x, y, g), a)],
                  "y = max over each window", ["∂x = g at each window's first maximum"],
                  saves=((0,), True))


def _window_counts(in_hw, ksize, strides, pads):
    """How many input elements (not padding) each output's window covers: (Ho, Wo, 1)."""
    out_hw = output_hw(in_hw, ksize, strides, pads)
    per_axis = []
    for a in range(2):
        start = np.arange(out_hw[a]) * strides[a] - pads[2 * a]
        per_axis.append(np.minimum(start + ksize[a], in_hw[a]) - np.maximum(start, 0))
    return np.multiply.outer(per_axis[0], per_axis[1])[..., None]


def _avg_pool_forward(x, ksize, strides, pads):
    xp = pad_hw(x, pads)
    out_hw = output_hw(x.shape[-3:-1], ksize, strides, pads)
    total = None
    for i in range(ksize[0]):
        for j in range(ksize[1]):
            hs, ws = position_slices(i, j, out_hw, strides, _NO_DILATION)
            total = xp[..., hs, ws, :].copy() if total is None else np.add(
                total, xp[..., hs, ws, :], out=total)
    return total / _window_counts(x.shape[-3:-1], ksize, strides, pads).astype(x.dtype)


def _avg_pool_grad_forward(g, input_hw, ksize, strides, pads):
    hp, wp = input_hw[0] + pads[0] + pads[1], input_hw[1] + pads[2] + pads[3]
    share = g / _window_counts(input_hw, ksize, strides, pads).astype(g.dtype)
    dxp = np.zeros(g.shape[:-3] + (hp, wp, g.shape[-1]), g.dtype)
    for i in range(ksize[0]):
        for j in range(ksize[1]):
            hs, ws = position_slices(i, j, g.shape[-3:-1], strides, _NO_DILATION)
            dxp[..., hs, ws, :] += share
    return dxp[..., pads[0]:hp - pads[1], pads[2]:wp - pads[3], :]


_avg_pool_grad = defop(
    "AvgPoolGrad", _avg_pool_grad_forward,
    [lambda u, dx, g, input_hw, **a: apply(_avg_pool, (u,), a)],
    "y = g / (window count) spread over each window", ["∂g = AvgPool(gg)"],
    saves=((), False))
_avg_pool = defop(
    "AvgPool", _avg_pool_forward,
    [lambda g, y, x, **a: apply(_avg_pool_grad, (g,),
                                {"input_hw": tuple(x._value.shape[-3:-1]), **a})],
    "y = mean over each window (padding not counted)",
    ["∂x = g / (window count), spread over each window"], saves=((), False))


# --- public functions --------------------------------------------------------------------------
def _pool(op, kernel, input, ksize, strides, padding, data_format, explicit_ok):
    if data_format not in (None, "NHWC", "NWC"):
        raise UnimplementedError(f"{op}: data_format={data_format!r} is not supported: tapeviz, "
                                 f"like TensorFlow on a CPU, pools NHWC tensors. Fix: "
                                 f"transpose to NHWC and data_format='NHWC' [Op:{op}]", op)
    x = tensor(input)
    if op == "AvgPool":
        require(x, op, "f", "a floating-point")
    rank = x._value.ndim
    if rank not in (3, 4):
        cls = UnimplementedError if rank == 5 else ValueError
        raise cls(f"{op}: input must be of rank 3 (N, W, C) or 4 (N, H, W, C), got shape "
                  f"{tuple(x.shape)}" + (" (3-D pooling is not supported by tapeviz)"
                                         if rank == 5 else "") +
                  ". Fix: add a batch axis, e.g. tv.expand_dims(x, 0)", *([op] * (rank == 5)))
    one_d = rank == 3
    if one_d:        # 1-D pooling is 2-D pooling over a height of 1
        x = expand_dims(x, 1)
        ksize = (1, _single(ksize, "ksize", op))
        strides = (1, _single(strides, "strides", op))
        if not isinstance(padding, str):
            padding = [[0, 0], [0, 0]] + [list(p) for p in padding][1:]
    window = spatial_pair(ksize, "ksize", op)
    steps = spatial_pair(strides, "strides", op)
    pads, _ = resolve_padding(padding, x._value.shape[1:3], window, steps, op, explicit_ok)
    y = apply(kernel, (x,), {"ksize": window, "strides": steps, "pads": pads})
    return squeeze(y, [1]) if one_d else y


def _single(value, what, op) -> int:
    raw = value if isinstance(value, (int, np.integer)) else list(value)
    if isinstance(raw, list):
        if len(raw) == 3:
            raw = raw[1]
        elif len(raw) == 1:
            raw = raw[0]
        else:
            raise InvalidArgumentError(f"{op}: {what} for 1-D pooling must be an int or a list "
                                       f"of 1 or 3, got {value!r} [Op:{op}]", op)
    return int(raw)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    """The max of each `ksize` window of NHWC `input`; the gradient goes to the first maximum.

    >>> import tapeviz as tv
    >>> x = tv.reshape(tv.range(16.0), (1, 4, 4, 1))
    >>> tv.nn.max_pool2d(x, 2, 2, "VALID")[0, :, :, 0].numpy().tolist()
    [[5.0, 7.0], [13.0, 15.0]]
    """
    return _pool("MaxPool", _max_pool, input, ksize, strides, padding, data_format, True)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    """The mean of each `ksize` window of NHWC `input` ('SAME' padding is not counted)."""
    return _pool("AvgPool", _avg_pool, input, ksize, strides, padding, data_format, False)


def max_pool(input, ksize, strides, padding, data_format=None, name=None):
    """Max pooling over the spatial axes of a rank-3 (1-D) or rank-4 (2-D) input."""
    return _pool("MaxPool", _max_pool, input, ksize, strides, padding, data_format, True)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):
    """Average pooling over the spatial axes of a rank-3 (1-D) or rank-4 (2-D) input."""
    return _pool("AvgPool", _avg_pool, input, ksize, strides, padding, data_format, False)


__all__: list = []      # tv.nn.* only, as in TensorFlow
