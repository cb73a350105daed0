"""`tf.keras.callbacks.BackupAndRestore`: back up the training state during `fit` so that a
`fit` interrupted by an exception can be resumed by a new `fit` with the same `backup_dir`.

As tf-keras's: at the end of every epoch (`save_freq='epoch'`) or every `save_freq` batches,
a `tf.train.Checkpoint` of the model (its weights and its optimizer's state) and of the
epoch and batch reached is written by a `CheckpointManager` keeping one checkpoint in
`backup_dir/chief`. The next `fit` with this callback restores it when training begins and
starts at the epoch after the one backed up, or with an integer `save_freq` at the batch after
the one backed up (counting batches from 0 in the resumed epoch, whose data starts afresh as
TensorFlow's does). A `fit` that completes deletes the backup unless
`delete_checkpoint=False`. The files are tapeviz's checkpoints, not TensorFlow's.
"""
from __future__ import annotations

import os
import shutil

import numpy as np

from .callbacks import Callback

#: the saved epoch and batch before any backup
UNUSED = -1


class TrainingState:
    """The checkpointed state of one `fit`: the model, and the epoch and batch reached."""

    def __init__(self, model, backup_dir, save_freq):
        from ..checkpoint import Checkpoint
        from ..checkpoint_manager import CheckpointManager
        from ..engine.tensor import Variable
        self.save_freq = save_freq
        self.epoch = Variable(np.int64(UNUSED), trainable=False, name="ckpt_saved_epoch")
        self.batch = Variable(np.int64(UNUSED), trainable=False, name="ckpt_saved_batch")
        checkpoint = Checkpoint(model=model, ckpt_saved_epoch=self.epoch,
                                ckpt_saved_batch=self.batch)
        self.manager = CheckpointManager(checkpoint, os.path.join(backup_dir, "chief"),
                                         max_to_keep=1)

    def back_up(self):
        self.manager.save()

    def restore(self):
        self.manager.restore_or_initialize()

    def delete_backup(self):
        shutil.rmtree(self.manager.directory, ignore_errors=True)

    def initial_counters(self, steps_per_epoch, initial_epoch):
        """(first epoch, first batch) of a `fit` resuming from what was restored."""
        epoch, batch = np.int64(self.epoch.numpy()), np.int64(self.batch.numpy())
        if isinstance(self.save_freq, int):
            if batch >= 0:
                if batch == (steps_per_epoch or 0) - 1:
                    return int(epoch) + 1, 0
                return int(epoch), batch + 1
        elif epoch >= 0:
            return int(epoch) + 1, 0
        return initial_epoch, 0


def resume_point(model, steps_per_epoch, initial_epoch):
    """Where `fit` begins: `initial_epoch`, batch 0, unless a BackupAndRestore restored a
    backup when training began."""
    state = getattr(model, "_training_state", None)
    if state is None:
        return initial_epoch, 0
    return state.initial_counters(steps_per_epoch, initial_epoch)


class BackupAndRestore(Callback):
    """`BackupAndRestore(backup_dir, save_freq='epoch', delete_checkpoint=True,
    save_before_preemption=False)`; give one `backup_dir` to this callback only."""

    def __init__(self, backup_dir, save_freq="epoch", delete_checkpoint=True,
                 save_before_preemption=False):
        super().__init__()
        if save_freq != "epoch" and save_freq is not False and not (
                isinstance(save_freq, int) and not isinstance(save_freq, bool)):
            raise ValueError(f"BackupAndRestore: save_freq must be 'epoch', an integer number "
                             f"of batches or False, got {save_freq!r}. Fix: e.g. save_freq=100")
        if not save_freq and not save_before_preemption:
            raise ValueError("Either `save_freq` or `save_before_preemption` must be set.")
        self.backup_dir = backup_dir
        self.save_freq = save_freq
        self.delete_checkpoint = delete_checkpoint
        # (preemption notices come from a cluster tapeviz does not run on: nothing to catch)
        self.save_before_preemption = save_before_preemption
        # (kept across fits, as tf-keras keeps them)
        self._batches_count = 0
        self._current_epoch = 0

    def on_train_begin(self, logs=None):
        self._training_state = self.model._training_state = TrainingState(
            self.model, self.backup_dir, self.save_freq)
        self._training_state.restore()

    def on_train_batch_begin(self, batch, logs=None):
        self._training_state.batch.assign(np.int64(batch))

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq and self.save_freq != "epoch":
            self._batches_count += 1
            if self._batches_count >= self.save_freq:
                self._batches_count = 0
                self._training_state.back_up()

    def on_epoch_begin(self, epoch, logs=None):
        self._training_state.epoch.assign(np.int64(epoch))
        self._current_epoch = epoch

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch":
            self._training_state.back_up()

    def on_train_end(self, logs=None):
        if self.delete_checkpoint:
            self._training_state.delete_backup()
        del self._training_state
        del self.model._training_state
