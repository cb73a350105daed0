"""`tv.keras.backend`: the small maths and settings Keras code calls through `K.`
(`K.mean`, `K.square`, `K.epsilon()`, `K.set_floatx('float64')`, `K.clear_session()`)."""
from __future__ import annotations

from ..engine import ops as _ops
from ..engine.dtypes import as_dtype
from . import losses as _losses

_floatx = "float32"


def floatx() -> str:
    """The default float type of new layers' weights ('float32' unless set_floatx changed it)."""
    return _floatx


def set_floatx(value) -> None:
    global _floatx
    name = as_dtype(value).name
    if name not in ("float16", "float32", "float64"):
        raise ValueError(f"Unknown floatx type: {value!r}. Fix: use 'float16', 'float32' or "
                         "'float64'")
    _floatx = name


def epsilon() -> float:
    return _losses.EPSILON


def set_epsilon(value) -> None:
    _losses.EPSILON = float(value)


def clear_session() -> None:
    """Restart layer names at 'dense' (as Keras's clear_session does for its name counters)."""
    from . import layers      # (layers reads floatx from here: imported when called)
    layers.reset_uids()


def mean(x, axis=None, keepdims=False):
    return _ops.reduce_mean(x, axis=axis, keepdims=keepdims)


def sum(x, axis=None, keepdims=False):  # noqa: A001  (Keras's name)
    return _ops.reduce_sum(x, axis=axis, keepdims=keepdims)


def max(x, axis=None, keepdims=False):  # noqa: A001
    return _ops.reduce_max(x, axis=axis, keepdims=keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001
    return _ops.reduce_min(x, axis=axis, keepdims=keepdims)


def square(x):
    return _ops.square(x)


def sqrt(x):
    return _ops.sqrt(x)


def exp(x):
    return _ops.exp(x)


def log(x):
    return _ops.log(x)


def abs(x):  # noqa: A001
    return _ops.abs(x)


def clip(x, min_value, max_value):
    return _ops.clip_by_value(x, min_value, max_value)


def maximum(x, y):
    return _ops.maximum(x, y)


def minimum(x, y):
    return _ops.minimum(x, y)


def dot(x, y):
    return _ops.matmul(x, y)


def cast(x, dtype):
    return _ops.cast(x, dtype)


def stop_gradient(x):
    return _ops.stop_gradient(x)


def shape(x):
    return _ops.shape(x)


def int_shape(x):
    return tuple(x.shape)


def ones_like(x):
    return _ops.ones_like(x)


def zeros_like(x):
    return _ops.zeros_like(x)
