"""`Dataset.window`, `flat_map` and `shard`, as TensorFlow's (a mixin of `tv.data.Dataset`).

A window is an element whose components are datasets (a tuple or dict of them for a tuple or
dict element), of at most `size` elements `shift` apart at the start and `stride` apart
within; `flat_map(lambda w: w.batch(size))` turns windows back into tensors.
"""
from __future__ import annotations

import collections
import itertools

from .engine import nest
from .engine.errors import InvalidArgumentError

UNKNOWN_CARDINALITY = -2


def _positive(value, what, op):
    value = int(value)
    if value <= 0:
        raise InvalidArgumentError(
            f"{op}: {what} must be greater than zero, got {value}. Fix: pass a positive int "
            f"[Op:{op}]", op)
    return value


class WindowMethods:
    """The transformations that nest datasets in elements or pick every n-th element."""

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        """Windows of ``size`` elements, a new one every ``shift`` elements (``size`` by
        default), taking every ``stride``-th element; the last ones may be shorter unless
        ``drop_remainder``."""
        size = _positive(size, "Window size", "WindowDataset")
        shift = _positive(size if shift is None else shift, "Window shift", "WindowDataset")
        stride = _positive(stride, "Window stride", "WindowDataset")
        span = (size - 1) * stride + 1         # elements from a window's first to its last
        make = type(self)

        def window_of(elements):
            flats = [nest.flatten(e) for e in elements]
            parts = [make(lambda items=list(items): iter(items), len(items))
                     for items in zip(*flats)]
            return nest.pack_sequence_as(elements[0], parts)

        def windows():
            it = iter(self)
            buffer = collections.deque(itertools.islice(it, span))
            while buffer:
                full = len(buffer) == span
                if not full and drop_remainder:
                    return
                yield window_of(list(itertools.islice(buffer, 0, span, stride)))
                for _ in range(shift):
                    if buffer:
                        buffer.popleft()
                    else:
                        next(it, None)         # a shift longer than the window skips these
                buffer.extend(itertools.islice(it, span - len(buffer)))

        n = self._cardinality
        if n >= 0:
            n = max((n - span) // shift + 1, 0) if drop_remainder else -(-n // shift)
        return make(windows, n)

    def flat_map(self, map_func, name=None):
        """The elements of the dataset ``map_func`` makes of each element, one after another."""
        from .data import Dataset, _call

        def flattened():
            for element in self:
                inner = _call(map_func, element)
                if not isinstance(inner, Dataset):
                    raise AttributeError(
                        f"Dataset.flat_map: map_func must return a tf.data.Dataset, got "
                        f"{type(inner).__name__}. Fix: return a dataset, e.g. "
                        "lambda window: window.batch(n), or use Dataset.map")
                yield from inner
        return type(self)(flattened, UNKNOWN_CARDINALITY)

    def shard(self, num_shards, index, name=None):
        """Every ``num_shards``-th element, starting at ``index``."""
        num_shards, index = int(num_shards), int(index)
        if num_shards <= 0:
            raise InvalidArgumentError(
                f"ShardDataset: Number of shards must be greater than zero (currently "
                f"num_shards = {num_shards}). Fix: pass a positive num_shards [Op:ShardDataset]",
                "ShardDataset")
        if not 0 <= index < num_shards:
            raise InvalidArgumentError(
                f"ShardDataset: Index must be between 0 and {num_shards - 1} (currently index = "
                f"{index}). Fix: an index in [0, num_shards) [Op:ShardDataset]",
                "ShardDataset")
        n = self._cardinality
        if n >= 0:
            n = n // num_shards + (1 if index < n % num_shards else 0)
        return type(self)(lambda: itertools.islice(iter(self), index, None, num_shards), n)
