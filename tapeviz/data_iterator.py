"""The iterator of a `tf.data.Dataset` (`iter(dataset)`), which a `tf.train.Checkpoint` can
save and restore, as TensorFlow's checkpoint guide does with `Checkpoint(iterator=...)`.

Its saved state is the number of elements it has given. Restoring it starts the dataset
again and skips that many elements, so it goes on where the saved one stopped as long as the
dataset gives the same elements each time it is read (no `shuffle`, or a seeded one in a
program that draws the same random numbers before it).
"""
from __future__ import annotations

import numpy as np


class DatasetIterator:
    def __init__(self, dataset):
        self._dataset = dataset
        self._elements = iter(dataset._make_iterator())
        self._given = 0            # elements given so far
        self._wanted = 0           # where a restored checkpoint says to be; equal otherwise

    def __iter__(self):
        return self

    def __next__(self):
        if self._wanted != self._given:
            self._elements = iter(self._dataset._make_iterator())
            for _ in range(self._wanted):
                next(self._elements)
            self._given = self._wanted
        element = next(self._elements)
        self._given += 1
        self._wanted = self._given
        return element

    def get_next(self):
        return next(self)

    # --- for tf.train.Checkpoint (tapeviz/checkpoint.py) -----------------------------------
    def checkpoint_position(self) -> np.ndarray:
        return np.asarray(self._wanted, np.int64)

    def restore_position(self, position) -> None:
        self._wanted = int(position)
