"""`tv.keras.losses`: loss objects and functions with Keras's conventions.

A loss object computes one loss per example (averaging over the last axis where Keras does)
and then reduces: `'sum_over_batch_size'` (default: the sum divided by the number of
per-example losses), `'sum'` or `'none'`. `sample_weight` scales per-example losses first.
Probabilities (`from_logits=False`) are clipped to [1e-7, 1 - 1e-7] before the log, as Keras,
unless they come from a Keras softmax or sigmoid, whose logits are used (cached_logits.py).
"""
from __future__ import annotations

import numpy as np

from ..engine.ops import (cast, clip_by_value, log, maximum, reduce_mean, reduce_sum,  # noqa
                          reshape, square, squeeze)
from ..engine.ops._base import tensor
from ..engine.tensor import Tensor
from .. import nn as _nn
from .cached_logits import logits_of
from .sample_weight import align_sample_weight

EPSILON = 1e-7


class Reduction:
    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"


def _match_ranks(y_true, y_pred):
    """Squeeze a trailing 1 so (batch, 1) labels meet (batch,) predictions, as Keras."""
    dt, dp = y_true._value.ndim, y_pred._value.ndim
    if dp - dt == 1 and y_pred._value.shape[-1] == 1:
        y_pred = squeeze(y_pred, -1)
    elif dt - dp == 1 and y_true._value.shape[-1] == 1:
        y_true = squeeze(y_true, -1)
    return y_true, y_pred


def _float_pair(y_true, y_pred):
    y_pred = tensor(y_pred)
    if y_pred._value.dtype.kind != "f":
        y_pred = cast(y_pred, "float32")
    y_true = tensor(y_true)
    if y_true._value.dtype != y_pred._value.dtype:
        y_true = cast(y_true, y_pred.dtype)
    return y_true, y_pred


# --- functions: one loss per example ----------------------------------------------------------
def mean_squared_error(y_true, y_pred):
    y_true, y_pred = _float_pair(y_true, y_pred)
    return reduce_mean(square(y_pred - y_true), axis=-1)


