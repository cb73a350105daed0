"""`tv.data.Dataset`: TensorFlow's input pipelines, as eager Python iterators.

An element is what TensorFlow's would be: a tensor, or a tuple / dict of tensors (lists given
to `from_tensor_slices` are tensors, as in TensorFlow). Each transformation returns a new
dataset; iterating a dataset starts its pipeline afresh, so a dataset can be iterated once
per epoch. `shuffle(..., seed=n)` gives TensorFlow's order (data_shuffle.py). What is not
imitated: `shuffle` without `seed` is seeded by `tv.random.set_seed` and reproducible, but its
order is not TensorFlow's;
`prefetch`, `num_parallel_calls` and `with_options` change nothing (everything runs in the
caller's thread, in order), `cache` keeps its elements in memory even given a file name, and
functions given to `map`/`filter` run eagerly on every element.
"""
from __future__ import annotations

import itertools
import types

import numpy as np

from .engine import nest
from .engine.ops import makers as _makers
from .engine.ops.join import stack
from .engine.convert import convert_to_tensor
from .engine.tensor import Tensor
from .data_sources import AutoShardPolicy, Counter, Options, TextLineDataset  # noqa: F401
from .data_sources import shuffle_and_repeat
from .data_transforms import TransformMethods
from .data_windows import WindowMethods

#: `num_parallel_calls=tv.data.AUTOTUNE`, `prefetch(tv.data.AUTOTUNE)`: accepted, no effect.
AUTOTUNE = -1
#: `Dataset.cardinality()` of an endless dataset, and of one whose size is not known.
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2


