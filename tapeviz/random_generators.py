"""`tv.random.Generator` and the stateless draws (`stateless_normal`, ...), as TensorFlow's
API: a generator made `from_seed` gives the same draws on every run, two generators from one
seed give the same draws, a stateless draw depends only on its `seed` pair. The numbers are
tapeviz's (NumPy's PCG64, seeded from the seed), not TensorFlow's Philox draws.
"""
from __future__ import annotations

import numpy as np

from .engine import dtypes as dt
from .engine.convert import convert_to_tensor
from .engine.errors import InvalidArgumentError
from .engine.ops import makers
from .engine.ops.makers import _make

__all__ = ["Algorithm", "Generator", "get_global_generator", "set_global_generator",
           "stateless_categorical", "stateless_normal", "stateless_truncated_normal",
           "stateless_uniform"]


class Algorithm:
    """TensorFlow's names of its generator algorithms (accepted; tapeviz draws with PCG64)."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def _int_bounds_given(minval, maxval, dtype):
    if dt.as_dtype(dtype).is_integer and (minval is None) != (maxval is None):
        raise ValueError(f"For integer dtype {dt.as_dtype(dtype)!r}, minval and maxval must be "
                         f"both `None` or both non-`None`; got minval={minval} and "
                         f"maxval={maxval}")


class Generator:
    """A random number generator with its own state (`Generator.from_seed(seed)`)."""

    def __init__(self, copy_from=None, state=None, alg=None):
        self._seed = None
        self._rng = np.random.default_rng(None if copy_from is None else copy_from._seed)
        self.algorithm = Algorithm.PHILOX if alg is None else alg

    @classmethod
    def from_seed(cls, seed, alg=None):
        g = cls(alg=alg)
        g.reset_from_seed(seed)
        return g

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        return cls(alg=alg)

    def reset_from_seed(self, seed):
        self._seed = int(np.asarray(getattr(seed, "_value", seed)))
        self._rng = np.random.default_rng(self._seed)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dt.float32, name=None):
        return makers.normal(shape, mean, stddev, dtype, seed=self._rng)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dt.float32, name=None):
        return makers.truncated_normal(shape, mean, stddev, dtype, seed=self._rng)

    def uniform(self, shape, minval=0, maxval=None, dtype=dt.float32, name=None):
        _int_bounds_given(minval, maxval, dtype)
        return makers.uniform(shape, minval, maxval, dtype, seed=self._rng)

    def make_seeds(self, count=1):
        """int64 seeds of shape [2, count] for the stateless draws."""
        return _make(self._rng.integers(0, 2 ** 62, size=(2, int(count)), dtype=np.int64))

    def split(self, count=1):
        """`count` new generators, each from a seed this one draws."""
        return [Generator.from_seed(int(s)) for s in self._rng.integers(0, 2 ** 62, int(count))]


_GLOBAL = [None]


def get_global_generator():
    if _GLOBAL[0] is None:
        _GLOBAL[0] = Generator.from_non_deterministic_state()
    return _GLOBAL[0]


def set_global_generator(generator):
    _GLOBAL[0] = generator


def _seeded(seed, op="StatelessRandomGetKeyCounter"):
    """A NumPy generator that depends only on the seed pair, with TensorFlow's checks."""
    s = convert_to_tensor(seed)
    if s._value.dtype.kind not in "iu":
        raise InvalidArgumentError(f"Value for attr 'Tseed' of {s.dtype.name} is not in the list "
                                   f"of allowed values: int32, int64. Fix: seed=[1, 2] [Op:{op}]",
                                   op)
    if s._value.shape != (2,):
        raise InvalidArgumentError(f"seed must have shape [2], not {list(s._value.shape)}. Fix: "
                                   f"a pair of ints, e.g. seed=[1, 2] [Op:{op}]", op)
    return np.random.default_rng([int(v) & (2 ** 63 - 1) for v in s._value])


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dt.float32, name=None,
                     alg="auto_select"):
    return makers.normal(shape, mean, stddev, dtype, seed=_seeded(seed))


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dt.float32, name=None,
                               alg="auto_select"):
    return makers.truncated_normal(shape, mean, stddev, dtype, seed=_seeded(seed))


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dt.float32, name=None,
                      alg="auto_select"):
    d = dt.as_dtype(dtype)
    if d.is_integer and maxval is None:
        raise ValueError(f"For integer `dtype` argument {d!r}, argument `minval` and `maxval` "
                         f"must be both None or not None. Got `minval`={minval} and "
                         f"`maxval`={maxval}.")
    return makers.uniform(shape, minval, maxval, dtype, seed=_seeded(seed))


def stateless_categorical(logits, num_samples, seed, dtype=dt.int64, name=None):
    from .random import categorical
    return categorical(logits, num_samples, dtype=dtype, seed=_seeded(seed))
