"""Keras's accuracy functions (`categorical_accuracy`, `sparse_categorical_accuracy`,
`top_k_categorical_accuracy`, `sparse_top_k_categorical_accuracy`: one 0/1 match per example,
in `floatx`), the top-k metrics, `RootMeanSquaredError` and `metrics.get`.

As tf-keras: sparse labels of shape (batch, 1) give matches of shape (batch,) from
`sparse_categorical_accuracy` and (batch, 1) from `sparse_top_k_categorical_accuracy`; a
prediction's arg-max is compared in the label's dtype; a label is in the top k when fewer than
k classes score strictly higher (ties at the boundary count as in, as `tf.math.in_top_k`), and
never when its score is not finite.
"""
from __future__ import annotations

import numpy as np

from ..engine.convert import convert_to_tensor
from ..engine.tensor import Tensor
from . import backend as _backend
from .metrics import Mean, MeanMetricWrapper, _np


def _floatx(values) -> Tensor:
    return convert_to_tensor(np.asarray(values).astype(_backend.floatx()))


def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where the arg-max of `y_pred` equals the integer label `y_true`, else 0.0."""
    t, p = np.asarray(_np(y_true)), np.asarray(_np(y_pred))
    if t.ndim == p.ndim:
        if t.shape[-1] != 1:
            raise ValueError(f"sparse_categorical_accuracy: labels of shape {t.shape} and "
                             f"predictions of shape {p.shape}: with equal ranks the labels' "
                             "last dimension must be 1. Fix: pass integer labels of shape "
                             "(batch,), or use categorical_accuracy for one-hot labels")
        t = t[..., 0]
    matches = t == np.argmax(p, axis=-1).astype(t.dtype)
    return _floatx(matches)


def categorical_accuracy(y_true, y_pred):
    """1.0 where the arg-max of `y_pred` equals that of the one-hot `y_true`, else 0.0."""
    return sparse_categorical_accuracy(np.argmax(_np(y_true), axis=-1), y_pred)


def _in_top_k(p, t, k):
    p = p.reshape(-1, p.shape[-1])
    t = t.reshape(-1).astype(np.int64)
    valid = (t >= 0) & (t < p.shape[-1])
    target = p[np.arange(len(t)), np.where(valid, t, 0)]
    higher = (p > target[:, None]).sum(axis=-1)
    return valid & np.isfinite(target) & (higher < k)


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1.0 where the integer label is among the `k` highest scores of `y_pred`."""
    t, p = np.asarray(_np(y_true)), np.asarray(_np(y_pred))
    matches = _in_top_k(p, t, int(k))
    return _floatx(matches.reshape(t.shape) if t.ndim > 1 else matches)


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1.0 where the one-hot label's class is among the `k` highest scores of `y_pred`."""
    return sparse_top_k_categorical_accuracy(np.argmax(_np(y_true), axis=-1), y_pred, k)


class TopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the one-hot label's class is among the `k` highest predictions."""

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name, dtype=dtype or "float32", k=k)


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the integer label is among the `k` highest predictions."""

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None):
        super().__init__(sparse_top_k_categorical_accuracy, name, dtype=dtype or "float32",
                         k=k)


class RootMeanSquaredError(Mean):
    """The square root of the mean squared error of every value seen."""

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name, dtype or "float32")

    def update_state(self, y_true, y_pred, sample_weight=None):
        p = _np(y_pred, np.float64)
        t = _np(y_true, np.float64)
        if t.size == p.size:
            t = t.reshape(p.shape)
        return super().update_state(np.square(p - t), sample_weight)

    def result(self) -> Tensor:
        count = float(self.count._value)
        mean = float(self.total._value) / count if count else 0.0
        return convert_to_tensor(np.sqrt(np.float32(mean)))


def accuracy(y_true, y_pred):
    """1.0 where `y_pred` equals `y_true` (compared in the label's dtype), else 0.0."""
    t, p = np.asarray(_np(y_true)), np.asarray(_np(y_pred))
    if t.shape != p.shape:
        raise ValueError(f"accuracy: Shapes {p.shape} and {t.shape} are incompatible. Fix: "
                         "pass one prediction per label")
    return _floatx(t == p.astype(t.dtype))




def get(identifier):
    """A metric from a name ('accuracy', 'mse', 'top_k_categorical_accuracy', 'AUC', ...), a
    function, or a metric object (returned as it is), as `tf.keras.metrics.get`."""
    from . import metrics as _metrics
    if callable(identifier) and not isinstance(identifier, type):
        return identifier
    if identifier in ("accuracy", "acc"):
        return accuracy
    if isinstance(identifier, str):
        found = getattr(_metrics, identifier, None)
        if isinstance(found, type):
            return found()
        if callable(found):
            return found
    raise ValueError(f"Could not interpret metric identifier: {identifier!r}. Fix: a metric "
                     "function's name, e.g. 'categorical_accuracy' or 'mse', or a "
                     "tf.keras.metrics object")
