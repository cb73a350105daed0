"""`tv.keras.activations`: activations by name, as Keras's."""
from __future__ import annotations

from .. import nn as _nn
from ..engine.ops import elementwise as _ew
from ..engine.ops._base import tensor as _tensor
from .cached_logits import keep_logits


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """max(x, 0) by default; `alpha` leaks below `threshold`, `max_value` caps."""
    if alpha == 0 and max_value is None and threshold == 0:
        return _nn.relu(x)
    x = _tensor(x)
    if threshold != 0:
        out = _ew.where(x > threshold, x, _ew.zeros_like(x))
    else:
        out = _nn.relu(x)
    if max_value is not None:
        out = _ew.minimum(out, max_value)
    if alpha != 0:
        out = out + alpha * _ew.where(x < threshold, x - threshold, _ew.zeros_like(x))
    return out


def sigmoid(x):
    x = _tensor(x)
    return keep_logits(_ew.sigmoid(x), x)     # a crossentropy of it uses x (cached_logits.py)


def tanh(x):
    return _ew.tanh(x)


def softmax(x, axis=-1):
    x = _tensor(x)
    if x.ndim <= 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {x}. "
                         "Fix: add a batch axis (tv.expand_dims(x, 0)) or use tv.nn.softmax")
    if isinstance(axis, (tuple, list)):    # (tv.nn.softmax takes one axis)
        from ..engine.ops import exp, reduce_max, reduce_sum
        numerator = exp(x - reduce_max(x, axis=axis, keepdims=True))
        output = numerator / reduce_sum(numerator, axis=axis, keepdims=True)
    else:
        output = _nn.softmax(x, axis=axis)
    return keep_logits(output, x)     # a crossentropy of it uses x (cached_logits.py)


def linear(x):
    return x


def elu(x, alpha=1.0):
    out = _nn.elu(x)
    if alpha == 1.0:
        return out
    return _ew.where(_tensor(x) > 0, out, out * alpha)


def selu(x):
    return _nn.selu(x)


def gelu(x, approximate=False):
    return _nn.gelu(x, approximate=approximate)


def softplus(x):
    return _nn.softplus(x)


def softsign(x):
    return _nn.softsign(x)


def swish(x):
    return _nn.swish(x)


silu = swish


def exponential(x):
    return _ew.exp(x)


def leaky_relu(x, alpha=0.3):
    return _nn.leaky_relu(x, alpha=alpha)


_BY_NAME = {f.__name__: f for f in (relu, sigmoid, tanh, softmax, linear, elu, selu, gelu,
                                    softplus, softsign, swish, exponential, leaky_relu)}
_BY_NAME["silu"] = swish


def hard_sigmoid(x):
    """Keras 2's piecewise-linear sigmoid: clip(0.2·x + 0.5, 0, 1)."""
    return _ew.clip_by_value(_tensor(x) * 0.2 + 0.5, 0.0, 1.0)


_BY_NAME["hard_sigmoid"] = hard_sigmoid


def get(identifier):
    """An activation from its name, a callable, or None (linear)."""
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        from .saving_config import custom_object     # `get_custom_objects()["mish"] = mish`
        found = custom_object(identifier)
        if found is not None:
            return found
        try:
            return _BY_NAME[identifier]
        except KeyError:
            raise ValueError(f"Unknown activation function: '{identifier}'. Known names: "
                             f"{sorted(_BY_NAME)}") from None
    if callable(identifier):
        return identifier
    raise TypeError(f"Could not interpret activation function identifier: {identifier!r}")


def serialize(activation) -> str:
    return getattr(activation, "__name__", repr(activation))
