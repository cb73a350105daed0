"""`tf.keras.metrics.MeanIoU`: the intersection over union of each class, averaged over the
classes that occur, from a confusion matrix summed over every batch (as tf-keras)."""
from __future__ import annotations

import numpy as np

from ..engine.ops._base import tensor
from ..engine.tensor import Tensor, Variable
from .metrics import Metric, _np


class MeanIoU(Metric):
    """Labels and predictions are class ids (or, with `sparse_y_true/pred=False`, scores
    whose argmax over `axis` is the id), truncated to integers; `ignore_class` is left out."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(name=name or "mean_io_u", dtype=dtype or "float32")
        self.num_classes, self.ignore_class, self.axis = num_classes, ignore_class, axis
        self.sparse_y_true, self.sparse_y_pred = sparse_y_true, sparse_y_pred
        self.total_cm = Variable(np.zeros((num_classes, num_classes), np.float32),
                                 trainable=False, name="total_confusion_matrix")

    @property
    def variables(self) -> list:
        return [self.total_cm]

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = _np(y_true, np.float64), _np(y_pred, np.float64)
        if not self.sparse_y_true:
            y_true = np.argmax(y_true, axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = np.argmax(y_pred, axis=self.axis)
        labels = y_true.astype(np.float32).reshape(-1).astype(np.int64)
        predictions = y_pred.astype(np.float32).reshape(-1).astype(np.int64)
        weights = np.ones(labels.shape, np.float32) if sample_weight is None else \
            np.broadcast_to(_np(sample_weight, np.float32).reshape(-1), labels.shape)
        if self.ignore_class is not None:
            keep = labels != self.ignore_class
            labels, predictions, weights = labels[keep], predictions[keep], weights[keep]
        for what, ids in (("labels", labels), ("predictions", predictions)):
            if ids.size and (ids.min() < 0 or ids.max() >= self.num_classes):
                raise ValueError(f"MeanIoU: {what} must be class ids in [0, {self.num_classes})"
                                 f", got {ids.min()}..{ids.max()}. Fix: num_classes larger "
                                 "than every id")
        cm = np.zeros((self.num_classes, self.num_classes), np.float32)
        np.add.at(cm, (labels, predictions), weights)
        return self.total_cm.assign_add(cm)

    def result(self) -> Tensor:
        cm = self.total_cm.numpy()
        true_positives = np.diag(cm)
        denominator = cm.sum(axis=0) + cm.sum(axis=1) - true_positives
        valid = np.float32((denominator != 0).sum())
        with np.errstate(divide="ignore", invalid="ignore"):
            iou = np.where(denominator != 0, true_positives / denominator, 0).astype(np.float32)
        return tensor(np.float32(iou.sum() / valid) if valid else np.float32(0.0))

    def reset_state(self):
        self.total_cm.assign(np.zeros((self.num_classes, self.num_classes), np.float32))

    reset_states = reset_state

    def get_config(self) -> dict:
        return {"num_classes": self.num_classes, "name": self.name, "dtype": self.dtype,
                "ignore_class": self.ignore_class, "sparse_y_true": self.sparse_y_true,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}
