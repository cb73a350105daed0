"""`tf.compat.v1.losses`: TensorFlow 1's loss functions, which TensorFlow 2 code (tf-agents,
reinforcement-learning agents, GANs) still calls eagerly.

Each computes per-element losses from (labels, predictions) with ordinary ops, so the tape
records and explains them, and then weighs and reduces them as TensorFlow 1's
`compute_weighted_loss` does: the default reduction, `SUM_BY_NONZERO_WEIGHTS`, divides the
weighted sum by the number of elements whose broadcast weight is not zero (with weights of
1.0, the mean). Weighing and reducing happen in float32, and the result stays float32
whatever the predictions' dtype, as in TensorFlow 2.21.
"""
from __future__ import annotations

from . import nn
from .engine import ops
from .engine.convert import convert_to_tensor


class Reduction:
    """How `compute_weighted_loss` reduces the weighted losses (TensorFlow 1's names)."""

    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls):
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE,
                cls.SUM_OVER_NONZERO_WEIGHTS, cls.SUM_BY_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f"Invalid Reduction Key {key}. Fix: use one of "
                             f"tf.compat.v1.losses.Reduction's values {list(cls.all())}")


def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=None,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """`losses` times `weights` (broadcast to the losses' shape), reduced by `reduction`."""
    Reduction.validate(reduction)
    losses = ops.cast(convert_to_tensor(losses), "float32")
    weights = ops.cast(convert_to_tensor(weights), "float32")
    weighted = losses * weights
    if reduction == Reduction.NONE:
        loss = weighted
    else:
        loss = ops.reduce_sum(weighted)
        broadcast = weights * ops.ones_like(losses)
        if reduction == Reduction.MEAN:
            loss = ops.divide_no_nan(loss, ops.reduce_sum(broadcast))
        elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
            loss = ops.divide_no_nan(loss, ops.cast(ops.size(losses), "float32"))
        elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
            present = ops.reduce_sum(ops.cast(ops.not_equal(broadcast, 0.0), "float32"))
            loss = ops.divide_no_nan(loss, present)
    return loss


def _pair(labels, predictions, name):
    predictions = convert_to_tensor(predictions)
    labels = ops.cast(convert_to_tensor(labels), predictions.dtype)
    if tuple(labels.shape) != tuple(predictions.shape):
        raise ValueError(f"{name}: Shapes {tuple(labels.shape)} and "
                         f"{tuple(predictions.shape)} are incompatible (labels and "
                         "predictions). Fix: give labels the predictions' shape")
    return labels, predictions


def absolute_difference(labels, predictions, weights=1.0, scope=None, loss_collection=None,
                        reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    labels, predictions = _pair(labels, predictions, "absolute_difference")
    return compute_weighted_loss(ops.abs(predictions - labels), weights, reduction=reduction)


def mean_squared_error(labels, predictions, weights=1.0, scope=None, loss_collection=None,
                       reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    labels, predictions = _pair(labels, predictions, "mean_squared_error")
    return compute_weighted_loss(ops.squared_difference(predictions, labels), weights,
                                 reduction=reduction)


def huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None, loss_collection=None,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """0.5·e² where |e| ≤ delta, else delta·(|e| - 0.5·delta), for e = predictions - labels."""
    labels, predictions = _pair(labels, predictions, "huber_loss")
    error = ops.abs(predictions - labels)
    quadratic = ops.minimum(error, delta)
    linear = error - quadratic
    losses = 0.5 * quadratic * quadratic + delta * linear
    return compute_weighted_loss(losses, weights, reduction=reduction)


def log_loss(labels, predictions, weights=1.0, epsilon=1e-7, scope=None, loss_collection=None,
             reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    labels, predictions = _pair(labels, predictions, "log_loss")
    losses = -labels * ops.log(predictions + epsilon) - (1.0 - labels) * ops.log(
        1.0 - predictions + epsilon)
    return compute_weighted_loss(losses, weights, reduction=reduction)


def hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection=None,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """relu(1 - (2·labels - 1)·logits), labels in {0, 1}."""
    labels, logits = _pair(labels, logits, "hinge_loss")
    signs = 2.0 * labels - 1.0
    return compute_weighted_loss(nn.relu(1.0 - signs * logits), weights, reduction=reduction)


def cosine_distance(labels, predictions, axis=None, weights=1.0, scope=None,
                    loss_collection=None, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, dim=None):
    """1 - Σ labels·predictions along `axis` (both expected unit-normalized)."""
    axis = dim if axis is None else axis
    if axis is None:
        raise ValueError("You must specify 'axis'. Fix: cosine_distance(labels, predictions, "
                         "axis=-1)")
    labels, predictions = _pair(labels, predictions, "cosine_distance")
    losses = 1.0 - ops.reduce_sum(labels * predictions, axis=axis, keepdims=True)
    return compute_weighted_loss(losses, weights, reduction=reduction)


def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0,
                          scope=None, loss_collection=None,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    labels, logits = _pair(multi_class_labels, logits, "sigmoid_cross_entropy")
    if label_smoothing > 0:
        labels = labels * (1.0 - label_smoothing) + 0.5 * label_smoothing
    losses = nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
    return compute_weighted_loss(losses, weights, reduction=reduction)


def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=None, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    labels, logits = _pair(onehot_labels, logits, "softmax_cross_entropy")
    if label_smoothing > 0:
        classes = float(labels.shape[-1])
        labels = labels * (1.0 - label_smoothing) + label_smoothing / classes
    losses = nn.softmax_cross_entropy_with_logits(labels=ops.stop_gradient(labels),
                                                   logits=logits)
    return compute_weighted_loss(losses, weights, reduction=reduction)


def sparse_softmax_cross_entropy(labels, logits, weights=1.0, scope=None, loss_collection=None,
                                 reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    losses = nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return compute_weighted_loss(losses, weights, reduction=reduction)

