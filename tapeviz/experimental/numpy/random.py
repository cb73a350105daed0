"""`tnp.random`: NumPy's random names over `tf.random` (seeded by `tnp.random.seed`, which is
`tf.random.set_seed`, as in TensorFlow). The draws are tapeviz's own, as `tf.random`'s are;
shapes and dtypes (float64 by default) are TensorFlow's."""
from __future__ import annotations

import numpy as np

from ...engine import dtypes as _dt
from ...engine import ops as _ops
from ...engine.errors import InvalidArgumentError
from ...engine.tensor import Tensor
from .promotion import asarray, dtype_arg, np_result_type

__all__ = ["seed", "randn", "standard_normal", "uniform", "random", "rand", "randint"]


def seed(s) -> None:
    try:
        s = int(s)
    except TypeError:
        raise ValueError(f"Argument `s` got an invalid value {s}. Only integers are "
                         "supported.") from None
    _ops.set_seed(s)


def _size(size):
    if size is None:
        return []
    if isinstance(size, (int, np.integer)) or (isinstance(size, Tensor) and size.ndim == 0):
        return [int(size)]
    return [int(d) for d in size]


def _float():
    return _dt.from_numpy(np_result_type(float))


def standard_normal(size=None) -> Tensor:
    return _ops.normal(_size(size), dtype=_float())


def randn(*args) -> Tensor:
    """Normal draws of shape `args` (float64)."""
    return standard_normal(size=args)


def uniform(low=0.0, high=1.0, size=None) -> Tensor:
    dtype = np_result_type(float)
    low, high = asarray(low, dtype), asarray(high, dtype)
    if size is None:
        size = np.broadcast_shapes(low.shape, high.shape)
    elif np.ndim(getattr(size, "_value", size)) == 0:
        raise InvalidArgumentError(
            f"RandomUniform: shape must be a vector of {{int32,int64}}, got shape [] (size="
            f"{size!r}). Fix: a list of dimensions, e.g. size=[{size!r}] [Op:RandomUniform]",
            "RandomUniform")
    return _ops.uniform(_size(size), minval=low, maxval=high, dtype=_dt.from_numpy(dtype))


def random(size=None) -> Tensor:
    return uniform(0.0, 1.0, size)


def rand(*size) -> Tensor:
    return uniform(0.0, 1.0, size)


def randint(low, high=None, size=None, dtype=np.int64) -> Tensor:
    """Integers in [low, high) (in [0, low) without `high`), int64 unless int32 is asked."""
    low = int(low)
    if high is None:
        low, high = 0, low
    wanted = dtype_arg(dtype)
    if wanted not in (np.int32, np.int64):
        raise ValueError(f"Argument `dtype` got an invalid value {dtype}. Only those "
                         "convertible to (<class 'numpy.int32'>, <class 'numpy.int64'>) are "
                         "supported.")
    return _ops.uniform(_size(size), minval=low, maxval=int(high),
                        dtype=_dt.from_numpy(wanted))
