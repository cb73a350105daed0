"""`tv.nn.moments` and `tv.nn.batch_normalization`, written with other ops exactly as
TensorFlow writes them, so their gradients are those ops' gradients and match TensorFlow's.
"""
from __future__ import annotations

from ._base import norm_axis, tensor
from .axes import squeeze
from .elementwise import cast, maximum, rsqrt, square, squared_difference
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
