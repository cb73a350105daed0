"""`tv.keras.callbacks.TensorBoard`: TensorBoard logs of `fit`, as tf-keras writes them.

Through `tv.summary`, into `log_dir/train` and `log_dir/validation`: at each epoch's end
`epoch_<metric>` (step: the epoch) for the training and the validation logs, and
`epoch_learning_rate` when the optimizer's learning rate is a schedule; at the end of each
validation (and of `evaluate` given this callback) `evaluation_<metric>_vs_iterations` (step:
the optimizer's iterations); every `histogram_freq` epochs, a histogram of each layer's
weights (`dense/kernel_0/histogram`). Since each scalar goes through `tf.summary.scalar`, the
dashboard's Training charts show them too ('train/epoch_loss', 'validation/epoch_loss').

What is not imitated: the model's graph and Keras config (`write_graph`), weight images
(`write_images`), embeddings and profiling are not written; `update_freq` is accepted, and,
as tf-keras's eager `fit`, writes no batch-level summaries.
"""
from __future__ import annotations

import os

from .. import summary as _summary
from .callbacks import Callback
from .schedules import LearningRateSchedule


class TensorBoard(Callback):
    """Writes `fit`'s metrics (and weight histograms) for TensorBoard, per epoch."""

    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True, write_images=False,
                 write_steps_per_second=False, update_freq="epoch", profile_batch=0,
                 embeddings_freq=0, embeddings_metadata=None, **kwargs):
        super().__init__()
        if update_freq != "epoch" and update_freq != "batch" and not (
                isinstance(update_freq, int) and update_freq > 0):
            raise ValueError(f"TensorBoard: update_freq must be 'epoch', 'batch' or a positive "
                             f"number of batches, got {update_freq!r}. Fix: update_freq='epoch'")
        if not isinstance(histogram_freq, int) or histogram_freq < 0:
            raise ValueError(f"TensorBoard: histogram_freq must be a non-negative int, got "
                             f"{histogram_freq!r}. Fix: e.g. histogram_freq=1 (every epoch)")
        self.log_dir = os.fspath(log_dir)
        self.histogram_freq = histogram_freq
        self.update_freq = update_freq
        self._writers: dict = {}

    def _writer(self, run):
        """The writer of `log_dir/run`, made when first written to (as tf-keras's)."""
        if run not in self._writers:
            self._writers[run] = _summary.create_file_writer(os.path.join(self.log_dir, run))
        return self._writers[run]

    def _iterations(self):
        optimizer = getattr(self.model, "optimizer", None)
        return getattr(optimizer, "iterations", None)

    def on_test_end(self, logs=None):
        step = self._iterations()
        if step is None or not logs:
            return
        with _summary.record_if(True), self._writer("validation").as_default():
            for name, value in logs.items():
                _summary.scalar(f"evaluation_{name}_vs_iterations", value,
                                step=int(step.numpy()))

    def on_epoch_end(self, epoch, logs=None):
        logs = dict(logs or {})
        train = {k: v for k, v in logs.items() if not k.startswith("val_")}
        validation = {k[4:]: v for k, v in logs.items() if k.startswith("val_")}
        rate = getattr(getattr(self.model, "optimizer", None), "_learning_rate", None)
        if isinstance(rate, LearningRateSchedule):
            train["learning_rate"] = rate(self._iterations())
        with _summary.record_if(True):
            for run, values in (("train", train), ("validation", validation)):
                if values:
                    with self._writer(run).as_default():
                        for name, value in values.items():
                            _summary.scalar("epoch_" + name, value, step=epoch)
            if self.histogram_freq and epoch % self.histogram_freq == 0:
                with self._writer("train").as_default():
                    for layer in self.model.layers:
                        for weight in layer.weights:
                            _summary.histogram(weight.name.replace(":", "_") + "/histogram",
                                               weight, step=epoch)

    def on_train_end(self, logs=None):
        for writer in self._writers.values():
            writer.close()
        self._writers = {}
