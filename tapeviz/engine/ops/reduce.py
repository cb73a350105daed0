"""Broadcasts and reductions (each the other's VJP), scans and arg-reductions, with
TensorFlow's `axis=` / `keepdims=`.

`broadcast_to` spreads a value over new or stretched axes; its VJP sums `g` back over them
(`sum_to`, the engine's unbroadcast); `reduce_sum`'s VJP spreads `g` back (`spread_to`).
"""
from __future__ import annotations

from math import prod as _prod

import numpy as np

from .. import dtypes as dt
from ..errors import InvalidArgumentError
from ..op import apply, defop
from ._base import flag, lead, norm_axis, require, shape_list, tensor
from .axes import reshape
from .elementwise import cast, divide_no_nan, equal, exp, not_equal, sqrt, square


# --- broadcasts and sums: each is the other's VJP -----------------------------------------
def _broadcast_to_vjp(g, y, x, shape):
    # the k Jacobian-batch axes stay in front: sum the axes broadcasting added behind them
    k = lead(g, y)
    added = y.ndim - x.ndim
    if added:
        g = reduce_sum(g, axis=list(range(k, k + added)))
    return sum_to(g, g.shape[:k] + x.shape)


_NDITER_FLAGS, _READONLY = ["multi_index", "refs_ok", "zerosize_ok"], ["readonly"]


def _broadcast_forward(x, shape):
    if shape and min(shape) >= 0 and type(x) is np.ndarray:
        # np.broadcast_to's own nditer, without the Python checks around it (half its cost):
        # the same read-only view
        return np.nditer((x,), flags=_NDITER_FLAGS, op_flags=_READONLY, itershape=shape,
                         order="C").itviews[0]
    return np.broadcast_to(x, shape)


_broadcast_to = defop("BroadcastTo", _broadcast_forward,
                      [_broadcast_to_vjp],
                      "y = broadcast_to(x, shape)", ["∂x = sum of g over the broadcast axes"])


def broadcast_to(input, shape, name=None):
    x = tensor(input)
    shape = tuple(shape_list(shape))
    if tuple(x.shape) == shape:
        return x
    return apply(_broadcast_to, (x,), {"shape": shape})


def spread_to(x, shape: tuple):
    """`broadcast_to` for a VJP (``shape`` a tuple of ints): `sum_to`'s counterpart (a
    reduction's VJP spreads its upstream gradient)."""
    if x._value.shape == shape:
        return x
    return apply(_broadcast_to, (x,), {"shape": shape})


#: the all-ones vectors `_sum_to_forward` multiplies by, by (length, dtype): a bias's
#: gradient is summed to the same shape every step (a few entries; cleared past 32)
_ONES: dict = {}
_BLAS_SUM = (np.dtype(np.float32), np.dtype(np.float64))


def _sum_leading(x, k):
    """`x` summed over its first `k` axes, as `ones @ x` (BLAS gemv), or None when that does
    not apply. A bias's gradient is such a sum (the batch axis); NumPy sums a leading axis
    row after row at 5-20 ns an element when rows are short, gemv at about 1 ns, with the
    same float32 accumulation (in measurements about 3x closer to the float64 sum) and the
    same NaN/Inf results (only the sign of an all-(-0.0) sum differs: +0.0)."""
    if x.dtype not in _BLAS_SUM or not x.flags.c_contiguous or x.size == 0:
        return None
    rows = _prod(x.shape[:k])
    key = (rows, x.dtype)
    ones = _ONES.get(key)
    if ones is None:
        if len(_ONES) >= 32:
            _ONES.clear()
        ones = _ONES[key] = np.ones(rows, x.dtype)
    return ones.dot(x.reshape(rows, -1))   # (the method: np.dot adds its dispatcher's call)


def _sum_to_forward(x, shape):
    extra = x.ndim - len(shape)
    axes = tuple(range(extra)) + tuple(i + extra for i, n in enumerate(shape)
                                       if n == 1 and x.shape[i + extra] != 1)
    if not axes:
        return x.reshape(shape)
    if axes[-1] == len(axes) - 1 and len(axes) < x.ndim:    # a leading block of axes
        out = _sum_leading(x, len(axes))
        if out is not None:
            return out.reshape(shape)
    return np.add.reduce(x, axis=axes, keepdims=True, dtype=x.dtype).reshape(shape)


def _sum_to_vjp(g, y, x, shape):
    # put back (as 1s) the axes the sum removed, behind the k Jacobian-batch axes
    k = lead(g, y)
    if x.ndim > len(shape):
        g = reshape(g, g.shape[:k] + (1,) * (x.ndim - len(shape)) + tuple(shape))
    return spread_to(g, g._value.shape[:k] + x._value.shape)


