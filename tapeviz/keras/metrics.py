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
from .sample_weight import align_sample_weight


def _np(x, dtype=None):
    value = np.asarray(tensor(x)._value)
    return value.astype(dtype) if dtype is not None else value


def metric_of(value):
    """The Metric whose call returned `value`, kept on the result tensor as Keras keeps it."""
    return getattr(value, "_metric_obj", None)


class Metric:
    def __init__(self, name=None, dtype="float32", **kwargs):
        self.name = name or type(self).__name__.lower()
        self.dtype = dtype
        self._extra_weights: list = []
        self.total = Variable(np.float32(0.0), trainable=False, name=f"{self.name}/total")
        self.count = Variable(np.float32(0.0), trainable=False, name=f"{self.name}/count")

    @property
    def variables(self) -> list:
        return [self.total, self.count] + self._extra_weights

    def add_weight(self, name, shape=(), dtype=None, initializer="zeros", **kwargs):
        """A state variable of a custom metric (Keras's `Metric.add_weight`)."""
        from . import initializers as _initializers
        from ..engine import dtypes as _dt
        dtype = _dt.as_dtype(dtype or self.dtype)
        value = _initializers.get(initializer)(tuple(shape), dtype=dtype)
        var = Variable(value, trainable=False, name=f"{self.name}/{name}", dtype=dtype)
        self._extra_weights.append(var)
        return var

    def _add(self, values, sample_weight=None):
        values = np.asarray(values, np.float64)
        if sample_weight is None:
            total, count = values.sum(), values.size
        else:
            w = align_sample_weight(_np(sample_weight, np.float64), values.ndim)
            w = np.broadcast_to(w, values.shape)
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
        result = self.result()
        if isinstance(result, Tensor):   # so that `layer.add_metric(metric(...))` finds it
            result._metric_obj = self
        return result

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


class MeanMetricWrapper(Mean):
    """A per-example metric function of (y_true, y_pred), averaged over every example seen."""

    def __init__(self, fn, name, dtype="float32", **fn_kwargs):
        super().__init__(name=name, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = fn_kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        from ..engine.convert import convert_to_tensor
        from ..engine.threadstate import unrecorded
        from . import losses as _losses
        y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
        with unrecorded():               # metrics are computed where no tape records them
            y_true, y_pred = _losses._match_ranks(y_true, y_pred)
            values = self.fn(y_true, y_pred, **self._fn_kwargs)
        return super().update_state(values, sample_weight)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    from ..engine.ops import cast, equal, greater, reduce_mean
    predicted = cast(greater(y_pred, threshold), y_pred.dtype)
    return reduce_mean(cast(equal(cast(y_true, y_pred.dtype), predicted), "float32"), axis=-1)


class BinaryAccuracy(MeanMetricWrapper):
    """How often the prediction, thresholded, equals the 0/1 label."""

    def __init__(self, name="binary_accuracy", dtype="float32", threshold=0.5):
        super().__init__(binary_accuracy, name, dtype=dtype, threshold=threshold)


class BinaryCrossentropy(MeanMetricWrapper):
    """The mean binary cross-entropy of every example seen (Keras's metric of that name)."""

    def __init__(self, name="binary_crossentropy", dtype="float32", from_logits=False,
                 label_smoothing=0):
        from . import losses as _losses
        super().__init__(_losses.binary_crossentropy, name, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing)


def mean_absolute_percentage_error(y_true, y_pred):
    from ..engine.ops import abs as _abs, cast, maximum, reduce_mean
    from . import backend as _backend
    y_true = cast(y_true, y_pred.dtype)
    diff = _abs((y_true - y_pred) / maximum(_abs(y_true), _backend.epsilon()))
    return 100.0 * reduce_mean(diff, axis=-1)


class MeanAbsolutePercentageError(MeanMetricWrapper):
    def __init__(self, name="mean_absolute_percentage_error", dtype="float32"):
        super().__init__(mean_absolute_percentage_error, name, dtype=dtype)


class CategoricalCrossentropy(MeanMetricWrapper):
    """The mean categorical cross-entropy of every example seen (one-hot labels)."""

    def __init__(self, name="categorical_crossentropy", dtype="float32", from_logits=False,
                 label_smoothing=0, axis=-1):
        from . import losses as _losses
        super().__init__(_losses.categorical_crossentropy, name, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(MeanMetricWrapper):
    """The mean sparse categorical cross-entropy of every example seen (integer labels)."""

    def __init__(self, name="sparse_categorical_crossentropy", dtype="float32",
                 from_logits=False, ignore_class=None, axis=-1):
        from . import losses as _losses
        if ignore_class is not None:
            raise NotImplementedError(
                f"SparseCategoricalCrossentropy metric: ignore_class={ignore_class!r} is not "
                "imitated by tapeviz. Fix: leave it out and drop those labels beforehand, or "
                "pass sample_weight=0 for them to update_state")
        super().__init__(_losses.sparse_categorical_crossentropy, name, dtype=dtype,
                         from_logits=from_logits, axis=axis)


class KLDivergence(MeanMetricWrapper):
    def __init__(self, name="kullback_leibler_divergence", dtype="float32"):
        from . import losses as _losses
        super().__init__(_losses.kl_divergence, name, dtype=dtype)


class Hinge(MeanMetricWrapper):
    def __init__(self, name="hinge", dtype="float32"):
        from . import losses as _losses
        super().__init__(_losses.hinge, name, dtype=dtype)
