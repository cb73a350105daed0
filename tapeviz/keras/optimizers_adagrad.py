"""`tv.keras.optimizers.Adagrad` and its legacy form, with tf-keras's update rules.

Each variable has an accumulator of squared gradients, starting at
`initial_accumulator_value` (0.1): `acc += g²`, then

* Adagrad (tf-keras's, since 2.11): `w -= lr·g / √(acc + ε)`
* legacy Adagrad (TensorFlow's `ApplyAdagradV2` kernel): `w -= lr·g / (√acc + ε)`, with
  `lr=` and `decay=` as the other legacy optimizers.
"""
from __future__ import annotations

import numpy as np

from .optimizer_args import _number
from .optimizers import Optimizer, Tensor, _set


class Adagrad(Optimizer):
    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 name="Adagrad", **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.initial_accumulator_value = _number(
            initial_accumulator_value, "initial_accumulator_value", self.name, 0.1)
        self.epsilon = _number(epsilon, "epsilon", self.name, 1e-7)

    def _slot_start(self, var, name):
        # (the accumulator starts at initial_accumulator_value, not at zero as other slots)
        return np.full_like(var._value, self.initial_accumulator_value)

    def _update(self, var, g, lr):
        dtype = var._value.dtype
        acc = self._slot(var, "accumulator")
        acc_new = acc._value + g * g
        _set(acc, acc_new)
        var.assign_sub(Tensor((lr * g / self._denominator(acc_new, dtype))
                              .astype(dtype, copy=False)))

    def _denominator(self, acc, dtype):
        return np.sqrt(acc + np.asarray(self.epsilon, dtype))


class LegacyAdagrad(Adagrad):
    """The rule of TensorFlow's `ApplyAdagradV2` kernel, which the legacy optimizer runs; as
    it, a negative `initial_accumulator_value` is refused."""

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 name="Adagrad", **kwargs):
        if _number(initial_accumulator_value, "initial_accumulator_value", name, 0.1) < 0.0:
            raise ValueError(f"initial_accumulator_value must be non-negative: "
                             f"{initial_accumulator_value}")
        super().__init__(learning_rate, initial_accumulator_value, epsilon, name, **kwargs)

    def _denominator(self, acc, dtype):
        return np.sqrt(acc) + np.asarray(self.epsilon, dtype)