def _as_element(value):
    """A structure of tensors: tuples and dicts stay structures, anything else a tensor."""
    if isinstance(value, dict):
        return {k: _as_element(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(_as_element(v) for v in value)
    return value if isinstance(value, Tensor) else convert_to_tensor(value)


def _call(fn, element):
    """TensorFlow unpacks a tuple element into positional arguments of map/filter fns."""
    return fn(*element) if isinstance(element, tuple) else fn(element)


def _shuffled(items, size, rng):
    """TensorFlow's shuffle buffer over `items`: fill `size` slots, then hand out a random
    slot and refill it with the next item; at the end, hand out what is left in a random
    order. Random numbers are drawn 1,024 at a time (one draw per item costs more than the
    rest of the loop)."""
    it = iter(items)
    buffer = list(itertools.islice(it, size))
    draws, k = (), 0
    for item in it:
        if k == len(draws):
            draws, k = rng.random(1024), 0
        i = int(draws[k] * size)
        k += 1
        yield buffer[i]
        buffer[i] = item
    for j in rng.permutation(len(buffer)):
        yield buffer[j]


class _Rows:
    """The elements of a dataset that are rows of arrays (from_tensor_slices, then shuffle):
    the arrays, their structure, and each epoch's row order. A batch of such a dataset is
    one gather per array instead of a stack of single rows."""

    def __init__(self, structure, arrays, order):
        self.structure = structure
        self.arrays = arrays
        self.order = order            # () -> this epoch's row indices, an int array

    def element(self, i):
        # (a row of a string array is a bytes object: wrapped back into a 0-d array)
        return nest.pack_sequence_as(self.structure, [
            Tensor(a[i]) if a.dtype != object else Tensor(np.asarray(a[i], dtype=object))
            for a in self.arrays])

    def elements(self):
        return (self.element(i) for i in self.order())

    def batches(self, size, drop_remainder):
        order = self.order()
        for start in range(0, len(order), size):
            part = order[start:start + size]
            if drop_remainder and len(part) < size:
                return
            yield nest.pack_sequence_as(self.structure, [Tensor(a[part]) for a in self.arrays])


class _CachedRows(_Rows):
    """Rows whose order is the one of the first iteration that went to the end."""

    def __init__(self, upstream: _Rows):
        super().__init__(upstream.structure, upstream.arrays, upstream.order)
        self._kept = None

    def _this_order(self):
        return self._kept if self._kept is not None else self.order()

    def elements(self):
        order = self._this_order()
        for i in order:
            yield self.element(i)
        self._kept = order

    def batches(self, size, drop_remainder):
        order = self._this_order()
        yield from _Rows(self.structure, self.arrays, lambda: order).batches(size,
                                                                             drop_remainder)
        self._kept = order


def _batched(dataset, size):
    """`dataset`, marked as made by `batch(size)` (TF-Keras's split_dataset looks for the
    `_batch_size` of a batched dataset, to batch its splits alike)."""
    dataset._batch_size = size
    return dataset


class Dataset(WindowMethods, TransformMethods):
    """A sequence of elements, built by the static constructors and transformed by methods
    (`window`, `flat_map` and `shard` in data_windows.py; `from_generator`, `interleave`,
    `padded_batch`, `apply`, `take_while`, `scan`, `get_single_element` in
    data_transforms.py)."""

    def __init__(self, make_iterator, cardinality: int, rows: _Rows = None):
        self._make_iterator = make_iterator      # () -> a fresh iterator of elements
        self._cardinality = cardinality
        self._rows = rows                        # set when the elements are rows of arrays

    # --- constructors -------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors, name=None):
        structure = _as_element(tensors)
        flat = nest.flatten(structure)
        if not flat:
            raise ValueError("Dataset.from_tensor_slices: no tensors given. Fix: pass a tensor, "
                             "or a tuple or dict of tensors with the same first dimension")
        sizes = {int(t.shape[0]) if t.shape.rank else None for t in flat}
        if None in sizes:
            raise ValueError("Dataset.from_tensor_slices: a scalar cannot be sliced; every "
                             "component needs a first dimension. Fix: use "
                             "Dataset.from_tensors for a single element")
        if len(sizes) != 1:
            shapes = [tuple(t.shape) for t in flat]
            raise ValueError(f"Dataset.from_tensor_slices: the components' first dimensions "
                             f"differ ({shapes}). Fix: give every component the same number "
                             "of rows")
        n = sizes.pop()
        rows = _Rows(structure, [t._value for t in flat], lambda: np.arange(n))
        return Dataset(rows.elements, n, rows)

    @staticmethod
    def from_tensors(tensors, name=None):
        element = _as_element(tensors)
        return Dataset(lambda: iter((element,)), 1)

    @staticmethod
    def range(*args, output_type=None, name=None):
        bounds = range(*[int(a) for a in args])
        dtype = np.dtype(np.int64 if output_type is None else getattr(output_type, "np",
                                                                          output_type))
        return Dataset(lambda: (Tensor(dtype.type(i)) for i in bounds), len(bounds))

    @staticmethod
    def zip(*datasets, name=None):
        structure = datasets[0] if len(datasets) == 1 else datasets
        flat = nest.flatten(structure)
        if not all(isinstance(d, Dataset) for d in flat):
            raise TypeError("Dataset.zip takes datasets, or a tuple or dict of datasets")

        def zipped():
            for parts in zip(*[iter(d) for d in flat]):
                yield nest.pack_sequence_as(structure, list(parts))
        sizes = [d._cardinality for d in flat]
        finite = [s for s in sizes if s >= 0]
        size = min(finite) if finite else (UNKNOWN_CARDINALITY
                                           if UNKNOWN_CARDINALITY in sizes
                                           else INFINITE_CARDINALITY)
        return Dataset(zipped, size)

    # --- transformations ---------------------------------------------------------------------
    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None):
        size = int(batch_size)
        if size <= 0:
            raise ValueError(f"Dataset.batch: batch_size must be positive, got {batch_size}")

        n = self._cardinality
        if n >= 0:
            n = n // size if drop_remainder else -(-n // size)
        if self._rows is not None:
            return _batched(Dataset(lambda: self._rows.batches(size, drop_remainder), n), size)

        def batches():
            it = iter(self)
            while True:
                chunk = list(itertools.islice(it, size))
                if not chunk or (drop_remainder and len(chunk) < size):
                    return
                flats = [nest.flatten(e) for e in chunk]
                yield nest.pack_sequence_as(chunk[0], [stack(list(parts))
                                                       for parts in zip(*flats)])
        return _batched(Dataset(batches, n), size)

    def unbatch(self, name=None):
        def rows():
            for element in self:
                flat = nest.flatten(element)
                for i in range(int(flat[0].shape[0])):
                    yield nest.pack_sequence_as(element, [Tensor(t._value[i]) for t in flat])
        return Dataset(rows, UNKNOWN_CARDINALITY)

    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        return Dataset(lambda: (_as_element(_call(map_func, e)) for e in self),
                       self._cardinality)

    def filter(self, predicate, name=None):
        def kept():
            for e in self:
                keep = _call(predicate, e)
                if bool(keep._value if isinstance(keep, Tensor) else keep):
                    yield e
        return Dataset(kept, UNKNOWN_CARDINALITY if self._cardinality >= 0
                       else self._cardinality)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        size = int(buffer_size)
        if size <= 0:
            raise ValueError(f"Dataset.shuffle: buffer_size must be positive, got "
                             f"{buffer_size}")
        if seed is not None:                   # TensorFlow's order (data_shuffle.py)
            return self._seeded_shuffle(size, seed, reshuffle_each_iteration)
        # drawn now, from tv.random's generator: tv.random.set_seed makes the order repeat
        base = int(_makers._Random.rng.integers(2 ** 62))
        epochs = itertools.count()

        def epoch_rng():
            return np.random.default_rng((base, next(epochs) if reshuffle_each_iteration else 0))

        if self._rows is not None:
            upstream = self._rows

            def order():
                indices, rng = upstream.order(), epoch_rng()
                if size >= len(indices):       # what _shuffled does then, in one step
                    return indices[rng.permutation(len(indices))]
                return np.fromiter(_shuffled(indices, size, rng), np.intp, count=len(indices))
            rows = _Rows(upstream.structure, upstream.arrays, order)
            return Dataset(rows.elements, self._cardinality, rows)
        return Dataset(lambda: _shuffled(self, size, epoch_rng()), self._cardinality)

    def _seeded_shuffle(self, size, seed, reshuffle_each_iteration):
        from . import data_shuffle
        seeds = data_shuffle.SeedGenerator(*data_shuffle.seed_pair(int(seed)),
                                           reshuffle_each_iteration is not False)
        if self._rows is not None:
            upstream = self._rows

            def order():
                indices = upstream.order()
                return indices[data_shuffle.shuffled_order(len(indices), size,
                                                           seeds.next_generator())]
            rows = _Rows(upstream.structure, upstream.arrays, order)
            return Dataset(rows.elements, self._cardinality, rows)
        return Dataset(lambda: data_shuffle.shuffled(self, size, seeds.next_generator()),
                       self._cardinality)

    def repeat(self, count=None, name=None):
        times = None if count is None or int(count) < 0 else int(count)

        def repeated():
            for _ in (itertools.count() if times is None else range(times)):
                yield from self
        n = self._cardinality
        if times is None:
            n = INFINITE_CARDINALITY if n != 0 else 0
        elif n >= 0:
            n *= times
        return Dataset(repeated, n)

    def take(self, count, name=None):
        k = int(count)
        n = self._cardinality
        size = n if k < 0 else (k if n == INFINITE_CARDINALITY else min(k, n) if n >= 0 else n)
        return Dataset(lambda: iter(self) if k < 0 else itertools.islice(iter(self), k), size)

    def skip(self, count, name=None):
        k = int(count)
        n = self._cardinality
        size = 0 if k < 0 else (max(n - k, 0) if n >= 0 else n)
        return Dataset(lambda: iter(()) if k < 0 else itertools.islice(iter(self), k, None),
                       size)

    def concatenate(self, dataset, name=None):
        a, b = self._cardinality, dataset._cardinality
        size = a + b if a >= 0 and b >= 0 else min(a, b)
        return Dataset(lambda: itertools.chain(iter(self), iter(dataset)), size)

    def enumerate(self, start=0, name=None):
        def counted():
            for i, e in enumerate(self, int(start)):
                yield (Tensor(np.int64(i)), e)
        return Dataset(counted, self._cardinality)

    def prefetch(self, buffer_size, name=None):
        return self

    def cache(self, filename="", name=None):
        """The elements of the first complete iteration, kept (in memory, whatever
        `filename`) and given again by every later one, as TensorFlow's cache: a shuffle
        before it is frozen; an iteration stopped early keeps nothing."""
        if self._rows is not None:
            rows = _CachedRows(self._rows)
            return Dataset(rows.elements, self._cardinality, rows)
        kept = []

        def cached():
            if kept:
                yield from kept[0]
                return
            seen = []
            for element in self:
                seen.append(element)
                yield element
            kept.append(seen)
        return Dataset(cached, self._cardinality)

    # --- reading -------------------------------------------------------------------------------
    def __iter__(self):
        from .data_iterator import DatasetIterator   # (one that a Checkpoint can save)
        return DatasetIterator(self)

    def as_numpy_iterator(self):
        for e in self:
            yield nest.pack_sequence_as(e, [t.numpy() for t in nest.flatten(e)])

    def cardinality(self):
        return Tensor(np.asarray(self._cardinality, np.int64))

    def __len__(self):
        if self._cardinality == INFINITE_CARDINALITY:
            raise TypeError("The dataset is infinite.")
        if self._cardinality < 0:
            raise TypeError("The dataset length is unknown.")
        return self._cardinality

    def __bool__(self):
        return True

    def reduce(self, initial_state, reduce_func, name=None):
        state = initial_state
        for e in self:
            state = reduce_func(state, e)
        return state

    def __repr__(self):
        return f"<Dataset cardinality={self._cardinality}>"


#: `tf.data.experimental`: the names that older code reads there
experimental = types.ModuleType(__name__ + ".experimental")
experimental.AUTOTUNE = AUTOTUNE
experimental.INFINITE_CARDINALITY = INFINITE_CARDINALITY
experimental.UNKNOWN_CARDINALITY = UNKNOWN_CARDINALITY
experimental.cardinality = Dataset.cardinality
experimental.get_single_element = Dataset.get_single_element
experimental.Counter = Counter
experimental.shuffle_and_repeat = shuffle_and_repeat
experimental.AutoShardPolicy = AutoShardPolicy

from . import data_grouping as _grouping  # noqa: E402

_grouping.install(Dataset, experimental)   # group_by_window, bucket_by_sequence_length
from .data_csv import CsvDataset as _CsvDataset  # noqa: E402

experimental.CsvDataset = _CsvDataset
