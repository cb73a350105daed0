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
    start = int(counter[0]) | int(counter[1]) << 32
    high = int(counter[2]) | int(counter[3]) << 32
    if start + n <= 2 ** 64:           # (the low half never carries into the high one)
        low = np.uint64(start) + np.arange(n, dtype=np.uint64)
        c[:, 0], c[:, 1] = low & np.uint64(_MASK32), low >> np.uint64(32)
        c[:, 2], c[:, 3] = high & _MASK32, high >> 32
    else:
        for i in range(n):
            value = ((high << 64) + start + i) & (2 ** 128 - 1)
            c[i] = [(value >> shift) & _MASK32 for shift in (0, 32, 64, 96)]
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

    def take(self, n) -> list:
        """The next `n` numbers at once, as Python ints."""
        out = self._pool[self._next:].tolist()
        self._next = len(self._pool)
        missing = n - len(out)
        if missing > 0:
            blocks = -(-missing // 4)
            counter = [self._blocks_used & _MASK32, self._blocks_used >> 32] + self._counter[2:]
            self._pool = philox_blocks(self._key, counter, blocks).reshape(-1)
            self._blocks_used += blocks
            out += self._pool[:missing].tolist()
            self._next = missing
        else:
            self._next -= len(out) - n
            out = out[:n]
        return out

    def __call__(self) -> int:
        if self._next == len(self._pool):
            low = self._blocks_used
            counter = [low & _MASK32, low >> 32] + self._counter[2:]
            self._pool = philox_blocks(self._key, counter, 256).reshape(-1)
            self._blocks_used += 256
            self._next = 0
        self._next += 1
        return int(self._pool[self._next - 1])


# --- the draws of tf.random.Generator and the stateless ops --------------------------------
def _split64(value):
    value = int(value) & (2 ** 64 - 1)
    return value & _MASK32, value >> 32


def _words(key, counter, n_words):
    """`n_words` uint32 of Philox from key (uint64) and counter (two uint64), as
    TensorFlow's CPU kernels lay them out (4 per block, blocks at counter, counter + 1...)."""
    blocks = -(-n_words // 4)
    c = _split64(counter[0]) + _split64(counter[1])
    return philox_blocks(_split64(key), c, max(blocks, 1)).reshape(-1)[:n_words]


def uint32_to_float(words):
    """TensorFlow's Uint32ToFloat: 23 mantissa bits of 1.x, minus 1: [0, 1)."""
    bits = (np.asarray(words, np.uint32) & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)
    return bits.view(np.float32) - np.float32(1.0)


def stateless_key_counter(seed):
    """StatelessRandomGetKeyCounter: the seed pair scrambled through one Philox block."""
    s0, s1 = (int(v) & (2 ** 64 - 1) for v in seed)
    mix = philox_blocks((0x3EC8F720, 0x02461E29), _split64(s0) + _split64(s1), 1)[0]
    key = int(mix[0]) | int(mix[1]) << 32
    return key, (0, int(mix[2]) | int(mix[3]) << 32)


def uniform_float(key, counter, shape, minval=0.0, maxval=1.0):
    """float32 in [minval, maxval): rnd * (maxval - minval) + minval, in float32."""
    n = int(np.prod(shape, dtype=np.int64))
    rnd = uint32_to_float(_words(key, counter, n)).reshape(shape)
    low, high = np.float32(minval), np.float32(maxval)     # (tensors first, as TensorFlow)
    return rnd * (high - low) + low


def uniform_int(key, counter, shape, minval, maxval, dtype=np.int32):
    """TensorFlow's UniformDistribution for integers: lo + word mod (hi - lo)."""
    n = int(np.prod(shape, dtype=np.int64))
    span = np.uint64((int(maxval) - int(minval)) & _MASK32)
    words = _words(key, counter, n).astype(np.uint64)
    return (np.int64(minval) + (words % span).astype(np.int64)).astype(dtype).reshape(shape)


class Generator:
    """tf.random.Generator.from_seed(seed) with the Philox algorithm: a state of a 128-bit
    counter and a 64-bit key ([seed, 0, 0] from an int seed); each draw of n numbers reads
    the state, then moves the counter n * 256 blocks on (RngReadAndSkip)."""

    def __init__(self, seed):
        self.counter, self.key = int(seed) & (2 ** 128 - 1), 0

    def _read_and_skip(self, n):
        counter = (self.counter & (2 ** 64 - 1), self.counter >> 64)
        self.counter = (self.counter + 256 * int(n)) & (2 ** 128 - 1)
        return self.key, counter

    def uniform(self, shape, minval=0.0, maxval=1.0):
        shape = tuple(int(d) for d in shape)
        key, counter = self._read_and_skip(int(np.prod(shape, dtype=np.int64)))
        return uniform_float(key, counter, shape, minval, maxval)

    def uniform_int(self, shape, minval, maxval):
        shape = tuple(int(d) for d in shape)
        key, counter = self._read_and_skip(int(np.prod(shape, dtype=np.int64)))
        return uniform_int(key, counter, shape, minval, maxval)

    def make_seed(self):
        """make_seeds()[:, 0]: one int64 from two words (low word first), and 0."""
        key, counter = self._read_and_skip(1)
        words = _words(key, counter, 2)
        value = int(words[0]) | int(words[1]) << 32
        return (value - 2 ** 64 if value >= 2 ** 63 else value), 0


def stateless_uniform(shape, seed, minval=0.0, maxval=1.0):
    key, counter = stateless_key_counter(seed)
    return uniform_float(key, counter, tuple(int(d) for d in shape), minval, maxval)


def stateless_uniform_int(shape, seed, minval, maxval):
    key, counter = stateless_key_counter(seed)
    return uniform_int(key, counter, tuple(int(d) for d in shape), minval, maxval)
