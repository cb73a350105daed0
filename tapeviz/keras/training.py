"""`Model.compile`, `fit`, `evaluate`, `predict` and the `*_on_batch` methods, as Keras's.

Each `fit` step is `train_step`: a real `tv.GradientTape` around the model's forward pass and
the compiled loss, then `optimizer.apply_gradients`, so a recording of `fit` holds one tape
per step, its ops in the layers' name scopes, explained like a hand-written loop. Override
`train_step(self, data)` (and `test_step`) as in Keras to train differently.

Data comes in batches as Keras's data adapter cuts them (`training_data.py`).
"""
from __future__ import annotations

import itertools
import warnings

import numpy as np

from ..engine import nest
from . import callbacks as _callbacks
from . import optimizers as _optimizers
from .callbacks_backup import resume_point
from .compile_utils import LossesContainer, MetricsContainer
from .step_function import run_step
from .steps_per_execution import configure, executions, joined_outputs, per_execution
from .training_data import (Batches, _as_xyw, _batch, _class_weights, _pack, _split,
                            unpack_x_y_sample_weight)


class Trainer:
    """The training methods of `tv.keras.Model`."""

    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None,
                weighted_metrics=None, run_eagerly=None, steps_per_execution=None,
                jit_compile=None, **kwargs):
        self.optimizer = _optimizers.get(optimizer)
        if self._dtype_policy.name == "mixed_float16":     # as Keras: float16 needs loss scaling
            from .loss_scale_optimizer import loss_scaled
            self.optimizer = loss_scaled(self.optimizer)
        # (what model.save writes as the compile config, and load_model compiles with)
        self._compile_arguments = {"loss": loss, "metrics": metrics,
                                   "loss_weights": loss_weights,
                                   "weighted_metrics": weighted_metrics}
        graph = getattr(self, "_graph", None)
        names = self.output_names if graph is not None else ["output_1"]
        if graph is not None and isinstance(graph.outputs, dict):
            # losses, metrics and targets may be keyed by the outputs' keys or layer names
            names = list(zip(sorted(graph.outputs), names))
        self.loss = loss
        # a model without a graph names its outputs when it is first called, as Keras's
        self.compiled_loss = LossesContainer(loss, loss_weights, names,
                                             named_by_call=graph is None)
        self.compiled_metrics = MetricsContainer(metrics, names, self.compiled_loss.losses,
                                                 weighted_metrics, named_by_call=graph is None)
        self._is_compiled = True
        self._run_eagerly, self._compile_token = run_eagerly, object()   # new train functions
        configure(self, steps_per_execution)
        self.stop_training = False

    #: compile's `steps_per_execution` as an int64 variable (None before compile)
    steps_per_execution = property(lambda self: getattr(self, "_steps_per_execution", None))

    @property
    def metrics(self) -> list:
        """The loss tracker(s), then the compiled metrics (built at the first batch)."""
        if not getattr(self, "_is_compiled", False):
            return []
        return self.compiled_loss.metrics + self.compiled_metrics.metrics + self.added_metrics

    @property
    def metrics_names(self) -> list:
        return [m.name for m in self.metrics]

    def reset_metrics(self):
        for m in self.metrics:
            m.reset_state()

    def _assert_compiled(self):
        if not getattr(self, "_is_compiled", False):
            raise RuntimeError("You must compile your model before training/testing. Use "
                               "`model.compile(optimizer, loss)`.")

    # --- one step -------------------------------------------------------------------------------
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None):
        return self.compiled_loss(y, y_pred, sample_weight, regularization_losses=self.losses)

    def compute_metrics(self, x, y, y_pred, sample_weight):
        if y is not None:
            self.compiled_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self) -> dict:
        return {m.name: m.result() for m in self.metrics}

    def train_step(self, data):
        from ..engine.tape import GradientTape
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight)
        self.optimizer.minimize(loss, self.trainable_variables, tape=tape)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data):
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        self.compute_loss(x, y, y_pred, sample_weight)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data):
        x, _, _ = unpack_x_y_sample_weight(data)
        return self(x, training=False)

    # --- loops ----------------------------------------------------------------------------------
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None, validation_steps=None,
            validation_batch_size=None, validation_freq=1, **kwargs):
        self._assert_compiled()
        if class_weight is not None:
            sample_weight = _class_weights(x, y, sample_weight, class_weight)
        if validation_split and validation_data is None:
            (x, y, sample_weight), validation_data = _split(x, y, sample_weight,
                                                            validation_split)
        passes = epochs - initial_epoch     # (the arrays' passes: one per epoch)
        batches = Batches(x, y, sample_weight, batch_size, shuffle, steps_per_epoch, passes)
        per_run = per_execution(self, batches)
        history = _callbacks.History()
        verbose = 1 if verbose == "auto" else verbose
        params = {"verbose": verbose, "epochs": epochs, "steps": batches.steps}
        extra = [_callbacks.ProgbarLogger(verbose)] if verbose else []
        cbs = _callbacks.CallbackList(extra + list(callbacks or []) + [history], self, params)
        self.stop_training = False
        cbs.on_train_begin()
        # (a BackupAndRestore may have restored an interrupted fit's epoch and batch)
        initial_epoch, first_step = resume_point(self, batches.steps, initial_epoch)
        logs: dict = {}
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            cbs.on_epoch_begin(epoch)
            # (a resumed epoch takes the batches that come next, numbered on from its first
            # step, as TensorFlow's: NumPy integers then)
            steps = itertools.count(first_step) if batches.steps is None else \
                _numbered(first_step, batches.steps)
            first_step = 0
            for group in executions(zip(steps, batches.epoch()), per_run):
                cbs.on_train_batch_begin(group[0][0])
                for _, data in group:
                    logs = _floats(run_step(self, self.train_step, data, "fit"))
                cbs.on_train_batch_end(group[-1][0], logs)
                if self.stop_training:
                    break
            epoch_logs = dict(logs)
            if validation_data is not None and (epoch + 1) % validation_freq == 0:
                val_x, val_y, val_w = _as_xyw(validation_data)
                val = self.evaluate(val_x, val_y, sample_weight=val_w, verbose=0,
                                    batch_size=validation_batch_size or batch_size,
                                    steps=validation_steps, return_dict=True, callbacks=cbs)
                epoch_logs.update({f"val_{k}": v for k, v in val.items()})
            cbs.on_epoch_end(epoch, epoch_logs)
            logs = epoch_logs
            if self.stop_training:
                break
            if batches.ran_out:
                warnings.warn(f"Your input ran out of data; interrupting training. Make sure "
                              f"that your dataset or generator can generate at least "
                              f"`steps_per_epoch * epochs` batches (in this case, "
                              f"{passes * batches.steps} batches). Fix: "
                              "steps_per_epoch at most the batches in one pass over the data",
                              stacklevel=2)
                break
            batches.on_epoch_end()
        cbs.on_train_end(logs)
        return history

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None,
                 steps=None, callbacks=None, return_dict=False, **kwargs):
        self._assert_compiled()
        batches = Batches(x, y, sample_weight, batch_size, False, steps)
        per_run = per_execution(self, batches)
        cbs = callbacks if isinstance(callbacks, _callbacks.CallbackList) else \
            _callbacks.CallbackList(callbacks or [], self, {"verbose": verbose,
                                                            "steps": batches.steps})
        self.reset_metrics()
        cbs.on_test_begin()
        logs: dict = {}
        for group in executions(enumerate(batches.epoch()), per_run):
            cbs.on_test_batch_begin(group[0][0])
            for _, data in group:
                logs = _floats(run_step(self, self.test_step, data))
            cbs.on_test_batch_end(group[-1][0], logs)
        batches.on_epoch_end()
        cbs.on_test_end(logs)
        if verbose not in (0, "0"):
            print(" - ".join(f"{k}: {v:.4f}" for k, v in logs.items()))
        return _result(logs, return_dict)

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None, **kwargs):
        batches = Batches(x, None, None, batch_size, False, steps)
        per_run = per_execution(self, batches)
        cbs = _callbacks.CallbackList(callbacks or [], self, {"verbose": verbose,
                                                               "steps": batches.steps})
        cbs.on_predict_begin()
        outputs = []
        for group in executions(enumerate(batches.epoch()), per_run):
            cbs.on_predict_batch_begin(group[0][0])
            outs = [self.predict_step(data) for _, data in group]
            outputs += outs
            cbs.on_predict_batch_end(group[-1][0], {"outputs": joined_outputs(outs)})
        batches.on_epoch_end()
        cbs.on_predict_end()
        if not outputs:
            raise ValueError("Expected input data to be non-empty: predict got no batch (no "
                             "examples, or steps=0). Fix: give predict at least one example")
        flat = [nest.flatten(o) for o in outputs]
        joined = [np.concatenate([np.asarray(f[i].numpy()) for f in flat], axis=0)
                  for i in range(len(flat[0]))]
        return nest.pack_sequence_as(outputs[0], joined)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None,
                       reset_metrics=True, return_dict=False):
        self._assert_compiled()
        if reset_metrics:
            self.reset_metrics()
        data = _pack(_batch(x), _batch(y), _batch(sample_weight))
        logs = _floats(run_step(self, self.train_step, data, "train_on_batch"))
        return _result(logs, return_dict)

    def test_on_batch(self, x, y=None, sample_weight=None, reset_metrics=True,
                      return_dict=False):
        self._assert_compiled()
        if reset_metrics:
            self.reset_metrics()
        data = _pack(_batch(x), _batch(y), _batch(sample_weight))
        logs = _floats(run_step(self, self.test_step, data))
        return _result(logs, return_dict)

    def predict_on_batch(self, x):
        out = self.predict_step((_batch(x),))
        return nest.pack_sequence_as(out, [np.asarray(t.numpy()) for t in nest.flatten(out)])


def _numbered(first, stop):
    """first, first + 1, ... below stop (which may be a float), of first's type."""
    step = first
    while step < stop:
        yield step
        step += 1


def _floats(logs) -> dict:
    return {k: float(v.numpy()) if hasattr(v, "numpy") else float(v) for k, v in logs.items()}


def _result(logs, return_dict):
    values = list(logs.values())
    return logs if return_dict else values[0] if len(values) == 1 else values
