"""TensorFlow's own random numbers for a stateful random op's first draw: Philox-4x32-10
keyed by the op's seed pair (`seed`, `seed2`), as TensorFlow's CPU kernels draw them.

Each group of four 32-bit outputs (counter `(group, 0, seed2)`, key `seed`) gives four
float32 uniforms in [0, 1) (the 23 low bits as a float's mantissa) or, by Box-Muller on
pairs, four float32 normals. A `DeterministicRandomTestTool` scope seeds every random op with
a fresh pair, so there `tv.random.uniform`, `tv.random.normal` and `tv.nn.dropout` give
TensorFlow's float32 values (other ops and dtypes draw from NumPy, seeded by the pair).
"""
from __future__ import annotations

import numpy as np

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_LOW = np.uint64(0xFFFFFFFF)
_32 = np.uint64(32)


def philox_words(seed: int, seed2: int, groups: int) -> np.ndarray:
    """The first `groups` outputs of Philox-4x32-10, (groups, 4) uint32."""
    c0 = np.arange(groups, dtype=np.uint64) & _LOW
    c1 = (np.arange(groups, dtype=np.uint64) >> _32).astype(np.uint32)
    c2 = np.full(groups, seed2 & 0xFFFFFFFF, np.uint32)
    c3 = np.full(groups, (seed2 >> 32) & 0xFFFFFFFF, np.uint32)
    c0 = c0.astype(np.uint32)
    k0, k1 = seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF
    for round_ in range(10):
        p0 = c0.astype(np.uint64) * _M0
        p1 = c2.astype(np.uint64) * _M1
        hi0, lo0 = (p0 >> _32).astype(np.uint32), (p0 & _LOW).astype(np.uint32)
        hi1, lo1 = (p1 >> _32).astype(np.uint32), (p1 & _LOW).astype(np.uint32)
        c0, c1, c2, c3 = hi1 ^ c1 ^ np.uint32(k0), lo1, hi0 ^ c3 ^ np.uint32(k1), lo0
        if round_ < 9:
            k0, k1 = (k0 + _W0) & 0xFFFFFFFF, (k1 + _W1) & 0xFFFFFFFF
    return np.stack([c0, c1, c2, c3], axis=1)


def _floats(words) -> np.ndarray:
    """uint32 -> float32 in [0, 1), as TensorFlow's Uint32ToFloat."""
    return ((words & np.uint32(0x7FFFFF)) | np.uint32(0x7F << 23)).view(np.float32) - \
        np.float32(1.0)


class PhiloxDraws:
    """A NumPy-Generator-like source of TensorFlow's draws for one op's seed pair; what
    it does not imitate it draws from NumPy, seeded by the pair."""

    def __init__(self, seed: int, seed2: int):
        self._seed, self._seed2 = int(seed), int(seed2)
        self._numpy = np.random.default_rng([self._seed & (2 ** 63 - 1),
                                             self._seed2 & (2 ** 63 - 1)])

    def _words(self, size) -> tuple:
        dims = () if size is None else tuple(np.atleast_1d(size)) if not isinstance(
            size, tuple) else size
        n = int(np.prod(dims, dtype=np.int64))
        return philox_words(self._seed, self._seed2, -(-n // 4)).reshape(-1)[:n], dims

    def random(self, size=None, dtype=np.float64, out=None):
        words, dims = self._words(size)
        return _floats(words).reshape(dims)

    def uniform(self, low=0.0, high=1.0, size=None):
        return self.random(size) * (high - low) + low

    def standard_normal(self, size=None, dtype=np.float64, out=None):
        dims = () if size is None else tuple(np.atleast_1d(size)) if not isinstance(
            size, tuple) else size
        n = int(np.prod(dims, dtype=np.int64))
        words = philox_words(self._seed, self._seed2, -(-n // 4)).reshape(-1, 2)
        u1 = np.maximum(_floats(words[:, 0]), np.float32(1.0e-7))
        v1 = (2.0 * np.pi * _floats(words[:, 1]).astype(np.float64)).astype(np.float32)
        u2 = np.sqrt(np.float32(-2.0) * np.log(u1))
        pairs = np.stack([np.sin(v1) * u2, np.cos(v1) * u2], axis=1)
        return pairs.reshape(-1)[:n].reshape(dims)

    def __getattr__(self, name):
        return getattr(self._numpy, name)
