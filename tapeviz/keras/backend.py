"""`tv.keras.backend`: the small maths and settings Keras code calls through `K.`
(`K.mean`, `K.square`, `K.epsilon()`, `K.set_floatx('float64')`, `K.clear_session()`)."""
from __future__ import annotations

from ..engine import ops as _ops
from ..engine.convert import convert_to_tensor as _convert
from ..engine.dtypes import as_dtype
from . import activations as _activations
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


# --- the rest of the backend functions losses and metrics found in the wild are written with
# (`from tensorflow.keras import backend as K`: K.equal, K.pow, K.std, K.flatten, ...)
def _binary(op):
    def fn(x, y):
        return op(x, y)
    fn.__name__ = op.__name__
    return fn


equal, not_equal = _binary(_ops.equal), _binary(_ops.not_equal)
greater, greater_equal = _binary(_ops.greater), _binary(_ops.greater_equal)
less, less_equal = _binary(_ops.less), _binary(_ops.less_equal)


def pow(x, a):  # noqa: A001
    return _ops.pow(x, a)


def std(x, axis=None, keepdims=False):
    return _ops.reduce_std(x, axis=axis, keepdims=keepdims)


def var(x, axis=None, keepdims=False):
    return _ops.reduce_variance(x, axis=axis, keepdims=keepdims)


def prod(x, axis=None, keepdims=False):
    return _ops.reduce_prod(x, axis=axis, keepdims=keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001
    return _ops.reduce_any(_ops.cast(x, "bool"), axis=axis, keepdims=keepdims)


def all(x, axis=None, keepdims=False):  # noqa: A001
    return _ops.reduce_all(_ops.cast(x, "bool"), axis=axis, keepdims=keepdims)


def argmax(x, axis=-1):
    return _ops.argmax(x, axis=axis)


def argmin(x, axis=-1):
    return _ops.argmin(x, axis=axis)


def flatten(x):
    return _ops.reshape(x, [-1])


def batch_flatten(x):
    return _ops.reshape(x, [-1, int(_prod_of(x.shape[1:]))])


def _prod_of(dims):
    out = 1
    for d in dims:
        out *= int(d)
    return out


def reshape(x, shape):
    return _ops.reshape(x, shape)


def concatenate(tensors, axis=-1):
    return _ops.concat(list(tensors), axis=axis)


def expand_dims(x, axis=-1):
    return _ops.expand_dims(x, axis)


def squeeze(x, axis):
    return _ops.squeeze(x, [axis])


def transpose(x):
    return _ops.transpose(x)


def sign(x):
    return _ops.sign(x)


def round(x):  # noqa: A001
    return _ops.round(x)


def sigmoid(x):
    return _activations.sigmoid(x)     # (its logits cached, as Keras's)


def tanh(x):
    return _ops.tanh(x)


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """tf-keras's `K.relu`: `x` above `threshold` (else 0), capped at `max_value`, and
    `alpha·(x - threshold)` below it; the same ops as tf-keras, so the same gradients."""
    from ..engine.ops import nn as _nn
    x = _convert(x)
    if alpha != 0.0:
        if max_value is None and threshold == 0:
            return _nn.leaky_relu(x, alpha=alpha)
        negative_part = _nn.relu(-x + threshold) if threshold != 0 else _nn.relu(-x)
    clip_max = max_value is not None
    if threshold != 0:
        x = x * _ops.cast(_ops.greater(x, threshold), x.dtype)
    elif max_value == 6:
        x, clip_max = _nn.relu6(x), False
    else:
        x = _nn.relu(x)
    if clip_max:
        x = _ops.clip_by_value(x, _ops.cast(0, x.dtype), _ops.cast(max_value, x.dtype))
    if alpha != 0.0:
        x = x - _ops.cast(alpha, x.dtype) * negative_part
    return x


def elu(x, alpha=1.0):
    """tf-keras's `K.elu`: `tf.nn.elu`, its negative side scaled by `alpha`."""
    from ..engine.ops import nn as _nn
    x = _convert(x)
    res = _nn.elu(x)
    return res if alpha == 1 else _ops.where(_ops.greater(x, 0), res, alpha * res)


def softmax(x, axis=-1):
    return _activations.softmax(x, axis=axis)


def binary_crossentropy(target, output, from_logits=False):
    from ..engine.ops._base import tensor
    return _losses.elementwise_binary_crossentropy(tensor(target), tensor(output), from_logits)


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    return _losses.categorical_crossentropy(target, output, from_logits=from_logits, axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    return _losses.sparse_categorical_crossentropy(target, output, from_logits=from_logits,
                                                   axis=axis)


def constant(value, dtype=None, shape=None, name=None):
    from ..engine.convert import constant as make
    return make(value, dtype=dtype or floatx(), shape=shape)


def variable(value, dtype=None, name=None, constraint=None):
    from ..engine.tensor import Variable
    return Variable(value, dtype=dtype or floatx(), name=name, constraint=constraint)


def get_value(x):
    """The NumPy value of a variable or tensor (a learning rate in a callback)."""
    return x.numpy() if hasattr(x, "numpy") else x


def set_value(x, value):
    """Assign a NumPy value to a variable (`K.set_value(model.optimizer.lr, 0.01)`)."""
    x.assign(value)


def _more():
    # (K.ndim, K.one_hot, K.zeros, K.batch_dot, ...: defined in backend_tensors and
    # backend_batch, Keras's names here)
    from . import backend_batch, backend_tensors
    for module in (backend_tensors, backend_batch):
        for name in module.NAMES:
            globals()[name] = getattr(module, name)


_more()
