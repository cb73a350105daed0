"""TensorFlow's stateful random ops (RandomUniform, RandomUniformInt, RandomStandardNormal)
as its eager CPU kernels draw them, so that `tv.random.uniform`, `tv.random.normal` and the
`tv.image.random_*` ops give TensorFlow's numbers once a seed is set.

How TensorFlow gets there (random_seed.get_seed, eager context, random_op.cc):
- an op's seed pair is (global seed, op seed), each mod 2^31 - 1; without an op seed the
  op seed is the next `random.Random(global seed).randint(0, 2^31 - 1)`; without a global
  seed it is (87654321, op seed); with neither the op is unseeded (here: NumPy's draws);
- eager execution keeps one kernel per op type and attributes (seed pair, dtype), each a
  Philox generator keyed by the pair that moves 256 blocks on per number drawn, so the same
  call twice gives new numbers; `set_seed` clears the kernels (and restarts the op seeds).

`makers.py` calls in with the global seed and its `set_seed` count (`generation`), so this
module reads no state of its own caller. Imports: NumPy, `tapeviz.philox`.
"""
from __future__ import annotations

import random as _random

import numpy as np

from ...philox import philox_blocks, uint32_to_float

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2 ** 31 - 1


class _State:
    generation = None       # the set_seed count when the kernels below were made
    op_seeds = None         # random.Random(global seed): the op seeds of unseeded ops
    blocks = {}             # (op, seed pair, dtype) -> blocks drawn so far


def restart(global_seed, generation) -> None:
    """Forget the kernels (and restart the op seeds) when `set_seed` ran since they were made."""
    if _State.generation != generation:
        _State.generation, _State.blocks = generation, {}
        _State.op_seeds = None if global_seed is None else _random.Random(global_seed)


def seed_pair(op_seed, global_seed, generation):
    """random_seed.get_seed: (seed, seed2) for an op given `op_seed` and the global seed, or
    None (unseeded)."""
    restart(global_seed, generation)
    if global_seed is not None:
        if op_seed is None:
            op_seed = _State.op_seeds.randint(0, _MAXINT32)
        seeds = (int(global_seed) % _MAXINT32, int(op_seed) % _MAXINT32)
    elif op_seed is not None:
        seeds = (DEFAULT_GRAPH_SEED, int(op_seed) % _MAXINT32)
    else:
        return None
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _words(op, pair, dtype, n_outputs, n_words):
    """`n_words` uint32 of the kernel (op, pair, dtype), which then skips 256 blocks per
    output (GuardedPhiloxRandom::ReserveRandomOutputs(n, 256))."""
    blocks = _State.blocks
    key = (op, pair, dtype)
    used = blocks.get(key, 0)
    blocks[key] = used + 256 * n_outputs
    seed, seed2 = (int(v) & (2 ** 64 - 1) for v in pair)
    counter = (used & 0xFFFFFFFF, (used >> 32) & 0xFFFFFFFF, seed2 & 0xFFFFFFFF, seed2 >> 32)
    n_blocks = max(-(-n_words // 4), 1)
    return philox_blocks((seed & 0xFFFFFFFF, seed >> 32), counter, n_blocks).reshape(-1)[:n_words]


def _doubles(words):
    """Uint64ToDouble on word pairs: 20 + 32 mantissa bits of 1.x, minus 1."""
    words = np.asarray(words, np.uint64).reshape(-1, 2)
    bits = ((words[:, 0] & np.uint64(0xFFFFF)) << np.uint64(32)) | words[:, 1] \
        | np.uint64(1023 << 52)
    return bits.view(np.float64) - 1.0


def _halves(words):
    """Uint16ToHalf: 10 mantissa bits of 1.x, minus 1."""
    bits = (np.asarray(words, np.uint32) & 0x3FF).astype(np.uint16) | np.uint16(15 << 10)
    return bits.view(np.float16) - np.float16(1.0)


def uniform01(shape, dtype, pair):
    """RandomUniform: `shape` numbers in [0, 1) of `dtype` (float16/32/64)."""
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == np.float64:
        return _doubles(_words("RandomUniform", pair, "float64", n, 2 * n)).reshape(shape)
    words = _words("RandomUniform", pair, np.dtype(dtype).name, n, n)
    return (_halves(words) if dtype == np.float16 else uint32_to_float(words)).reshape(shape)


def uniform_int(shape, lo, hi, dtype, pair):
    """RandomUniformInt: lo + bits mod (hi - lo), 32 bits per int32, 64 per int64."""
    n = int(np.prod(shape, dtype=np.int64))
    lo, hi = int(lo), int(hi)
    if dtype == np.int64:
        w = _words("RandomUniformInt", pair, "int64", n, 2 * n).astype(np.uint64).reshape(-1, 2)
        bits = w[:, 0] | (w[:, 1] << np.uint64(32))
        span = np.uint64((hi - lo) & (2 ** 64 - 1))
        # lo + bits % span in two's complement: uint64 arithmetic wraps as the kernel's does
        return (np.uint64(lo & (2 ** 64 - 1)) + bits % span).view(np.int64).reshape(shape)
    words = _words("RandomUniformInt", pair, "int32", n, n).astype(np.uint64)
    span = np.uint64((hi - lo) & 0xFFFFFFFF)
    return (lo + (words % span).astype(np.int64)).astype(np.int32).reshape(shape)


def standard_normal(shape, dtype, pair):
    """RandomStandardNormal: Box-Muller on word pairs (float) or quadruples (double)."""
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == np.float64:
        w = _words("RandomStandardNormal", pair, "float64", n, 4 * (-(-n // 2)))
        u1 = np.maximum(_doubles(w.reshape(-1, 4)[:, :2]), 1.0e-7)
        v1 = 2 * np.pi * _doubles(w.reshape(-1, 4)[:, 2:])
        u2 = np.sqrt(-2.0 * np.log(u1))
        return np.stack([np.sin(v1) * u2, np.cos(v1) * u2], 1).reshape(-1)[:n].reshape(shape)
    w = _words("RandomStandardNormal", pair, np.dtype(dtype).name, n, 2 * (-(-n // 2)))
    w = w.reshape(-1, 2)
    u1 = np.maximum(uint32_to_float(w[:, 0]), np.float32(1.0e-7))
    v1 = (2.0 * np.pi * uint32_to_float(w[:, 1]).astype(np.float64)).astype(np.float32)
    u2 = np.sqrt(np.float32(-2.0) * np.log(u1))
    out = np.stack([np.sin(v1) * u2, np.cos(v1) * u2], 1).reshape(-1)[:n].reshape(shape)
    return out.astype(dtype)


def uniform_float(shape, lo, hi, dtype, pair):
    """random_ops.random_uniform for floats: rnd, rnd * maxval, or rnd * (maxval - minval)
    + minval, in the draw's dtype."""
    rnd = uniform01(shape, dtype, pair)
    lo, hi = np.asarray(lo, dtype), np.asarray(hi, dtype)
    if not lo.any():
        return rnd if (hi == 1).all() else rnd * hi
    return rnd * (hi - lo) + lo
