"""`tv.keras.utils.Sequence` and how `fit`/`evaluate`/`predict` read one, as tf-keras does.

tf-keras's `KerasSequenceAdapter` (one worker, no multiprocessing) reads `seq[0]` once when
the loop starts (to learn the batch's structure, then drops it), and in each epoch visits
`range(len(seq))`, in an order drawn with Python's `random.shuffle` when `shuffle=True` (fit's
default), then calls `seq.on_epoch_end()`. A `__getitem__` that draws from Python's `random`
therefore sees the same sequence of draws here as under TensorFlow.
"""
from __future__ import annotations

import random


class Sequence:
    """Base object for fitting to a sequence of data: implement `__getitem__(index)` (one
    complete batch: `x`, `(x, y)` or `(x, y, sample_weight)`) and `__len__` (the number of
    batches); `on_epoch_end` runs after every epoch."""

    def __getitem__(self, index):
        raise NotImplementedError(f"{type(self).__name__}.__getitem__ is not implemented. "
                                  "Fix: define __getitem__(self, index) returning one batch")

    def __len__(self):
        raise NotImplementedError(f"{type(self).__name__}.__len__ is not implemented. "
                                  "Fix: define __len__(self) returning the number of batches")

    def on_epoch_end(self):
        """Method called at the end of every epoch."""

    def __iter__(self):
        """Every batch, in order."""
        for index in range(len(self)):
            yield self[index]


class SequenceFeed:
    """The batches of a `Sequence` for the training loops, with tf-keras's calls to it."""

    def __init__(self, sequence, y, sample_weight, shuffle):
        if y is not None:
            raise ValueError("`y` argument is not supported when using `keras.utils.Sequence`"
                             " as input. Fix: return (x, y) batches from __getitem__")
        if sample_weight is not None:
            raise ValueError("`sample_weight` argument is not supported when using "
                             "`keras.utils.Sequence` as input. Fix: return (x, y, "
                             "sample_weight) batches from __getitem__")
        self.sequence, self.shuffle = sequence, bool(shuffle)
        sequence[0]   # tf-keras peeks at the first batch once, before the first epoch

    def cardinality(self):
        return len(self.sequence)

    def __iter__(self):
        from .training_data import _batch, _pack, unpack_x_y_sample_weight
        order = range(len(self.sequence))
        if self.shuffle:
            order = list(order)
            random.shuffle(order)   # tf-keras's convention, with Python's global generator
        for index in order:
            # tf-keras's _standardize_batch: Nones dropped, lists as tuples, floats as floatx
            yield _batch(_pack(*unpack_x_y_sample_weight(self.sequence[index])))

    def on_epoch_end(self):
        self.sequence.on_epoch_end()