_sum_to = defop("SumToShape", _sum_to_forward, [_sum_to_vjp],
                "y = x summed to shape", ["∂x = broadcast_to(g, x.shape)"], saves=((), False))


def sum_to(x, shape):
    """Sum `x` over the axes broadcasting added, giving `shape` (the engine's unbroadcast)."""
    shape = tuple(shape)
    if tuple(x._value.shape) == shape:
        return x
    return apply(_sum_to, (x,), {"shape": shape})


# --- reductions ------------------------------------------------------------------------------
def _kept_shape(x, axes):
    return tuple(1 if (axes is None or i in axes) else s for i, s in enumerate(x._value.shape))


def _spread(g, y, x, axes):
    """`g` shaped like the reduced output, broadcast back over the reduced axes of `x`."""
    k = lead(g, y)
    if k or g._value.ndim:   # (a scalar needs no reshape: broadcasting adds every axis)
        g = reshape(g, g.shape[:k] + _kept_shape(x, axes))
    return spread_to(g, g._value.shape[:k] + x._value.shape)


def _reduction(name, forward, vjp, formula, grad, kinds="fiu", saves=None):
    def np_forward(x, axes, keepdims):
        out = forward(x, axes, keepdims)
        return out.astype(x.dtype, copy=False) if out.dtype != x.dtype else out
    op = defop(name, np_forward, None if vjp is None else [vjp], formula, [grad] if grad else [],
               saves=saves)

    def fn(input_tensor, axis=None, keepdims=False, name=None):
        x = tensor(input_tensor)
        require(x, op.name, kinds, "a numeric")
        return apply(op, (x,), {"axes": norm_axis(axis, x._value.ndim, op.name, x.shape, True),
                                "keepdims": bool(keepdims)})
    fn.op = op
    return fn


# np.add.reduce is what np.sum calls, without np.sum's Python wrapper
reduce_sum = _reduction("Sum", lambda x, axes, keepdims: np.add.reduce(x, axis=axes,
                                                                       keepdims=keepdims),
                        lambda g, y, x, axes, keepdims: _spread(g, y, x, axes),
                        "y = Σ x", "∂x = g broadcast over the summed axes", saves=((), False))


def _mean_forward(x, axes, keepdims):
    count = x.size if axes is None else int(np.prod([x.shape[a] for a in axes]))
    total = np.add.reduce(x, axis=axes, keepdims=keepdims)
    if x.dtype.kind in "iu":
        return np.trunc(total / max(count, 1)).astype(x.dtype)   # TF divides integers exactly
    # sum / count rather than np.mean: an empty mean is NaN, as TF, without NumPy's warning
    return (total / x.dtype.type(count)).astype(x.dtype, copy=False)


def _mean_vjp(g, y, x, axes, keepdims):
    count = x._value.size if axes is None else int(np.prod([x._value.shape[a] for a in axes]))
    return _spread(g, y, x, axes) / float(max(count, 1))


reduce_mean = _reduction("Mean", _mean_forward, _mean_vjp, "y = mean(x)",
                         "∂x = g / n broadcast over the averaged axes", saves=((), False))


def _minmax_vjp(g, y, x, axes, keepdims):
    # ties share the gradient equally, as TensorFlow's _MinOrMaxGrad
    k = lead(g, y)
    y_full = _spread(y, y, x, axes)
    chosen = cast(equal(y_full, x), g.dtype)
    count = _spread(reduce_sum(chosen, axis=axes, keepdims=keepdims), y, x, axes)
    return _spread(g, y, x, axes) * (chosen / count) if k == 0 else \
        _spread(g, y, x, axes) * (chosen / count)


def _extreme(np_fn, sign):
    """max/min; over nothing they give TensorFlow's identity (-inf/+inf, or the int limit)."""
    def forward(x, axes, keepdims):
        if x.size == 0 and x.dtype.kind in "fiu":
            info = np.iinfo(x.dtype) if x.dtype.kind in "iu" else None
            start = (sign * np.inf if info is None else info.max if sign > 0 else info.min)
            return np_fn(x, axis=axes, keepdims=keepdims, initial=start)
        return np_fn(x, axis=axes, keepdims=keepdims)
    return forward


reduce_max = _reduction("Max", _extreme(np.max, -1),
                        _minmax_vjp, "y = max(x)", "∂x = g at the maximum (shared by ties)")
reduce_min = _reduction("Min", _extreme(np.min, 1),
                        _minmax_vjp, "y = min(x)", "∂x = g at the minimum (shared by ties)")


