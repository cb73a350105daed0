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

from ...philox import philox_blocks, uint32_to_float as _floats

_MASK32 = 0xFFFFFFFF


def philox_words(seed: int, seed2: int, groups: int) -> np.ndarray:
    """The first `groups` outputs of Philox-4x32-10 keyed by `seed`, counters (group, 0,
    seed2): (groups, 4) uint32."""
    seed, seed2 = int(seed) & (2 ** 64 - 1), int(seed2) & (2 ** 64 - 1)
    return philox_blocks((seed & _MASK32, seed >> 32),
                         (0, 0, seed2 & _MASK32, seed2 >> 32), groups)


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
