"""How `fit`, `evaluate` and `predict` cut their data into batches, as Keras's data adapter.

Arrays, tensors, lists or dicts of them are cut into `batch_size` batches (float arrays cast
to `floatx()`, shuffled each epoch unless `shuffle=False`, repeatably after
`tv.random.set_seed` but not in TensorFlow's order); a `tv.data.Dataset` or a
`keras.utils.Sequence` gives its own batches. A batch is `(x, y)`, `(x, y, sample_weight)`
or `x`.
"""
from __future__ import annotations

import collections.abc
import math

import numpy as np

from ..engine import nest
from ..engine.convert import convert_to_tensor
from ..engine.tensor import Tensor, _Operand
from . import backend as _backend
from .data_sequence import Sequence, SequenceFeed


def unpack_x_y_sample_weight(data):
    """Keras's rule: a tuple is (x,), (x, y) or (x, y, sample_weight); anything else is x."""
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return data, None, None
    if len(data) in (1, 2, 3):
        return tuple(data) + (None,) * (3 - len(data))
    raise ValueError(f"Data is expected to be in format `x`, `(x,)`, `(x, y)`, or "
                     f"`(x, y, sample_weight)`, found a tuple of {len(data)}. Fix: pack the "
                     "inputs as one element, e.g. ((x1, x2), y)")


def _pack(x, y, w):
    """Keras's pack_x_y_sample_weight: without targets a step gets `x` itself (a VAE's
    `train_step(self, data)` computes on `data`), or `(x,)` when x is a list or tuple."""
    if y is None and w is None:
        return (x,) if isinstance(x, (list, tuple)) else x
    return (x, y) if w is None else (x, y, w)


def _batch(values):
    """Arrays as tensors (float arrays as floatx, as Keras's data adapter)."""
    def one(v):
        if v is None or isinstance(v, Tensor):
            return v
        if isinstance(v, _Operand):
            return v.read_value()
        array = np.asarray(v)
        if array.dtype.kind == "f":
            array = array.astype(_backend.floatx(), copy=False)
        return convert_to_tensor(array)
    if isinstance(values, (list, tuple, dict)) and not _is_plain(values):
        return nest.pack_sequence_as(values, [one(v) for v in nest.flatten(values)])
    return one(values)


def _is_plain(values) -> bool:
    """A nested Python list of numbers (one array), not a list of arrays."""
    return isinstance(values, (list, tuple)) and all(
        isinstance(v, (int, float, list, tuple)) for v in values) and not any(
        isinstance(v, (list, tuple)) and v and not isinstance(v[0], (int, float, list))
        for v in values)


_END = object()
_UNSTARTED = object()


