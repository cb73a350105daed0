"""`tf.keras.utils.SidecarEvaluator`: evaluate each new checkpoint a training job writes.

As tf-keras's: `start()` walks `tf.train.checkpoints_iterator(checkpoint_dir)` (the newest
checkpoint first, then each newer one as it appears), restores it into `model` (a
`tf.train.Checkpoint(model=..., optimizer=...)` as a custom loop saves with a
`CheckpointManager`, or the weights `ModelCheckpoint(save_weights_only=True)` writes), runs
`model.evaluate(data, steps=steps, callbacks=callbacks, verbose=2)`, and stops after a
checkpoint whose name ends in a number at least `max_evaluations` (None: never; it waits for
new checkpoints, asking again every 30 seconds). The checkpoints are tapeviz's own.
"""
from __future__ import annotations

from .. import checkpoint_files as files
from ..checkpoint import Checkpoint
from ..checkpoint_wait import checkpoints_iterator

#: seconds without a new checkpoint before the evaluator notes it and waits again
CHECKPOINT_TIMEOUT_SEC = 30


def _attributes(path) -> set:
    """The names a checkpoint's root holds (`model`, `optimizer`, ... for a Checkpoint of
    them; a model's weights are under `root`)."""
    return {name.split("/", 1)[0] for name in files.read(path, restoring=False)}


class SidecarEvaluator:
    """`SidecarEvaluator(model, data, checkpoint_dir, steps=None, max_evaluations=None,
    callbacks=None).start()`; `model` compiled with the metrics to report."""

    def __init__(self, model, data, checkpoint_dir, steps=None, max_evaluations=None,
                 callbacks=None):
        self.model = model
        self.data = data
        self.checkpoint_dir = checkpoint_dir
        self.max_evaluations = max_evaluations
        self.steps = steps
        self.callbacks = callbacks or []

    def _timeout_fn(self):
        return False     # (keep waiting: the training job may still write checkpoints)

    def start(self):
        checkpoint = Checkpoint(model=self.model, **(
            {"optimizer": self.model.optimizer} if getattr(self.model, "optimizer", None)
            else {}))
        for latest in checkpoints_iterator(self.checkpoint_dir, timeout=CHECKPOINT_TIMEOUT_SEC,
                                           timeout_fn=self._timeout_fn):
            checkpoint.restore(latest).expect_partial()
            if "model" not in _attributes(latest):
                self.model.load_weights(latest)
            self.model.evaluate(self.data, steps=self.steps, callbacks=self.callbacks,
                                verbose=2)
            if self.max_evaluations and self.max_evaluations <= int(latest.split("-")[-1]):
                return
