"""Confusion-matrix metrics: `TruePositives`, `FalsePositives`, `TrueNegatives`,
`FalseNegatives`, `Precision` and `Recall`, counted as tf-keras counts them.

A prediction is positive when it is strictly above a threshold (0.5 by default; `thresholds=`
a list gives one count per threshold), a label when it is non-zero. Labels and predictions
are flattened (after `class_id=` picks one column); `sample_weight` weighs each count. With
one threshold `result()` is a scalar, with several a vector.

>>> import tapeviz as tv
>>> m = tv.keras.metrics.Precision()
>>> _ = m.update_state([0, 1, 1, 1], [1.0, 1.0, 0.2, 0.9])
>>> round(float(m.result()), 4)
0.6667
"""
from __future__ import annotations

import numpy as np

from ..engine.ops._base import tensor
from ..engine.tensor import Tensor, Variable
from .metrics import Metric, _np
from .sample_weight import align_sample_weight


def _thresholds(thresholds, name):
    values = [0.5] if thresholds is None else (
        list(thresholds) if isinstance(thresholds, (list, tuple)) else [thresholds])
    for t in values:
        if isinstance(t, bool) or not isinstance(t, (int, float, np.number)) or not 0 <= t <= 1:
            raise ValueError(f"{name}: Threshold values must be in [0, 1]. Received: "
                             f"{thresholds!r}. Fix: e.g. thresholds=[0.3, 0.5, 0.7]")
    return values


class _ConfusionMetric(Metric):
    """Counts of some of the four confusion-matrix cells, one per threshold; a subclass names
    the cells it keeps (`_cells`) and how `result()` reads them."""

    _cells: tuple = ()

    def __init__(self, thresholds=None, name=None, dtype=None, class_id=None, top_k=None):
        super().__init__(name=name, dtype=dtype or "float32")
        if top_k is not None:
            raise NotImplementedError(f"{self.name}: top_k= is not supported by tapeviz. Fix: "
                                      "leave it out (or pick one column with class_id=)")
        self.thresholds = _thresholds(thresholds, self.name)
        self.class_id = class_id
        self._counts = {cell: Variable(np.zeros(len(self.thresholds), np.float32),
                                       trainable=False, name=variable_name)
                        for cell, variable_name in self._cells}

    @property
    def variables(self) -> list:
        return list(self._counts.values())

    def update_state(self, y_true, y_pred, sample_weight=None):
        t, p = _np(y_true, np.float32), _np(y_pred, np.float32)
        if self.class_id is not None:
            t, p = t[..., self.class_id], p[..., self.class_id]
        if t.size != p.size:
            raise ValueError(f"{self.name}: Shapes {t.shape} and {p.shape} are incompatible: "
                             "one label per prediction is needed. Fix: give y_true the shape "
                             "of y_pred")
        w = np.ones(p.shape, np.float32)
        if sample_weight is not None:    # (batch,) beside (batch, 1): one weight per row
            w = np.broadcast_to(align_sample_weight(_np(sample_weight, np.float32), p.ndim),
                                p.shape)
        label = (t.reshape(-1) != 0)[None, :]
        w = w.reshape(-1)[None, :]
        predicted = p.reshape(-1)[None, :] > np.asarray(self.thresholds, np.float32)[:, None]
        cells = {"tp": label & predicted, "fp": ~label & predicted,
                 "tn": ~label & ~predicted, "fn": label & ~predicted}
        for cell, var in self._counts.items():
            var.assign(var._value + (cells[cell] * w).sum(axis=1, dtype=np.float32))
        return None

    def _result(self, values: np.ndarray) -> Tensor:
        values = values.astype(np.float32)
        return tensor(values[0] if len(self.thresholds) == 1 else values)

    def reset_state(self):
        for var in self._counts.values():
            var.assign(np.zeros(len(self.thresholds), np.float32))

    reset_states = reset_state


class _Count(_ConfusionMetric):
    def result(self) -> Tensor:
        return self._result(self._counts[self._cells[0][0]]._value)


class TruePositives(_Count):
    _cells = (("tp", "accumulator"),)

    def __init__(self, thresholds=None, name="true_positives", dtype=None):
        super().__init__(thresholds, name, dtype)


class FalsePositives(_Count):
    _cells = (("fp", "accumulator"),)

    def __init__(self, thresholds=None, name="false_positives", dtype=None):
        super().__init__(thresholds, name, dtype)


class TrueNegatives(_Count):
    _cells = (("tn", "accumulator"),)

    def __init__(self, thresholds=None, name="true_negatives", dtype=None):
        super().__init__(thresholds, name, dtype)


class FalseNegatives(_Count):
    _cells = (("fn", "accumulator"),)

    def __init__(self, thresholds=None, name="false_negatives", dtype=None):
        super().__init__(thresholds, name, dtype)


def _ratio(hits, misses):
    """hits / (hits + misses), 0 where both are 0 (TensorFlow's div_no_nan)."""
    total = hits + misses
    return np.where(total > 0, hits / np.where(total > 0, total, 1), 0).astype(np.float32)


class Precision(_ConfusionMetric):
    """tp / (tp + fp): how many predicted positives are positive."""

    _cells = (("tp", "true_positives"), ("fp", "false_positives"))

    def __init__(self, thresholds=None, top_k=None, class_id=None, name="precision",
                 dtype=None):
        super().__init__(thresholds, name, dtype, class_id, top_k)

    def result(self) -> Tensor:
        return self._result(_ratio(self._counts["tp"]._value, self._counts["fp"]._value))


class Recall(_ConfusionMetric):
    """tp / (tp + fn): how many positives are predicted positive."""

    _cells = (("tp", "true_positives"), ("fn", "false_negatives"))

    def __init__(self, thresholds=None, top_k=None, class_id=None, name="recall", dtype=None):
        super().__init__(thresholds, name, dtype, class_id, top_k)

    def result(self) -> Tensor:
        return self._result(_ratio(self._counts["tp"]._value, self._counts["fn"]._value))
