"""`tf.train.ExponentialMovingAverage`: shadow copies of variables that follow them slowly
(`shadow -= (1 - decay) · (shadow - variable)` at each `apply`), as TensorFlow's eager one."""
from __future__ import annotations

import numpy as np

from .engine.tensor import Variable


class ExponentialMovingAverage:
    """Moving averages of variables. `num_updates` (an int or a variable) caps the decay at
    (1 + n) / (10 + n), so that early averages follow quickly."""

    def __init__(self, decay, num_updates=None, zero_debias=False,
                 name="ExponentialMovingAverage"):
        self._decay, self._num_updates = decay, num_updates
        self._zero_debias, self._name = zero_debias, name
        self._averages = {}          # id(variable) -> (variable, shadow variable)

    @property
    def name(self):
        return self._name

    def _current_decay(self):
        decay = float(np.asarray(getattr(self._decay, "_value", self._decay)))
        if self._num_updates is not None:
            n = float(np.asarray(getattr(self._num_updates, "_value", self._num_updates)))
            decay = min(decay, (1.0 + n) / (10.0 + n))
        return decay

    def apply(self, var_list=None):
        """Make the shadow variables of `var_list` (once, equal to the variables), then move
        every shadow toward its variable."""
        var_list = list(var_list or [])
        for var in var_list:
            if not isinstance(var, Variable):
                raise TypeError("tf.train.ExponentialMovingAverage does not support "
                                "non-Variable tensors when eager execution is enabled. Fix: "
                                "average tf.Variables")
            if var.dtype.name not in ("float16", "bfloat16", "float32", "float64"):
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
        for var in var_list:
            if id(var) not in self._averages:
                shadow = Variable(var.numpy(), trainable=False, dtype=var.dtype,
                                  name=self.average_name(var))
                self._averages[id(var)] = (var, shadow)
        decay = self._current_decay()
        for var in var_list:
            shadow = self._averages[id(var)][1]
            shadow.assign_sub((shadow - var) * np.asarray(1.0 - decay, var.dtype.np))
        return None

    def average(self, var):
        """The shadow variable of `var`, or None if `apply` never saw it."""
        entry = self._averages.get(id(var))
        return entry[1] if entry is not None and entry[0] is var else None

    def average_name(self, var):
        """'<variable name>/<this average's name>' (what the shadow variable is called)."""
        return var.name.rsplit(":", 1)[0] + "/" + self._name
