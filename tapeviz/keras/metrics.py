"""`tv.keras.metrics`: running averages for training loops (`Mean`, accuracies).

A metric keeps its state in non-trainable float32 Variables, as Keras's; `update_state`
adds to it, `result()` reads it, `reset_state()` clears it, and calling the metric does
both the update and the read.

>>> import tapeviz as tv
>>> m = tv.keras.metrics.Mean()
>>> _ = m.update_state([1.0, 2.0, 3.0])
>>> float(m.result())
2.0
"""
from __future__ import annotations

import numpy as np

from ..engine.errors import InvalidArgumentError, UnimplementedError
from ..engine.ops._base import tensor
from ..engine.tensor import Tensor, Variable


def _np(x, dtype=None):
    value = np.asarray(tensor(x)._value)
    return value.astype(dtype) if dtype is not None else value


class Metric:
    def __init__(self, name=None, dtype="float32"):
        self.name = name or type(self).__name__.lower()
        self.dtype = dtype
        self.total = Variable(np.float32(0.0), trainable=False, name=f"{self.name}/total")
        self.count = Variable(np.float32(0.0), trainable=False, name=f"{self.name}/count")

    @property
    def variables(self) -> list:
        return [self.total, self.count]

    def _add(self, values, sample_weight=None):
        values = np.asarray(values, np.float64)
        if sample_weight is None:
            total, count = values.sum(), values.size
        else:
            w = np.broadcast_to(_np(sample_weight, np.float64), values.shape)
            total, count = (values * w).sum(), w.sum()
        self.total.assign(np.float32(float(self.total._value) + total))
        self.count.assign(np.float32(float(self.count._value) + count))

    def result(self) -> Tensor:
        count = float(self.count._value)
        return tensor(np.float32(float(self.total._value) / count if count else 0.0))

    def reset_state(self):
        self.total.assign(np.float32(0.0))
        self.count.assign(np.float32(0.0))

    reset_states = reset_state

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name} result={float(self.result()._value)}>"


class Mean(Metric):
    """The (weighted) mean of every value given so far."""

    def __init__(self, name="mean", dtype="float32"):
        super().__init__(name, dtype)

    def update_state(self, values, sample_weight=None):
        values = _np(values)
        if values.dtype.kind not in "fiub":
            raise UnimplementedError(
                f"{self.name}: Cast string to float32 is not supported: a Mean averages "
                f"numbers, got {values.tolist()!r} (shape {values.shape}). Fix: pass numbers, "
                "e.g. a loss tensor [Op:Cast]", "Cast")
        self._add(values, sample_weight)
        return self.total


class Sum(Metric):
    def __init__(self, name="sum", dtype="float32"):
        super().__init__(name, dtype)

    def update_state(self, values, sample_weight=None):
        self._add(_np(values), sample_weight)
        return self.total

    def result(self) -> Tensor:
        return tensor(np.float32(self.total._value))


class _MatchRate(Metric):
    """How often a prediction matches its label; a subclass says what matches."""

    def _matches(self, y_true, y_pred):
        raise NotImplementedError

    def update_state(self, y_true, y_pred, sample_weight=None):
        self._add(self._matches(y_true, y_pred), sample_weight)
        return self.total


class Accuracy(_MatchRate):
    """How often `y_pred` equals `y_true`."""

    def __init__(self, name="accuracy", dtype="float32"):
        super().__init__(name, dtype)

    def _matches(self, y_true, y_pred):
        t, p = _np(y_true), _np(y_pred)
        t = t.reshape(p.shape) if t.size == p.size else t
        try:
            np.broadcast_shapes(t.shape, p.shape)
        except ValueError:
            raise InvalidArgumentError(
                f"{self.name}: Incompatible shapes: y_true {list(t.shape)} vs. y_pred "
                f"{list(p.shape)}. Fix: pass one prediction per label [Op:Equal]",
                "Equal") from None
        return t == p


class SparseCategoricalAccuracy(_MatchRate):
    """How often the arg-max of `y_pred` (scores per class) equals the integer label."""

    def __init__(self, name="sparse_categorical_accuracy", dtype="float32"):
        super().__init__(name, dtype)

    def _matches(self, y_true, y_pred):
        p = _np(y_pred)
        t = _np(y_true)
        if t.ndim == p.ndim and t.shape[-1] == 1:
            t = t[..., 0]
        return np.argmax(p, axis=-1) == t.astype(np.int64)


class CategoricalAccuracy(_MatchRate):
    """How often the arg-max of `y_pred` equals the arg-max of the one-hot `y_true`."""

    def __init__(self, name="categorical_accuracy", dtype="float32"):
        super().__init__(name, dtype)

    def _matches(self, y_true, y_pred):
        return np.argmax(_np(y_pred), -1) == np.argmax(_np(y_true), -1)


class _MeanOfErrors(Mean):
    """The mean over samples of each sample's mean elementwise error ``_error(y_pred - y_true)``
    over the last axis; a subclass names the error."""

    _error = None

    def update_state(self, y_true, y_pred, sample_weight=None):
        p = _np(y_pred, np.float64)
        t = _np(y_true, np.float64)
        if t.size == p.size:
            t = t.reshape(p.shape)
        return super().update_state(np.mean(self._error(p - t), axis=-1), sample_weight)


class MeanSquaredError(_MeanOfErrors):
    _error = staticmethod(np.square)

    def __init__(self, name="mean_squared_error", dtype="float32"):
        super().__init__(name, dtype)


class MeanAbsoluteError(_MeanOfErrors):
    _error = staticmethod(np.abs)

    def __init__(self, name="mean_absolute_error", dtype="float32"):
        super().__init__(name, dtype)