class Batches:
    """The batches of one epoch, from arrays or from a `tv.data.Dataset`."""

    def __init__(self, x, y, sample_weight, batch_size, shuffle, steps, epochs=1):
        from ..data import Dataset
        #: set when the arrays' passes (one per epoch of the fit) ran out before `steps`
        self.ran_out = False
        self.dataset = x if isinstance(x, Dataset) else None
        if isinstance(x, Sequence):
            self.dataset = SequenceFeed(x, y, sample_weight, shuffle)
        if isinstance(x, collections.abc.Iterator):   # a Python generator of batches
            if y is not None:
                raise ValueError("`y` argument is not supported when using python generator "
                                 "as input. Fix: yield (x, y) pairs from the generator")
            self.dataset, self.shuffle, self.limit, self.steps = x, False, steps, steps
            return
        self.shuffle, self.limit = shuffle, steps
        if self.dataset is not None:
            if y is not None:
                raise ValueError("`y` argument is not supported when using dataset as input. "
                                 "Fix: put the targets in the dataset: "
                                 "Dataset.from_tensor_slices((x, y)).batch(32)")
            n = self.dataset.cardinality()
            n = int(n.numpy()) if hasattr(n, "numpy") else int(n)
            self.steps = steps or (n if n >= 0 else None)
            # as Keras: one iterator for the whole fit unless each epoch is the whole dataset
            self._one_iterator = None if steps is None or steps == n or isinstance(
                self.dataset, SequenceFeed) else _UNSTARTED
            return
        if x is None:
            raise ValueError("Expected input data `x`, got None. Fix: model.fit(x, y, ...)")
        # a Python list of numbers (or of lists of them) is one array, as Keras reads it
        x, y, sample_weight = (np.asarray(v) if _is_plain(v) else v
                               for v in (x, y, sample_weight))
        # float arrays as floatx once, as Keras's data adapter converts them
        self.arrays = [_floatx(_as_array(v)) for v in nest.flatten([x, y, sample_weight])
                       if v is not None]
        self.structure = [x, y, sample_weight]
        self.nested = any(nest.is_nested(v) for v in self.structure)
        sizes = {len(a) for a in self.arrays}
        if len(sizes) != 1:
            raise ValueError(f"Data cardinality is ambiguous: the arrays have sizes "
                             f"{sorted(sizes)} along the first axis. Fix: make sure all arrays "
                             "contain the same number of samples")
        self.n = sizes.pop()
        # (without a batch_size, Keras makes `steps` batches of an epoch's examples)
        self.batch_size = int(batch_size or (math.ceil(self.n / steps) if steps else 32))
        self.steps = steps or max(1, math.ceil(self.n / self.batch_size))
        self._stream, self._passes_left = None, epochs

    def on_epoch_end(self):
        if isinstance(self.dataset, SequenceFeed):
            self.dataset.on_epoch_end()

    def epoch(self):
        if self.dataset is not None:
            # (checked before drawing: a generator goes on where the last epoch stopped)
            source, drawn = self._source(), 0
            while self.limit is None or drawn < self.limit:
                element = next(source, _END)
                if element is _END:
                    # with steps_per_epoch, Keras stops training when the data runs out
                    self.ran_out = self.limit is not None and not isinstance(
                        self.dataset, SequenceFeed)
                    return
                drawn += 1
                yield element
            return
        # Keras makes one stream of batches over arrays for a whole fit: one pass over the
        # examples (reshuffled) per epoch it was asked for; an epoch takes the next `steps`
        # batches (where the last stopped, after steps_per_epoch batches or after a fit
        # resumed mid-epoch by BackupAndRestore), and when the stream runs out the epoch ends
        if self._stream is None:
            self._stream = self._passes()
        for _ in range(math.ceil(self.steps)):     # (steps_per_epoch may be a float)
            batch = next(self._stream, _END)
            if batch is _END:
                self.ran_out = True
                return
            yield batch

    def _source(self):
        """This epoch's iterator over the dataset: a new one, or the fit's one (see
        __init__)."""
        if getattr(self, "_one_iterator", None) is None:
            return iter(self.dataset)
        if self._one_iterator is _UNSTARTED:
            self._one_iterator = iter(self.dataset)
        return self._one_iterator

    def _passes(self):
        while self._passes_left > 0:
            self._passes_left -= 1
            yield from self._one_pass()

    def _one_pass(self):
        order = None
        if self.shuffle:
            from ..engine.ops import makers
            order = np.random.default_rng(int(makers._Random.rng.integers(2 ** 62))) \
                .permutation(self.n)
        size = self.batch_size
        for step in range(math.ceil(self.n / size)):
            cut = slice(step * size, (step + 1) * size)    # (a slice copies nothing)
            index = cut if order is None else order[cut]
            tensors = [convert_to_tensor(a[index]) for a in self.arrays]
            if not self.nested:
                parts = iter(tensors)
                yield _pack(*[None if s is None else next(parts) for s in self.structure])
                continue
            parts = iter(tensors)
            yield _pack(*[None if s is None else nest.pack_sequence_as(s, [
                next(parts) for _ in nest.flatten(s)]) for s in self.structure])


def _class_weights(x, y, sample_weight, class_weight):
    """Keras's class_weight: each example's weight is its class's (times its sample_weight)."""
    from ..data import Dataset
    if isinstance(x, Dataset) or y is None or nest.is_nested(y):
        raise ValueError("fit: tapeviz takes `class_weight` with array targets of a "
                         "single-output model only. Fix: pass sample_weight=np.array("
                         "[class_weight[c] for c in labels]) instead")
    labels = _as_array(y)
    if labels.ndim > 1 and labels.shape[-1] > 1:
        labels = np.argmax(labels, axis=-1)
    labels = labels.reshape(len(labels), -1)[:, 0].astype(np.int64)
    missing = sorted(set(labels.tolist()) - set(class_weight))
    if missing:
        raise ValueError(f"Expected `class_weight` to be a dict with keys from 0 to one less "
                         f"than the number of classes, found {class_weight}: classes {missing} "
                         "have no weight. Fix: give every class a weight")
    weights = np.array([class_weight[c] for c in labels], np.float32)
    return weights if sample_weight is None else weights * _as_array(sample_weight)


def _floatx(array):
    return array.astype(_backend.floatx(), copy=False) if array.dtype.kind == "f" else array


def _as_array(v):
    return np.asarray(v.numpy() if isinstance(v, _Operand) else v)


def _split(x, y, w, fraction):
    """Keras's validation_split: the last `fraction` of the examples, before shuffling."""
    n = len(_as_array(nest.flatten(x)[0]))
    at = int(n * (1.0 - fraction))

    def cut(s, part):
        return None if s is None else nest.pack_sequence_as(
            s, [_as_array(a)[part] for a in nest.flatten(s)])
    return tuple(tuple(cut(s, part) for s in (x, y, w))
                 for part in (slice(0, at), slice(at, None)))


def _as_xyw(validation_data):
    from ..data import Dataset
    if isinstance(validation_data, (Dataset, Sequence)):
        return validation_data, None, None
    if isinstance(validation_data, (list, tuple)) and len(validation_data) in (2, 3):
        return tuple(validation_data) + (None,) * (3 - len(validation_data))
    raise ValueError(f"When passing a `validation_data` argument, it must contain either 2 "
                     f"items (x_val, y_val), or 3 items (x_val, y_val, val_sample_weights), "
                     f"or it can be a `tf.data.Dataset`. Received: {type(validation_data)}. "
                     "Fix: validation_data=(x_val, y_val)")
