"""`tf.train.CheckpointManager`: numbered checkpoints in one directory, the oldest deleted."""
from __future__ import annotations

import os

import numpy as np

from . import checkpoint_files as files


class CheckpointManager:
    """`CheckpointManager(checkpoint, directory, max_to_keep)`: `save()` writes
    `directory/ckpt-N` (N from the checkpoint's `save_counter`, or `checkpoint_number`), keeps
    the newest `max_to_keep` (all with None) and records them in the directory's state file;
    a manager made on a directory that has one takes up its list."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None,
                 init_fn=None):
        from .checkpoint import Checkpoint
        if not isinstance(checkpoint, Checkpoint):
            raise TypeError(f"CheckpointManager expects a tf.train.Checkpoint, got "
                            f"{type(checkpoint).__name__}. Fix: "
                            "tf.train.CheckpointManager(tf.train.Checkpoint(model=model), ...)")
        if max_to_keep is not None and (not isinstance(max_to_keep, int) or max_to_keep <= 0):
            raise ValueError(f"CheckpointManager: max_to_keep must be a positive integer or "
                             f"None, got {max_to_keep!r}. Fix: e.g. max_to_keep=3")
        # (step_counter only counts for checkpoint_interval, refused below)
        if keep_checkpoint_every_n_hours is not None or checkpoint_interval is not None:
            raise ValueError("CheckpointManager: keep_checkpoint_every_n_hours and "
                             "checkpoint_interval are not supported by tapeviz. Fix: leave them "
                             "out and choose when to call save()")
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._prefix = os.path.join(self._directory, checkpoint_name)
        self._init_fn = init_fn
        _, kept = files.read_state(self._directory)
        self._kept = [p for p in kept if files.exists(p)]

    @property
    def directory(self) -> str:
        return self._directory

    @property
    def checkpoint(self):
        return self._checkpoint

    @property
    def latest_checkpoint(self):
        """The newest checkpoint's prefix, or None."""
        return self._kept[-1] if self._kept else None

    @property
    def checkpoints(self) -> list:
        """The prefixes kept, oldest first."""
        return list(self._kept)

    def save(self, checkpoint_number=None, check_interval=True, options=None) -> str:
        counter = self._checkpoint.save_counter
        counter.assign_add(np.int64(1))
        number = int(counter._value) if checkpoint_number is None else int(checkpoint_number)
        path = self._checkpoint.write(f"{self._prefix}-{number}")
        self._kept = [p for p in self._kept if p != path] + [path]
        if self._max_to_keep is not None:
            while len(self._kept) > self._max_to_keep:
                files.remove(self._kept.pop(0))
        files.write_state(self._directory, path, self._kept)
        return path

    def restore_or_initialize(self):
        """Restore the newest checkpoint (returning its path), else run `init_fn` (None)."""
        if self.latest_checkpoint is not None:
            self._checkpoint.restore(self.latest_checkpoint)
            return self.latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None
