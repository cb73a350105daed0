"""The checks of an optimizer's arguments, with tf-keras's messages (and a fix): a learning
rate, the hyperparameters, the keyword arguments a new optimizer refuses."""
from __future__ import annotations

import warnings

import numpy as np

from ..engine.tensor import _Operand


def _process_kwargs(kwargs, name, cls):
    """tf-keras's optimizers: `lr` is warned about and ignored (learning_rate keeps its
    default), the legacy `decay` is refused, any other unknown argument too."""
    if kwargs.pop("lr", None):
        warnings.warn(f"`lr` is deprecated in TF-Keras optimizer, please use `learning_rate` or "
                      f"use the legacy optimizer, e.g.,tf.keras.optimizers.legacy.{cls}.",
                      UserWarning, stacklevel=3)
    kwargs.pop("is_legacy_optimizer", None)
    for k in kwargs:
        if k in ("decay", "gradient_aggregator", "gradient_transformers"):
            raise ValueError(f"{k} is deprecated in the new TF-Keras optimizer, please check the "
                             "docstring for valid arguments, or use the legacy optimizer, e.g., "
                             f"tf.keras.optimizers.legacy.{cls}.")
        raise TypeError(f"{k} is not a valid argument, kwargs should be empty  for "
                        f"`optimizer_experimental.Optimizer`. ({name}: tapeviz takes "
                        "Keras's arguments)")


def _is_number(value) -> bool:
    return isinstance(value, (int, float, np.number)) and not isinstance(value, bool)


def _check_learning_rate(lr, name):
    """Keras takes a number, a schedule (any callable of the step) or a tensor/variable."""
    ok = _is_number(lr) or callable(lr) or isinstance(lr, _Operand)
    if not ok:
        raise ValueError(f"{name}: Argument `learning_rate` should be float, or an instance of "
                         f"LearningRateSchedule, or a callable (that takes in the current "
                         f"iteration value and returns the corresponding learning rate value). "
                         f"Received instead: learning_rate={lr!r}. Fix: e.g. "
                         f"{name}(learning_rate=0.01)")


def _number(value, what, name, example, low=None, high=None):
    """A float hyperparameter, checked when the optimizer is made (Keras checks some only at
    the first update, with an internal error)."""
    if not _is_number(value) or (low is not None and not low <= value <= high):
        within = f" between [{low}, {high}]" if low is not None else ""
        raise ValueError(f"{name}: `{what}` must be a float{within}. Received: {what}={value!r}. "
                         f"Fix: pass a number, e.g. {name}({what}={example})")
    return float(value)
