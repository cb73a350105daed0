"""`Dataset.shuffle` with a `seed`, in TensorFlow's order: the seed pair as
`random_seed.get_seed` makes it ((global seed or 87654321, op seed), both below 2^31 - 1),
a seed generator that draws two uint32 per iteration from Philox keyed by that pair (or
gives the pair itself with reshuffle_each_iteration=False), and ShuffleDataset's ring
buffer: fill `buffer_size` slots, hand out slot start + (draw mod filled), move the oldest
element into the hole, refill."""
from __future__ import annotations

import numpy as np

from .philox import SingleSample

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2 ** 31 - 1


def seed_pair(op_seed):
    """TensorFlow's (seed, seed2) for an op given `op_seed` (not None)."""
    from .engine.ops.makers import _Random
    global_seed = _Random.seed
    seeds = (DEFAULT_GRAPH_SEED if global_seed is None else int(global_seed) % _MAXINT32,
             int(op_seed) % _MAXINT32)
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


class SeedGenerator:
    """The seeds of each new iteration of one shuffled dataset."""

    def __init__(self, seed, seed2, reshuffle):
        self._pair = (seed, seed2)
        self._parent = SingleSample(seed, seed2) if reshuffle else None

    def next_generator(self):
        if self._parent is None:
            return SingleSample(*self._pair)
        first = self._parent()
        return SingleSample(first, self._parent())


def shuffled(items, size, generator):
    """The items in ShuffleDataset's order for one iteration."""
    buffer = [None] * size
    start = end = 0
    it = iter(items)
    exhausted = False
    while True:
        while not exhausted and end - start < size:
            try:
                buffer[end % size] = next(it)
            except StopIteration:
                exhausted = True
                break
            end += 1
        if end == start:
            return
        index = (start + generator() % (end - start)) % size
        oldest = start % size
        yield buffer[index]
        buffer[index], buffer[oldest] = buffer[oldest], None
        start += 1


def shuffled_order(n, size, generator):
    """`shuffled(range(n), ...)` as an index array: the same ring buffer over indices, with
    its n draws taken at once."""
    size = min(size, max(n, 1))
    draws = generator.take(n)
    buffer = list(range(min(size, n)))
    out = [0] * n
    start, end = 0, len(buffer)
    for k in range(n):
        index = (start + draws[k] % (end - start)) % size
        oldest = start % size
        out[k] = buffer[index]
        buffer[index] = buffer[oldest]
        start += 1
        if end < n:                    # refill the freed slot with the next index
            buffer[oldest] = end
            end += 1
    return np.asarray(out, np.intp)