def _prod_others(x, axes):
    """For each element, the product of the others along `axes` (exact with zeros)."""
    axes = tuple(range(x.ndim)) if axes is None else axes
    moved = np.moveaxis(x, axes, tuple(range(len(axes))))
    flat = moved.reshape((-1,) + moved.shape[len(axes):])
    before = np.cumprod(np.concatenate([np.ones_like(flat[:1]), flat[:-1]]), axis=0)
    after = np.cumprod(np.concatenate([np.ones_like(flat[:1]), flat[::-1][:-1]]), axis=0)[::-1]
    out = (before * after).reshape(moved.shape)
    return np.moveaxis(out, tuple(range(len(axes))), axes)


def _prod_others_vjp(g, y, x, axes):
    # y_k = Π_{i≠k} x_i, so ∂y_k/∂x_j = y_k / x_j for k ≠ j: the second derivative of
    # reduce_prod (exact where x ≠ 0)
    k = lead(g, y)
    n = x._value.ndim
    if np.any((x._value == 0) | np.isinf(x._value)):
        # the quotient below would be 0/0 or inf/inf (NaN) where the true value is finite
        # or infinite: the exact sum of products instead (a NaN factor stays NaN either way)
        return apply(_prod_others_grad, (g, x), {"axes": axes, "k": k})
    red = [a + k for a in (range(n) if axes is None else axes)]
    gy = g * y
    return (reduce_sum(gy, axis=red, keepdims=True) - gy) / x


def _prod_others_grad_forward(g, x, axes, k):
    """gx_j = Σ_{l≠j} g_l Π_{i∉{j,l}} x_i along `axes`, exact with zeros (O(m²) per slice)."""
    axes = tuple(range(x.ndim)) if axes is None else tuple(axes)
    r = len(axes)
    lead_shape = g.shape[:k]
    xm = np.moveaxis(x, axes, tuple(range(r)))
    gm = np.moveaxis(g, tuple(a + k for a in axes), tuple(range(k, k + r)))
    m = int(np.prod(xm.shape[:r], dtype=np.int64))
    xf = xm.reshape((m,) + xm.shape[r:])
    gf = gm.reshape(lead_shape + (m,) + xm.shape[r:])
    out = np.zeros_like(gf)
    for j in range(m):
        xj = xf.copy()
        xj[j] = 1
        pj = _prod_others(xj, (0,))        # Π_{i∉{j,l}} x_i for every l ≠ j
        pj[j] = 0
        out[(slice(None),) * k + (j,)] = np.sum(gf * pj, axis=k)
    out = out.reshape(lead_shape + xm.shape)
    return np.moveaxis(out, tuple(range(k, k + r)), tuple(a + k for a in axes))


_prod_others_grad = defop("ProdOthersGrad", _prod_others_grad_forward, None,
                          "y_j = Σ_{l≠j} g_l Π_{i∉{j,l}} x_i (where some x is 0)")


_prod_others_op = defop("ProdOthers", lambda x, axes: _prod_others(x, axes),
                        [_prod_others_vjp], "y = product of the other elements",
                        ["∂x = (Σ g·y - g·y) / x"])
reduce_prod = _reduction("Prod", lambda x, axes, keepdims: np.prod(x, axis=axes,
                                                                   keepdims=keepdims),
                         lambda g, y, x, axes, keepdims: _spread(g, y, x, axes) *
                         apply(_prod_others_op, (x,), {"axes": axes}),
                         "y = Π x", "∂x = g · (product of the other elements)")