def mean_absolute_error(y_true, y_pred):
    from ..engine.ops import abs as _abs
    y_true, y_pred = _float_pair(y_true, y_pred)
    return reduce_mean(_abs(y_pred - y_true), axis=-1)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1):
    y_pred = tensor(y_pred)
    labels = tensor(y_true)
    if labels._value.dtype.kind != "i":
        labels = cast(labels, "int64")
    if axis not in (-1, y_pred._value.ndim - 1):
        from ..engine.ops import transpose
        n = y_pred._value.ndim
        a = axis % n
        y_pred = transpose(y_pred, [i for i in range(n) if i != a] + [a])
    y_pred, from_logits = logits_of(y_pred, from_logits, "Softmax",
                                    "sparse_categorical_crossentropy")
    if not from_logits:
        y_pred = log(clip_by_value(y_pred, EPSILON, 1 - EPSILON))
    out_shape = None
    if labels._value.ndim != y_pred._value.ndim - 1:
        out_shape = y_pred._value.shape[:-1]
        labels = reshape(labels, [-1])
        y_pred = reshape(y_pred, [-1, y_pred._value.shape[-1]])
    loss = _nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=y_pred)
    if out_shape is not None and len(out_shape) >= 2:
        loss = reshape(loss, out_shape)
    return loss


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _float_pair(y_true, y_pred)
    if y_true._value.shape != y_pred._value.shape:
        raise ValueError(f"categorical_crossentropy: Arguments `target` and `output` must have "
                         f"the same shape. Received: target.shape={tuple(y_true.shape)}, "
                         f"output.shape={tuple(y_pred.shape)}. Fix: one-hot labels need one "
                         "column per class (tv.one_hot(labels, n)), or use "
                         "SparseCategoricalCrossentropy for class indices")
    if label_smoothing:
        n = y_pred._value.shape[axis]
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / n
    y_pred, from_logits = logits_of(y_pred, from_logits, "Softmax", "categorical_crossentropy")
    if from_logits:
        return _nn.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    y_pred = y_pred / reduce_sum(y_pred, axis=axis, keepdims=True)
    y_pred = clip_by_value(y_pred, EPSILON, 1 - EPSILON)
    return -reduce_sum(y_true * log(y_pred), axis=axis)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _float_pair(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    return reduce_mean(elementwise_binary_crossentropy(y_true, y_pred, from_logits), axis=axis)


def elementwise_binary_crossentropy(target, output, from_logits=False):
    """Keras's `backend.binary_crossentropy`: one loss per element."""
    output, from_logits = logits_of(output, from_logits, "Sigmoid", "binary_crossentropy")
    if from_logits:
        return _nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    output = clip_by_value(output, EPSILON, 1 - EPSILON)
    return -(target * log(output + EPSILON) + (1.0 - target) * log(1.0 - output + EPSILON))


def hinge(y_true, y_pred):
    """`mean(max(1 - y_true · y_pred, 0))` over the last axis; labels of only 0 and 1 are
    taken as -1 and 1 first, as Keras's."""
    y_true, y_pred = _float_pair(y_true, y_pred)
    if np.isin(y_true._value, (0, 1)).all():
        y_true = 2.0 * y_true - 1.0
    return reduce_mean(maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


def huber(y_true, y_pred, delta=1.0):
    """½·e² where |e| <= delta, else delta·|e| - ½·delta² (e = y_pred - y_true), averaged over
    the last axis."""
    from ..engine.ops import abs as _abs, where
    y_true, y_pred = _float_pair(y_true, y_pred)
    error = y_pred - y_true
    abs_error = _abs(error)
    delta = float(delta)
    return reduce_mean(where(abs_error <= delta, 0.5 * square(error),
                             delta * abs_error - 0.5 * delta * delta), axis=-1)


def kl_divergence(y_true, y_pred):
    """Σ y_true · log(y_true / y_pred) over the last axis, both clipped to [1e-7, 1] first,
    as Keras."""
    y_true, y_pred = _float_pair(y_true, y_pred)
    y_true = clip_by_value(y_true, EPSILON, 1.0)
    y_pred = clip_by_value(y_pred, EPSILON, 1.0)
    return reduce_sum(y_true * log(y_true / y_pred), axis=-1)


mse = MSE = mean_squared_error
kld = KLD = kullback_leibler_divergence = kl_divergence
mae = MAE = mean_absolute_error


# --- objects -------------------------------------------------------------------------------
def _masked(y_pred, losses, sample_weight, reduction):
    from .masking import loss_weights     # (it builds on layers_base, which imports this module)
    return loss_weights(y_pred, losses, sample_weight, reduction)


class Loss:
    """`loss(y_true, y_pred, sample_weight=None)`: per-example losses, then the reduction."""

    def __init__(self, reduction=Reduction.AUTO, name=None):
        if reduction not in ("auto", "none", "sum", "sum_over_batch_size"):
            raise ValueError(f"Invalid Reduction Key: {reduction}. Expected keys are "
                             "'auto', 'none', 'sum', 'sum_over_batch_size'")
        self.reduction = reduction
        self.name = name or type(self).__name__

    def call(self, y_true, y_pred):
        raise NotImplementedError

    def __call__(self, y_true, y_pred, sample_weight=None):
        y_pred = tensor(y_pred)
        y_true = tensor(y_true)
        y_true, y_pred = _match_ranks(y_true, y_pred)
        losses = self.call(y_true, y_pred)
        sample_weight = _masked(y_pred, losses, sample_weight, self.reduction)
        if sample_weight is not None:
            w = tensor(sample_weight)
            if w._value.dtype != losses._value.dtype:
                w = cast(w, losses.dtype)
            losses = losses * align_sample_weight(w, losses._value.ndim)
        if self.reduction == "none":
            return losses
        total = reduce_sum(losses)
        if self.reduction == "sum":
            return total
        n = max(int(losses._value.size), 1)
        return total / float(n) if n != 1 else total

    def get_config(self) -> dict:
        return {"reduction": self.reduction, "name": self.name}


class MeanSquaredError(Loss):
    def __init__(self, reduction=Reduction.AUTO, name="mean_squared_error"):
        super().__init__(reduction, name)

    def call(self, y_true, y_pred):
        return mean_squared_error(y_true, y_pred)


class MeanAbsoluteError(Loss):
    def __init__(self, reduction=Reduction.AUTO, name="mean_absolute_error"):
        super().__init__(reduction, name)

    def call(self, y_true, y_pred):
        return mean_absolute_error(y_true, y_pred)


class Hinge(Loss):
    def __init__(self, reduction=Reduction.AUTO, name="hinge"):
        super().__init__(reduction, name)

    def call(self, y_true, y_pred):
        return hinge(y_true, y_pred)


class Huber(Loss):
    def __init__(self, delta=1.0, reduction=Reduction.AUTO, name="huber_loss"):
        super().__init__(reduction, name)
        self.delta = float(delta)

    def call(self, y_true, y_pred):
        return huber(y_true, y_pred, self.delta)


class KLDivergence(Loss):
    def __init__(self, reduction=Reduction.AUTO, name="kl_divergence"):
        super().__init__(reduction, name)

    def call(self, y_true, y_pred):
        return kl_divergence(y_true, y_pred)


class SparseCategoricalCrossentropy(Loss):
    def __init__(self, from_logits=False, ignore_class=None, reduction=Reduction.AUTO,
                 name="sparse_categorical_crossentropy"):
        super().__init__(reduction, name)
        self.from_logits = bool(from_logits)

    def __call__(self, y_true, y_pred, sample_weight=None):
        # labels keep their own rank here: (batch, 1) labels are flattened by the function
        y_pred = tensor(y_pred)
        losses = sparse_categorical_crossentropy(y_true, y_pred, from_logits=self.from_logits)
        sample_weight = _masked(y_pred, losses, sample_weight, self.reduction)
        return _Reduce(self.reduction)(losses, sample_weight)

    def call(self, y_true, y_pred):
        return sparse_categorical_crossentropy(y_true, y_pred, from_logits=self.from_logits)


class CategoricalCrossentropy(Loss):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction=Reduction.AUTO, name="categorical_crossentropy"):
        super().__init__(reduction, name)
        self.from_logits, self.label_smoothing, self.axis = bool(from_logits), \
            float(label_smoothing), axis

    def call(self, y_true, y_pred):
        return categorical_crossentropy(y_true, y_pred, self.from_logits, self.label_smoothing,
                                        self.axis)


class BinaryCrossentropy(Loss):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction=Reduction.AUTO, name="binary_crossentropy"):
        super().__init__(reduction, name)
        self.from_logits, self.label_smoothing, self.axis = bool(from_logits), \
            float(label_smoothing), axis

    def call(self, y_true, y_pred):
        return binary_crossentropy(y_true, y_pred, self.from_logits, self.label_smoothing,
                                   self.axis)


class _Reduce(Loss):
    """The reduction step alone (losses already computed)."""

    def __init__(self, reduction):
        super().__init__(reduction)

    def __call__(self, losses, sample_weight=None):
        return Loss.__call__(self, losses, losses, sample_weight)

    def call(self, y_true, y_pred):
        return y_pred


#: the loss functions known by name to `get` and to compile's `loss=`
BY_NAME = {"mse": mean_squared_error, "mean_squared_error": mean_squared_error,
           "mae": mean_absolute_error, "mean_absolute_error": mean_absolute_error,
           "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
           "categorical_crossentropy": categorical_crossentropy,
           "binary_crossentropy": binary_crossentropy, "huber": huber,
           "huber_loss": huber, "kld": kl_divergence, "kl_divergence": kl_divergence,
           "kullback_leibler_divergence": kl_divergence, "hinge": hinge}


def get(identifier):
    if isinstance(identifier, Loss) or callable(identifier):
        return identifier
    if identifier in BY_NAME:
        return BY_NAME[identifier]
    raise ValueError(f"Unknown loss function: {identifier!r}. Known names: {sorted(BY_NAME)}")
