"""`tv.keras.metrics.AUC`: the area under the ROC or precision-recall curve, as tf-keras
computes it.

The curve is read at `num_thresholds` thresholds: 0 - epsilon, (i + 1) / (num_thresholds - 1)
for i < num_thresholds - 2, and 1 + epsilon (or the sorted `thresholds=` between those two).
Evenly spaced thresholds (the default) take tf-keras's fast path: predictions clipped to
[0, 1], each counted in bucket ceil(p · (n - 1)) - 1 (at least 0), and the true/false positive
counts are the buckets' sums from the top, in float32. Other thresholds compare `p > t`.
The area is a Riemann sum of the curve between thresholds (`summation_method`: the mean,
lower or higher of the two heights), or for 'PR' with 'interpolation' the closed form of
Davis & Goadrich's interpolation that tf-keras uses.

>>> import tapeviz as tv
>>> m = tv.keras.metrics.AUC(num_thresholds=3)
>>> _ = m.update_state([0, 0, 1, 1], [0.0, 0.5, 0.3, 0.9])
>>> round(float(m.result()), 4)
0.75
"""
from __future__ import annotations

import numpy as np

from ..engine.errors import InvalidArgumentError
from ..engine.ops._base import tensor
from ..engine.tensor import Tensor, Variable
from . import backend as _backend
from .metrics import Metric, _np
from .naming import unique_name
from .sample_weight import align_sample_weight

_F = np.float32
_CURVES = {"roc": "ROC", "pr": "PR"}
_SUMMATIONS = ("interpolation", "majoring", "minoring")


def _curve(curve):
    value = getattr(curve, "value", curve)
    if isinstance(value, str) and value.lower() in _CURVES and value in (
            value.lower(), value.upper()):
        return _CURVES[value.lower()]
    raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are ["PR", "ROC"]')


def _summation(method):
    value = getattr(method, "value", method)
    if isinstance(value, str) and value.lower() in _SUMMATIONS and value in (
            value.lower(), value.capitalize()):
        return value.lower()
    raise ValueError(f'Invalid AUC summation method value: "{method}". Expected values are '
                     '["interpolation", "majoring", "minoring"]')


def _evenly_spaced(thresholds) -> bool:
    """tf-keras's is_evenly_distributed_thresholds."""
    n = len(thresholds)
    if n < 3:
        return False
    even = np.arange(n, dtype=_F) / (n - 1)
    return bool(np.allclose(thresholds, even, atol=_backend.epsilon()))


def _div_no_nan(x, y):
    return np.where(y != 0, x / np.where(y != 0, y, 1), 0).astype(_F)


