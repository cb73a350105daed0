"""More of `tf.keras.backend` (`K.`), as tf-keras defines them on TensorFlow ops: the image
data format, `ndim`, `eval`, `dtype`, `cast_to_floatx`, `one_hot`, `permute_dimensions`,
`arange`, `stack`, `gather`, `cumsum`, `repeat_elements`, `tile`, `l2_normalize`,
`sin`, `cos`, `softplus`, `softsign`, `zeros`/`ones` (Variables, as Keras's, unless a
dimension is 0), `name_scope`, and the random draws `random_normal`, `random_uniform`,
`truncated_normal`, `random_bernoulli`."""
from __future__ import annotations

import numpy as np

from .. import linalg as _linalg
from ..engine import ops as _ops
from ..engine.convert import convert_to_tensor as _convert
from ..engine.dtypes import as_dtype
from ..engine.ops import nn as _nn


def image_data_format() -> str:
    """Always 'channels_last': tapeviz computes images channels last, as TensorFlow on CPU."""
    return "channels_last"


def set_image_data_format(data_format) -> None:
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"Unknown data_format: {data_format}")
    if data_format == "channels_first":
        raise NotImplementedError("set_image_data_format('channels_first') is not supported by "
                                  "tapeviz, which computes images channels last (as TensorFlow "
                                  "on a CPU). Fix: keep 'channels_last' and give images as "
                                  "(batch, height, width, channels)")


def ndim(x) -> int:
    return _convert(x).shape.rank


def eval(x):  # noqa: A001  (Keras's name)
    return np.asarray(_convert(x).numpy())


def dtype(x) -> str:
    return _convert(x).dtype.name


def cast_to_floatx(x):
    from .backend import floatx
    if hasattr(x, "dtype") and hasattr(x, "shape") and not isinstance(x, np.ndarray):
        return _ops.cast(x, floatx())
    return np.asarray(x, dtype=floatx())


def one_hot(indices, num_classes):
    return _ops.one_hot(indices, depth=num_classes, axis=-1)


def permute_dimensions(x, pattern):
    return _ops.transpose(x, perm=pattern)


def arange(start, stop=None, step=1, dtype="int32"):
    if stop is None and start < 0:
        start = 0
    result = _ops.range(start, limit=stop, delta=step)
    return result if dtype == "int32" else _ops.cast(result, dtype)


def stack(x, axis=0):
    return _ops.stack(x, axis=axis)


def gather(reference, indices):
    return _ops.gather(reference, indices)


def cumsum(x, axis=0):
    return _ops.cumsum(x, axis=axis)


def repeat_elements(x, rep, axis):
    return _ops.repeat(x, rep, axis=axis)


def tile(x, n):
    return _ops.tile(x, [n] if isinstance(n, int) else n)


def l2_normalize(x, axis=None):
    return _linalg.l2_normalize(x, axis=axis)


def sin(x):
    return _ops.sin(x)


def cos(x):
    return _ops.cos(x)


def softplus(x):
    return _nn.softplus(x)


def softsign(x):
    return _nn.softsign(x)


def _filled(maker, shape, dtype, name):
    from .backend import floatx, variable
    dtype = as_dtype(dtype or floatx())
    value = maker(shape, dtype)
    if all(value.shape.as_list()):
        return variable(value, dtype=dtype, name=name)
    return value


def zeros(shape, dtype=None, name=None):
    return _filled(_ops.zeros, shape, dtype, name)


def ones(shape, dtype=None, name=None):
    return _filled(_ops.ones, shape, dtype, name)


def name_scope(name):
    from ..engine.tape import name_scope as _name_scope
    return _name_scope(name)


def _seed(seed):
    # tf-keras draws an unseeded call's seed from NumPy's global generator: drawn here too,
    # so that a program's own NumPy draws afterwards are the ones they are under TensorFlow
    return np.random.randint(10e6) if seed is None else seed


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    from .backend import floatx
    return _ops.normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(),
                       seed=_seed(seed))


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    from .backend import floatx
    return _ops.uniform(shape, minval=minval, maxval=maxval, dtype=dtype or floatx(),
                        seed=_seed(seed))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    from .backend import floatx
    return _ops.truncated_normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(),
                                 seed=_seed(seed))


def random_bernoulli(shape, p=0.0, dtype=None, seed=None):
    """1 where a uniform draw is <= p, else 0."""
    from .backend import floatx
    dtype = dtype or floatx()
    draws = _ops.uniform(shape, dtype=dtype, seed=_seed(seed))
    return _ops.where(draws <= p, _ops.ones(shape, dtype=dtype), _ops.zeros(shape, dtype=dtype))


NAMES = ("image_data_format", "set_image_data_format", "ndim", "eval", "dtype",
         "cast_to_floatx", "one_hot", "permute_dimensions", "arange", "stack", "gather",
         "cumsum", "repeat_elements", "tile", "l2_normalize", "sin", "cos",
         "softplus", "softsign", "zeros", "ones", "name_scope", "random_normal",
         "random_uniform", "truncated_normal", "random_bernoulli")
