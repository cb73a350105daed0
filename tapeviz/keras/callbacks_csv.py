"""`tf.keras.callbacks.CSVLogger`: one row per epoch of `fit`'s logs in a CSV file, as
tf-keras writes it (an `epoch` column, then the logs' keys sorted, with `val_` columns even
without validation data, `NA` where a value is missing; a header unless appending to a file
that has lines).
"""
from __future__ import annotations

import collections
import csv
import os

import numpy as np

from .callbacks import Callback


def _cell(value):
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return value
    if isinstance(value, (list, tuple, np.ndarray)):
        return f'"[{", ".join(map(str, value))}]"'
    return value


class CSVLogger(Callback):
    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.filename = os.fspath(filename)
        self.sep, self.append = separator, append
        self.writer = self.keys = self.csv_file = None
        self.append_header = True

    def on_train_begin(self, logs=None):
        if self.append:
            if os.path.exists(self.filename):
                with open(self.filename) as f:
                    self.append_header = not bool(len(f.readline()))
            mode = "a"
        else:
            mode = "w"
        self.csv_file = open(self.filename, mode, newline="")

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs.keys())
            # (as tf-keras: columns for validation metrics even before, or without, any)
            if not any(key.startswith("val_") for key in self.keys):
                self.keys += ["val_" + key for key in self.keys]
        if self.writer is None:
            fieldnames = ["epoch"] + self.keys

            class Dialect(csv.excel):
                delimiter = self.sep

            self.writer = csv.DictWriter(self.csv_file, fieldnames=fieldnames, dialect=Dialect)
            if self.append_header:
                self.writer.writeheader()
        row = collections.OrderedDict({"epoch": epoch})
        row.update((key, _cell(logs.get(key, "NA"))) for key in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        if self.csv_file is not None:
            self.csv_file.close()
        self.writer = None
