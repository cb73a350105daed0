"""`Model.compile`, `fit`, `evaluate`, `predict` and the `*_on_batch` methods, as Keras's.

Each `fit` step is `train_step`: a real `tv.GradientTape` around the model's forward pass and
the compiled loss, then `optimizer.apply_gradients`, so a recording of `fit` holds one tape
per step, its ops in the layers' name scopes, explained like a hand-written loop. Override
`train_step(self, data)` (and `test_step`) as in Keras to train differently.

Data: arrays, tensors, lists or dicts of them (cut into `batch_size` batches, floats cast to
`floatx()`, shuffled each epoch unless `shuffle=False`, repeatably after `tv.random.set_seed`
but not in TensorFlow's order), or a `tv.data.Dataset` or `keras.utils.Sequence` of batches.
"""
from __future__ import annotations

import math

import numpy as np

from ..engine import nest
from ..engine.convert import convert_to_tensor
from ..engine.tensor import Tensor, _Operand
from . import backend as _backend
from . import callbacks as _callbacks
from . import optimizers as _optimizers
from .compile_utils import LossesContainer, MetricsContainer
from .data_sequence import Sequence, SequenceFeed
from .optimizers_nadam import train_function


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
        self.stop_training = False

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
        batches = Batches(x, y, sample_weight, batch_size, shuffle, steps_per_epoch)
        history = _callbacks.History()
        verbose = 1 if verbose == "auto" else verbose
        params = {"verbose": verbose, "epochs": epochs, "steps": batches.steps}
        extra = [_callbacks.ProgbarLogger(verbose)] if verbose else []
        cbs = _callbacks.CallbackList(extra + list(callbacks or []) + [history], self, params)
        self.stop_training = False
        cbs.on_train_begin()
        logs: dict = {}
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            cbs.on_epoch_begin(epoch)
            for step, data in enumerate(batches.epoch()):
                cbs.on_train_batch_begin(step)
                with train_function(self, "fit"):
                    logs = _floats(self.train_step(data))
                cbs.on_train_batch_end(step, logs)
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
            batches.on_epoch_end()
        cbs.on_train_end(logs)
        return history

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None,
                 steps=None, callbacks=None, return_dict=False, **kwargs):
        self._assert_compiled()
        batches = Batches(x, y, sample_weight, batch_size, False, steps)
        cbs = callbacks if isinstance(callbacks, _callbacks.CallbackList) else \
            _callbacks.CallbackList(callbacks or [], self, {"verbose": verbose,
                                                            "steps": batches.steps})
        self.reset_metrics()
        cbs.on_test_begin()
        logs: dict = {}
        for step, data in enumerate(batches.epoch()):
            cbs.on_test_batch_begin(step)
            logs = _floats(self.test_step(data))
            cbs.on_test_batch_end(step, logs)
        batches.on_epoch_end()
        cbs.on_test_end(logs)
        if verbose not in (0, "0"):
            print(" - ".join(f"{k}: {v:.4f}" for k, v in logs.items()))
        return _result(logs, return_dict)

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None, **kwargs):
        batches = Batches(x, None, None, batch_size, False, steps)
        cbs = _callbacks.CallbackList(callbacks or [], self, {"verbose": verbose,
                                                               "steps": batches.steps})
        cbs.on_predict_begin()
        outputs = []
        for step, data in enumerate(batches.epoch()):
            cbs.on_predict_batch_begin(step)
            out = self.predict_step(data)
            outputs.append(out)
            cbs.on_predict_batch_end(step, {"outputs": out})
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
        with train_function(self, "train_on_batch"):
            logs = _floats(self.train_step(_pack(_batch(x), _batch(y), _batch(sample_weight))))
        return _result(logs, return_dict)

    def test_on_batch(self, x, y=None, sample_weight=None, reset_metrics=True,
                      return_dict=False):
        self._assert_compiled()
        if reset_metrics:
            self.reset_metrics()
        logs = _floats(self.test_step(_pack(_batch(x), _batch(y), _batch(sample_weight))))
        return _result(logs, return_dict)

    def predict_on_batch(self, x):
        out = self.predict_step((_batch(x),))
        return nest.pack_sequence_as(out, [np.asarray(t.numpy()) for t in nest.flatten(out)])


# --- data -------------------------------------------------------------------------------------
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


class Batches:
    """The batches of one epoch, from arrays or from a `tv.data.Dataset`."""

    def __init__(self, x, y, sample_weight, batch_size, shuffle, steps):
        from ..data import Dataset
        self.dataset = x if isinstance(x, Dataset) else None
        if isinstance(x, Sequence):
            self.dataset = SequenceFeed(x, y, sample_weight, shuffle)
        self.shuffle, self.limit = shuffle, steps
        if self.dataset is not None:
            if y is not None:
                raise ValueError("`y` argument is not supported when using dataset as input. "
                                 "Fix: put the targets in the dataset: "
                                 "Dataset.from_tensor_slices((x, y)).batch(32)")
            n = self.dataset.cardinality()
            n = int(n.numpy()) if hasattr(n, "numpy") else int(n)
            self.steps = steps or (n if n >= 0 else None)
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
        self.batch_size = int(batch_size or 32)
        self.steps = steps or max(1, math.ceil(self.n / self.batch_size))
        self._stream = None

    def on_epoch_end(self):
        if isinstance(self.dataset, SequenceFeed):
            self.dataset.on_epoch_end()

    def epoch(self):
        if self.dataset is not None:
            for i, element in enumerate(self.dataset):
                if self.limit is not None and i >= self.limit:
                    return
                yield element
            return
        if self.limit is None:
            yield from self._one_pass()
            return
        # steps_per_epoch over arrays: Keras keeps one stream of batches across epochs (the
        # next epoch starts where the last stopped), a new pass, reshuffled, when one ends
        if self._stream is None:
            self._stream = self._passes()
        for _ in range(self.limit):
            yield next(self._stream)

    def _passes(self):
        while True:
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


def _floats(logs) -> dict:
    return {k: float(v.numpy()) if hasattr(v, "numpy") else float(v) for k, v in logs.items()}


def _result(logs, return_dict):
    values = list(logs.values())
    return logs if return_dict else values[0] if len(values) == 1 else values
