"""`tv.math.reduce_euclidean_norm`, `cumulative_logsumexp`, `accumulate_n` and `polyval`:
sums written with tapeviz's ops, so that their gradients (and second derivatives) are those
ops' and equal TensorFlow's fused kernels' gradients up to rounding.

`cumulative_logsumexp` subtracts the (gradient-free) maximum along the axis before `exp`, so
no term overflows; `polyval` is TensorFlow's own Horner loop over the coefficients converted
one by one (so an int coefficient beside a float `x` is a dtype mismatch, as there).
"""
from __future__ import annotations

import numpy as np

from .engine.ops import add_n, cast, cumsum, is_finite, log, reduce_max, reduce_sum, sqrt
from .engine.ops import exp, square, stop_gradient, where, zeros_like
from .engine.ops._base import FLOAT, require, tensor
from .engine.tensor import Tensor, TensorShape

__all__ = ["accumulate_n", "cumulative_logsumexp", "polyval", "reduce_euclidean_norm"]


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """√(Σ x²) over `axis` (all axes by default); integers give the truncated root in
    their own dtype, as TensorFlow's kernel."""
    x = tensor(input_tensor)
    if x._value.dtype.kind in "iu":
        wide = sqrt(reduce_sum(square(cast(x, np.float64)), axis=axis, keepdims=keepdims))
        return cast(wide, x.dtype)
    return sqrt(reduce_sum(square(x), axis=axis, keepdims=keepdims))


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """log(cumsum(exp(x))) along `axis`, without overflow; -inf for an empty (exclusive)
    prefix."""
    x = require(tensor(x), "CumulativeLogsumexp", FLOAT, "a floating-point")
    if x._value.ndim == 0:
        from .engine.errors import InvalidArgumentError
        raise InvalidArgumentError("ScanOp: Expected scan axis in the range [0, 0), but got "
                                   f"{axis} (x is a scalar). Fix: pass a tensor of rank >= 1 "
                                   "[Op:CumulativeLogsumexp]", "CumulativeLogsumexp")
    top = stop_gradient(reduce_max(x, axis=axis, keepdims=True))
    top = where(is_finite(top), top, zeros_like(top))
    with np.errstate(divide="ignore"):
        return log(cumsum(exp(x - top), axis=axis, exclusive=exclusive, reverse=reverse)) + top


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """The elementwise sum of a list of tensors of one shape and dtype (`add_n`)."""
    def _input_error():
        return ValueError("inputs must be a list of at least one Tensor with the same dtype and "
                          "shape. Fix: pass [t1, t2, ...] of one dtype and shape (cast or "
                          "broadcast_to them first)")
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise _input_error()
    inputs = [tensor(t) for t in inputs]
    if not all(t.dtype == inputs[0].dtype for t in inputs):
        raise _input_error()
    wanted = {tuple(t.shape) for t in inputs}
    if shape is not None:
        wanted.add(tuple(TensorShape(shape)))
    if len(wanted) > 1:
        raise ValueError(f"Shapes {' and '.join(str(list(w)) for w in sorted(wanted))} are "
                         "not compatible. Fix: give every input (and shape=) one shape")
    if tensor_dtype is not None and tensor_dtype != inputs[0].dtype:
        raise TypeError(f"The `tensor_dtype` argument is {tensor_dtype}, but `input` is of "
                        f"type {inputs[0].dtype}. These must be equal. Try casting the input "
                        "to the desired type.")
    return inputs[0] if len(inputs) == 1 else add_n(inputs)


def polyval(coeffs, x, name=None):
    """coeffs[0]·xⁿ⁻¹ + ... + coeffs[n-1], by Horner's rule; zeros for no coefficients."""
    if not isinstance(coeffs, list):
        raise ValueError(f"Argument coeffs must be list type. Received type {type(coeffs)}. "
                         "Fix: pass a list, e.g. tv.math.polyval([1.0, 0.0, -2.0], x)")
    x = tensor(x)
    if not coeffs:
        return zeros_like(x)
    coeffs = [tensor(c) for c in coeffs]
    p = coeffs[0]
    for c in coeffs[1:]:
        p = c + p * x
    return p if isinstance(p, Tensor) else tensor(p)