def _lse_forward(x, axes, keepdims):
    m = np.max(x, axis=axes, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    out = np.log(np.sum(np.exp(x - m), axis=axes, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axes)


reduce_logsumexp = _reduction("LogSumExp", _lse_forward,
                              lambda g, y, x, axes, keepdims:
                              _spread(g, y, x, axes) * exp(x - _spread(y, y, x, axes)),
                              "y = log Σ eˣ", "∂x = g · softmax(x)", kinds="f")


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    x = tensor(input_tensor)
    if x._value.dtype.kind != "f":    # TensorFlow checks in Python: TypeError, not an op error
        raise TypeError(f"reduce_variance/reduce_std: input must be floating-point, got "
                        f"{x.dtype.name} with shape {tuple(x.shape)}. Fix: tv.cast(x, tv.float32)")
    mean = reduce_mean(x, axis=axis, keepdims=True)
    return reduce_mean(square(x - mean), axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    return sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))


def reduce_any(input_tensor, axis=None, keepdims=False, name=None):
    x = tensor(input_tensor)
    return apply(_any, (x,), {"axes": norm_axis(axis, x._value.ndim, "Any", x.shape, True),
                              "keepdims": keepdims})


def reduce_all(input_tensor, axis=None, keepdims=False, name=None):
    x = tensor(input_tensor)
    return apply(_all, (x,), {"axes": norm_axis(axis, x._value.ndim, "All", x.shape, True),
                              "keepdims": keepdims})


_any = defop("Any", lambda x, axes, keepdims: np.any(x, axis=axes, keepdims=keepdims), None,
             "y = any(x)")
_all = defop("All", lambda x, axes, keepdims: np.all(x, axis=axes, keepdims=keepdims), None,
             "y = all(x)")


# --- scans -----------------------------------------------------------------------------------
def _scan(np_scan, identity):
    def forward(x, axis, exclusive, reverse):
        if reverse:
            x = np.flip(x, axis)
        if exclusive:     # shifted by one, not cumsum - x: inf - inf would give NaN
            x = np.moveaxis(x, axis, 0)
            x = np.moveaxis(np.concatenate([np.full_like(x[:1], identity), x[:-1]]), 0, axis)
        out = np_scan(x, axis=axis, dtype=x.dtype)
        return np.flip(out, axis) if reverse else out
    return forward


def _reverse_cumsum(g, y, axis, exclusive, reverse):
    return apply(_cumsum, (g,), {"axis": axis + lead(g, y), "exclusive": exclusive,
                                 "reverse": not reverse})


_cumsum = defop("Cumsum", _scan(np.cumsum, 0),
                [lambda g, y, x, axis, exclusive, reverse:
                 _reverse_cumsum(g, y, axis, exclusive, reverse)],
                "y = cumulative sum of x", ["∂x = reverse cumulative sum of g"])
# TensorFlow's gradient (math_grad._CumprodGrad): divide_no_nan by x, so 0 where x holds a
# zero (not the true derivative there, the product of the other factors)
_cumprod = defop("Cumprod", _scan(np.cumprod, 1),
                 [lambda g, y, x, axis, exclusive, reverse:
                  divide_no_nan(_reverse_cumsum(g * y, y, axis, exclusive, reverse), x)],
                 "y = cumulative product of x",
                 ["∂x = reverse cumulative sum of g · y, / x (0 where x = 0)"])


def _scan_call(op, x, axis, exclusive, reverse):
    x = tensor(x)
    if np.ndim(axis._value if hasattr(axis, "_value") else axis) != 0:
        raise InvalidArgumentError(f"{op.name}: axis must be a scalar, got {axis!r} (input "
                                   f"shape {tuple(x.shape)}). Fix: pass one int axis "
                                   f"[Op:{op.name}]", op.name)
    return apply(op, (x,), {"axis": norm_axis(axis, x._value.ndim, op.name, x.shape)[0],
                            "exclusive": flag(exclusive, "exclusive", op.name, x.shape),
                            "reverse": flag(reverse, "reverse", op.name, x.shape)})


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    return _scan_call(_cumsum, x, axis, exclusive, reverse)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    return _scan_call(_cumprod, x, axis, exclusive, reverse)


# --- arg-reductions: integer outputs, no gradient ---------------------------------------------------
def _arg(name, np_fn):
    op = defop(name, lambda x, axis, dtype: np_fn(x, axis=axis).astype(dtype), None,
               f"y = {name.lower()}(x)")

    def fn(input, axis=None, output_type=None, name=None):
        x = require(tensor(input), op.name, "fiub", "a numeric")
        if isinstance(axis, (list, tuple)) or np.ndim(getattr(axis, "_value", 0)):
            raise TypeError(f"{op.name}: axis must be int or Tensor with integer datatype, got "
                            f"{axis!r} for an input of shape {tuple(x.shape)}. Fix: pass one "
                            f"axis (tv.{op.name.lower()} reduces a single axis)")
        axis = 0 if axis is None else norm_axis(axis, x._value.ndim, op.name, x.shape)[0]
        out_dtype = dt.as_dtype(output_type) if output_type is not None else dt.int64
        if out_dtype.name not in ("int16", "int32", "int64", "uint16"):
            raise InvalidArgumentError(
                f"{op.name}: output_type must be int16, uint16, int32 or int64, got "
                f"{out_dtype.name} (input shape {tuple(x.shape)}). Fix: output_type=tv.int32 "
                f"or tv.int64, then tv.cast the indices [Op:{op.name}]", op.name)
        return apply(op, (x,), {"axis": axis, "dtype": out_dtype.np})
    fn.op = op
    return fn


argmax = _arg("ArgMax", np.argmax)
argmin = _arg("ArgMin", np.argmin)


def count_nonzero(input, axis=None, keepdims=False, dtype=None, name=None):
    x = tensor(input)
    return cast(reduce_sum(cast(not_equal(x, 0), dt.int64), axis=axis, keepdims=keepdims),
                dtype or dt.int64)


__all__ = ["argmax", "argmin", "broadcast_to", "count_nonzero", "cumsum",
           "reduce_all", "reduce_any", "reduce_logsumexp", "reduce_max", "reduce_mean", "reduce_min",
           "reduce_prod", "reduce_std", "reduce_sum", "reduce_variance"]
