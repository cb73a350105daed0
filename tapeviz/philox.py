"""TensorFlow's Philox4x32-10 counter-based generator (random/philox_random.h) and the
one-number-at-a-time adapter its CPU kernels draw with, in NumPy, so that what TensorFlow
draws from a seed pair (a seeded `Dataset.shuffle`, for one) can be drawn here the same.

A generator is a 64-bit key and a 128-bit counter; each call returns the 4 uint32 of one
block and steps the counter. `PhiloxRandom(seed_lo, seed_hi)` keys with seed_lo and puts
seed_hi in the counter's upper half, as TensorFlow's constructor does."""
from __future__ import annotations

import numpy as np

_W32A, _W32B = 0x9E3779B9, 0xBB67AE85
_M4x32A, _M4x32B = 0xD2511F53, 0xCD9E8D57
_MASK32 = 0xFFFFFFFF


def philox_blocks(key, counter, n):
    """`n` blocks (n, 4) uint32 from `key` (2 ints) and `counter` (4 ints), counters
    counter, counter + 1, ... (a 128-bit count, word 0 lowest)."""
    c = np.empty((n, 4), np.uint64)
    low = (int(counter[0]) | int(counter[1]) << 32) + np.arange(n, dtype=object)
    high = int(counter[2]) | int(counter[3]) << 32
    carry = np.asarray([int(v) >> 64 for v in low], dtype=object)
    low = np.asarray([int(v) & (2 ** 64 - 1) for v in low], dtype=object)
    hi = np.asarray([(high + int(k)) & (2 ** 128 - 1) for k in carry], dtype=object)
    c[:, 0] = np.asarray([v & _MASK32 for v in low], np.uint64)
    c[:, 1] = np.asarray([v >> 32 for v in low], np.uint64)
    c[:, 2] = np.asarray([v & _MASK32 for v in hi], np.uint64)
    c[:, 3] = np.asarray([(v >> 32) & _MASK32 for v in hi], np.uint64)
    k0, k1 = np.uint64(int(key[0]) & _MASK32), np.uint64(int(key[1]) & _MASK32)
    mask = np.uint64(_MASK32)
    for round_ in range(10):
        p0 = np.uint64(_M4x32A) * c[:, 0]
        p1 = np.uint64(_M4x32B) * c[:, 2]
        c = np.stack([(p1 >> np.uint64(32)) ^ c[:, 1] ^ k0, p1 & mask,
                      (p0 >> np.uint64(32)) ^ c[:, 3] ^ k1, p0 & mask], axis=1)
        if round_ < 9:
            k0 = (k0 + np.uint64(_W32A)) & mask
            k1 = (k1 + np.uint64(_W32B)) & mask
    return c.astype(np.uint32)


class SingleSample:
    """TensorFlow's SingleSampleAdapter<PhiloxRandom>: one uint32 per call, blocks drawn
    as needed (here 256 blocks at a time)."""

    def __init__(self, seed_lo, seed_hi):
        seed_lo, seed_hi = int(seed_lo) & (2 ** 64 - 1), int(seed_hi) & (2 ** 64 - 1)
        self._key = (seed_lo & _MASK32, seed_lo >> 32)
        self._counter = [0, 0, seed_hi & _MASK32, seed_hi >> 32]
        self._blocks_used = 0
        self._pool = np.empty(0, np.uint32)
        self._next = 0

    def __call__(self) -> int:
        if self._next == len(self._pool):
            low = self._blocks_used
            counter = [low & _MASK32, low >> 32] + self._counter[2:]
            self._pool = philox_blocks(self._key, counter, 256).reshape(-1)
            self._blocks_used += 256
            self._next = 0
        self._next += 1
        return int(self._pool[self._next - 1])
