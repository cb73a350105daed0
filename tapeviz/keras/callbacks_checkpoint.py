"""`tf.keras.callbacks.ModelCheckpoint`: save the model's weights during `fit`, each epoch or
every `save_freq` batches, optionally only when `monitor` improves (Keras's rules: 'min' /
'max' / 'auto', where 'auto' maximises a name containing 'acc'), to a `filepath` formatted
with the epoch and the logs (`'w-{epoch:02d}-{val_loss:.2f}'`).

Weights go through `Model.save_weights`, the whole model (`save_weights_only=False`, Keras's
default) through `Model.save`: the path's suffix chooses the format (saving_api.py).
"""
from __future__ import annotations

import os
import warnings

import numpy as np

from .callbacks import Callback

class ModelCheckpoint(Callback):
    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False,
                 save_weights_only=False, mode="auto", save_freq="epoch", options=None,
                 initial_value_threshold=None, **kwargs):
        super().__init__()
        if save_freq != "epoch" and not (isinstance(save_freq, int) and
                                         not isinstance(save_freq, bool)):
            raise ValueError(f"Unrecognized save_freq: {save_freq!r}. Expected save_freq are "
                             '"epoch" or integer')
        self.filepath = os.fspath(filepath)
        self.monitor, self.verbose = monitor, verbose
        self.save_best_only, self.save_weights_only = save_best_only, save_weights_only
        self.save_freq = save_freq
        self.best = initial_value_threshold
        self._batches_since_save, self._last_batch = 0, -1
        self._current_epoch = 0
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"ModelCheckpoint mode {mode!r} is unknown, fallback to auto mode.",
                          stacklevel=2)
            mode = "auto"
        maximise = mode == "max" or (mode == "auto" and (
            "acc" in monitor or monitor.startswith("fmeasure")))
        self.monitor_op = np.greater if maximise else np.less
        if self.best is None:
            self.best = -np.inf if maximise else np.inf

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq == "epoch":
            return
        # (a batch number not above the last one seen starts a new epoch)
        added = batch + 1 if batch <= self._last_batch else batch - self._last_batch
        self._batches_since_save += added
        self._last_batch = batch
        if self._batches_since_save >= self.save_freq:
            self._batches_since_save = 0
            self._save(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch":
            self._save(epoch, None, logs)

    def _save(self, epoch, batch, logs):
        logs = {k: float(v) if np.ndim(v) == 0 and not isinstance(v, str) else v
                for k, v in (logs or {}).items()}
        filepath = self._file_path(epoch, batch, logs)
        directory = os.path.dirname(filepath)
        if directory:
            os.makedirs(directory, exist_ok=True)
        if not self.save_best_only:
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: saving model to {filepath}")
            self._write(filepath)
            return
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(f"Can save best model only with {self.monitor} available, skipping. "
                          f"Available logs: {', '.join(logs)}. Fix: monitor one of those "
                          "(val_ ones need validation data)", stacklevel=3)
        elif self.monitor_op(current, self.best):
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: {self.monitor} improved from {self.best:.5f} to "
                      f"{current:.5f}, saving model to {filepath}")
            self.best = current
            self._write(filepath)
        elif self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {self.best:.5f}")

    def _write(self, filepath):
        if self.save_weights_only:
            self.model.save_weights(filepath, overwrite=True)
        else:
            self.model.save(filepath, overwrite=True)

    def _file_path(self, epoch, batch, logs) -> str:
        try:
            if batch is None or "batch" in logs:
                return self.filepath.format(epoch=epoch + 1, **logs)
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        except KeyError as e:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". '
                           f"Reason: {e}. Fix: name only 'epoch', 'batch' (with an integer "
                           f"save_freq) or keys of the logs: {sorted(logs)}") from None
