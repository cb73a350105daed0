"""`tv.nn.moments` and `tv.nn.batch_normalization`, written with other ops exactly as
TensorFlow writes them, so their gradients are those ops' gradients and match TensorFlow's.
"""
from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from ._base import norm_axis, tensor
from .linalg import matmul
from .axes import squeeze
from .elementwise import cast, maximum, pow, rsqrt, square, squared_difference
from .gradient_ops import stop_gradient
from .reduce import reduce_mean, reduce_sum


def moments(x, axes, shift=None, keepdims=False, name=None):
    """(mean, variance) of `x` over `axes`; the variance is the biased one (divided by n), and
    its gradient treats the mean as a constant (`stop_gradient`), as TensorFlow's.

    >>> import tapeviz as tv
    >>> [float(t) for t in tv.nn.moments(tv.constant([1.0, 2.0, 6.0]), axes=[0])]
    [3.0, 4.666666507720947]
    """
    y = tensor(x)
    if y._value.dtype.name == "float16":
        y = cast(y, "float32")
    mean = reduce_mean(y, axes, keepdims=True)
    variance = reduce_mean(squared_difference(y, stop_gradient(mean)), axes, keepdims=True)
    if not keepdims:
        axes = list(norm_axis(axes, y._value.ndim, "moments", y.shape, reduction=True) or ())
        mean, variance = squeeze(mean, axes), squeeze(variance, axes)
    return mean, variance


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """(x - mean) · scale / √(variance + ε) + offset, as TensorFlow computes it:
    x · inv + (offset - mean · inv) with inv = scale / √(variance + ε)."""
    x = tensor(x)
    inv = rsqrt(variance + variance_epsilon)
    if scale is not None:
        inv = inv * scale
    shift = offset - mean * inv if offset is not None else -mean * inv
    return x * cast(inv, x.dtype) + cast(shift, x.dtype)


__all__: list = []      # tv.nn.* only, as in TensorFlow


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(Σ x², epsilon)) over `axis` (all axes when None), written with other ops
    exactly as TensorFlow writes it, so the gradient is theirs (zero where Σ x² < epsilon).

    >>> import tapeviz as tv
    >>> tv.math.l2_normalize([3.0, 4.0]).numpy().tolist()
    [0.6000000238418579, 0.800000011920929]
    """
    x = tensor(x)
    axis = dim if axis is None else axis
    square_sum = reduce_sum(square(x), axis, keepdims=True)
    return x * rsqrt(maximum(square_sum, epsilon))


def local_response_normalization(input, depth_radius=5, bias=1, alpha=1, beta=0.5, name=None):
    """Each channel divided by (bias + alpha · the sum of squares of the channels within
    depth_radius of it) ** beta (4-D float32/float16 input, channels last). The window sum
    is one matmul with a band matrix, so the gradient is the ops'."""
    x = tensor(input)
    if x.dtype.name not in ("float32", "float16"):
        raise InvalidArgumentError(f"LRN: Value for attr 'T' of {x.dtype.name} is not in the "
                                   "list of allowed values: half, bfloat16, float (input shape "
                                   f"{tuple(x.shape)}). Fix: tf.cast(x, tf.float32) "
                                   "[Op:LRN]", "LRN")
    if x._value.ndim != 4:
        raise InvalidArgumentError(f"LRN: in must be 4-dimensional, got shape {tuple(x.shape)}."
                                   " Fix: pass (batch, height, width, channels) [Op:LRN]", "LRN")
    channels = np.arange(x._value.shape[-1])
    band = (np.abs(channels[:, None] - channels[None, :]) <= depth_radius).astype(x._value.dtype)
    window = matmul(square(x), band)
    return x / pow(bias + alpha * window, beta)


lrn = local_response_normalization