class AUC(Metric):
    """Approximate AUC (ROC or PR) from confusion counts at fixed thresholds."""

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation",
                 name=None, dtype=None, thresholds=None, multi_label=False, num_labels=None,
                 label_weights=None, from_logits=False):
        if thresholds is not None:
            self.num_thresholds = len(thresholds) + 2
            thresholds = sorted(thresholds)
            self._thresholds_distributed_evenly = _evenly_spaced(
                np.array([0.0] + thresholds + [1.0]))
        else:
            if num_thresholds <= 1:
                raise ValueError("Argument `num_thresholds` must be an integer > 1. Received: "
                                 f"num_thresholds={num_thresholds}. Fix: e.g. 200 (the default)")
            self.num_thresholds = num_thresholds
            thresholds = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self._thresholds_distributed_evenly = True
        eps = _backend.epsilon()
        self._thresholds = np.array([0.0 - eps] + list(thresholds) + [1.0 + eps])
        self.curve = _curve(curve)
        self.summation_method = _summation(summation_method)
        # (unnamed: 'auc', 'auc_1', ... as Keras names metrics, one counter with layers)
        super().__init__(name=name or unique_name("auc"), dtype=dtype or "float32")
        self.multi_label, self.num_labels = bool(multi_label), num_labels
        self.label_weights = None
        if label_weights is not None:
            self.label_weights = np.asarray(label_weights, _F)
            if np.any(self.label_weights < 0):
                raise InvalidArgumentError(
                    f"{self.name}: All values of `label_weights` must be non-negative, got "
                    f"{self.label_weights.tolist()}. Fix: weights >= 0", "AssertNonNegative")
        self._from_logits = from_logits
        if num_labels and not self.multi_label:
            raise ValueError("`num_labels` is needed only when `multi_label` is True. Fix: "
                             "leave num_labels out, or pass multi_label=True")
        self._counts = None
        if not self.multi_label or num_labels:
            self._build(num_labels if self.multi_label else None)

    @property
    def thresholds(self) -> list:
        """The thresholds used for evaluating AUC."""
        return list(self._thresholds)

    def _build(self, num_labels):
        shape = (self.num_thresholds,) if num_labels is None else (self.num_thresholds,
                                                                   num_labels)
        # (named without the metric's name in front, as tf-keras names them)
        self._counts = {cell: Variable(np.zeros(shape, _F), trainable=False, name=cell)
                        for cell in ("true_positives", "true_negatives", "false_positives",
                                     "false_negatives")}

    @property
    def variables(self) -> list:
        return list(self._counts.values()) if self._counts else []

    def _prepare(self, y_true, y_pred, sample_weight):
        t, p = _np(y_true, _F), _np(y_pred, _F)
        if self.multi_label and p.ndim != 2:
            raise ValueError(f"`y_pred` must have rank 2 when `multi_label=True`. Found rank "
                             f"{p.ndim}. Full shape received for `y_pred`: {p.shape}. Fix: "
                             "pass (batch, labels) predictions")
        if self._counts is None:
            self._build(p.shape[1])
        # Keras's squeeze_or_expand_dimensions: a trailing axis of 1 on one side only
        if t.ndim == p.ndim + 1 and t.shape[-1] == 1:
            t = t[..., 0]
        elif p.ndim == t.ndim + 1 and p.shape[-1] == 1:
            p = p[..., 0]
        if t.shape != p.shape:
            raise ValueError(f"{self.name}: Shapes {t.shape} and {p.shape} are incompatible: "
                             "one label per prediction is needed. Fix: give y_true the shape "
                             "of y_pred")
        w = np.ones(p.shape, _F)
        if sample_weight is not None:
            w = np.broadcast_to(align_sample_weight(_np(sample_weight, _F), p.ndim), p.shape)
        if self.label_weights is not None and not self.multi_label:
            w = w * np.broadcast_to(self.label_weights, p.shape)
        if self._from_logits:
            p = (_F(1) / (_F(1) + np.exp(-p))).astype(_F)
        return t, p, w.astype(_F)

    def update_state(self, y_true, y_pred, sample_weight=None):
        t, p, w = self._prepare(y_true, y_pred, sample_weight)
        if not self.multi_label:
            t, p, w = t.reshape(-1), p.reshape(-1), w.reshape(-1)
        n = self.num_thresholds
        if self._thresholds_distributed_evenly:
            truth = (t != 0).astype(_F)
            true_w, false_w = truth * w, (_F(1) - truth) * w
            bucket = np.maximum(np.ceil(np.clip(p, 0, 1) * _F(n - 1)) - 1, 0).astype(np.int64)
            tp_b = np.zeros((n,) + p.shape[1:], _F)
            fp_b = np.zeros_like(tp_b)
            where = (bucket,) + ((np.arange(p.shape[1])[None, :],) if p.ndim == 2 else ())
            np.add.at(tp_b, where, true_w)
            np.add.at(fp_b, where, false_w)
            tp = np.cumsum(tp_b[::-1], axis=0, dtype=_F)[::-1]
            fp = np.cumsum(fp_b[::-1], axis=0, dtype=_F)[::-1]
            fn = true_w.sum(axis=0, dtype=_F) - tp
            tn = false_w.sum(axis=0, dtype=_F) - fp
        else:
            thresholds = self._thresholds.astype(_F).reshape((n,) + (1,) * p.ndim)
            positive, label = p[None] > thresholds, (t != 0)[None]
            weights = np.broadcast_to(w[None], positive.shape)

            def count(mask):
                return (mask * weights).sum(axis=1, dtype=_F)
            tp, fp = count(label & positive), count(~label & positive)
            fn, tn = count(label & ~positive), count(~label & ~positive)
        for cell, value in (("true_positives", tp), ("false_positives", fp),
                            ("false_negatives", fn), ("true_negatives", tn)):
            var = self._counts[cell]
            var.assign(var._value + value.astype(_F))
        return None

    def _by_label(self, terms) -> Tensor:
        if not self.multi_label:
            return tensor(terms.sum(dtype=_F).astype(_F))
        by_label = terms.sum(axis=0, dtype=_F)
        if self.label_weights is None:
            return tensor(by_label.mean(dtype=_F).astype(_F))
        weights = self.label_weights
        return tensor(_div_no_nan((by_label * weights).sum(dtype=_F), weights.sum(dtype=_F)))

    def _interpolate_pr_auc(self, tp, fp, fn) -> Tensor:
        n = self.num_thresholds
        dtp = tp[:n - 1] - tp[1:]
        p = tp + fp
        dp = p[:n - 1] - p[1:]
        prec_slope = _div_no_nan(dtp, np.maximum(dp, 0))
        intercept = tp[1:] - prec_slope * p[1:]
        safe_p_ratio = np.where((p[:n - 1] > 0) & (p[1:] > 0),
                                _div_no_nan(p[:n - 1], np.maximum(p[1:], 0)), _F(1))
        with np.errstate(divide="ignore", invalid="ignore"):
            increment = _div_no_nan(prec_slope * (dtp + intercept * np.log(safe_p_ratio)),
                                    np.maximum(tp[1:] + fn[1:], 0))
        return self._by_label(increment)

    def result(self) -> Tensor:
        if self._counts is None:
            return tensor(_F(0))
        tp, fp, tn, fn = (self._counts[c]._value.astype(_F) for c in (
            "true_positives", "false_positives", "true_negatives", "false_negatives"))
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._interpolate_pr_auc(tp, fp, fn)
        n = self.num_thresholds
        recall = _div_no_nan(tp, tp + fn)
        if self.curve == "ROC":
            x, y = _div_no_nan(fp, fp + tn), recall
        else:
            x, y = recall, _div_no_nan(tp, tp + fp)
        if self.summation_method == "interpolation":
            heights = (y[:n - 1] + y[1:]) / _F(2)
        elif self.summation_method == "minoring":
            heights = np.minimum(y[:n - 1], y[1:])
        else:
            heights = np.maximum(y[:n - 1], y[1:])
        return self._by_label(((x[:n - 1] - x[1:]) * heights).astype(_F))

    def reset_state(self):
        for var in self.variables:
            var.assign(np.zeros(var._value.shape, _F))

    reset_states = reset_state
