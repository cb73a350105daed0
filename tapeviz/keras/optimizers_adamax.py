"""tf-keras's `Adamax` (Adam with the infinity norm: `u = max(β₂·u, |g|)`,
`w -= lr·m / ((1 - β₁ᵗ)·(u + ε))`) and `AdamW` (Adam with a decoupled weight decay: each
step first `w -= w·weight_decay·lr`, the decay every optimizer takes as `weight_decay=`)."""
from __future__ import annotations

import numpy as np

from .optimizer_args import _number
from .optimizers import Adam, Optimizer, Tensor, _set


class Adamax(Optimizer):
    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="Adamax", **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.beta_1 = _number(beta_1, "beta_1", self.name, 0.9)
        self.beta_2 = _number(beta_2, "beta_2", self.name, 0.999)
        self.epsilon = _number(epsilon, "epsilon", self.name, 1e-7)

    def _update(self, var, g, lr):
        dtype = var._value.dtype
        step = np.asarray(int(self.iterations._value) + 1, dtype)
        beta_1_power = np.asarray(self.beta_1, dtype) ** step
        m, u = self._slot(var, "m"), self._slot(var, "u")
        m_new = m._value + (g - m._value) * np.asarray(1 - self.beta_1, dtype)
        u_new = np.maximum(np.asarray(self.beta_2, dtype) * u._value, np.abs(g))
        _set(m, m_new)
        _set(u, u_new)
        step_size = (lr * m_new) / ((np.asarray(1, dtype) - beta_1_power) *
                                    (u_new + np.asarray(self.epsilon, dtype)))
        var.assign_sub(Tensor(step_size.astype(dtype, copy=False)))


class AdamW(Adam):
    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, name="AdamW", **kwargs):
        super().__init__(learning_rate, beta_1, beta_2, epsilon, amsgrad, name,
                         weight_decay=weight_decay, **kwargs)
        if self.weight_decay is None:
            raise ValueError("Missing value of `weight_decay` which is required and must be a "
                             "float value.")
