"""`tv.keras.optimizers.legacy`: Keras's pre-2.11 optimizers, which older code builds with
`lr=` and `decay=` (`Adam(lr=1e-3, decay=1e-3 / epochs)`): the same update rules, with the
learning rate `lr / (1 + decay · iterations)` at each step, as tf-keras's legacy optimizers.
"""
from __future__ import annotations

import numpy as np

from . import optimizers as _optimizers
from . import optimizers_adagrad as _optimizers_adagrad


def _legacy(base):
    class Legacy(base):
        __doc__ = f"{base.__name__} taking `lr=` and `decay=` (Keras's legacy optimizer)."
        _slot_path = "{optimizer}/{variable}/{slot}"
        _tracks_variables = False       # (a legacy optimizer takes any variable, any time)
        _slot_labels: dict = {}

        def __init__(self, *args, lr=None, decay=0.0, **kwargs):
            if lr is not None:
                kwargs["learning_rate"] = lr
            if not isinstance(decay, (int, float, np.number)) or decay < 0:
                raise ValueError(f"decay cannot be less than 0. Received: decay={decay}.")
            super().__init__(*args, **kwargs)
            self.decay = float(decay)

        # a schedule is the learning rate itself (`optimizer.learning_rate(step)`), as
        # tf-keras's legacy optimizers keep it
        learning_rate = property(lambda self: self._learning_rate, base.learning_rate.fset)
        lr = learning_rate

        @property
        def build(self):
            # tf-keras's legacy optimizers have no build(): they learn no variable list
            raise AttributeError(f"{type(self).__name__!r} object has no attribute 'build'")

        def _lr(self, dtype):
            lr = super()._lr(dtype)
            if self.decay > 0:
                step = np.asarray(self.iterations._value, dtype)
                lr = lr / (np.asarray(1.0, dtype) + np.asarray(self.decay, dtype) * step)
            return np.asarray(lr, dtype)

    Legacy.__name__ = Legacy.__qualname__ = base.__name__
    Legacy.__module__ = __name__
    return Legacy


SGD = _legacy(_optimizers.SGD)
Adam = _legacy(_optimizers.Adam)
RMSprop = _legacy(_optimizers.RMSprop)
Adagrad = _legacy(_optimizers_adagrad.LegacyAdagrad)
Optimizer = _optimizers.Optimizer


class Nadam(_legacy(_optimizers.Nadam)):
    """tf-keras's legacy Nadam, not the new one with `lr=`: its momentum schedule is
    `u_t = β₁·(1 - ½·0.96^(schedule_decay·t))` (`schedule_decay` 0.004, which also takes the
    place of any `decay=`), the product of u's a variable multiplied once per step (inside a
    compiled `fit` too), and its learning rate is not decayed."""

    _counts_at_trace_time = False

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="Nadam", schedule_decay=0.004, decay=None, lr=None, **kwargs):
        super().__init__(learning_rate if lr is None else lr, beta_1, beta_2, epsilon, name,
                         **kwargs)
        self.schedule_decay = float(schedule_decay)

    def _update(self, var, g, lr):
        dtype = var._value.dtype

        def c(value):
            return np.asarray(value, dtype)

        step = int(self.iterations._value) + 1
        b1, b2 = c(self.beta_1), c(self.beta_2)

        def u(k):
            return b1 * (c(1.0) - c(0.5) * c(0.96) ** (c(self.schedule_decay) * c(k)))

        u_t, u_t_1 = u(step), u(step + 1)
        u_product_t = self._u_product_at(step, u, dtype).astype(dtype)
        m, v = self._slot(var, "m"), self._slot(var, "v")
        m_new = b1 * m._value + (c(1.0) - b1) * g
        v_new = b2 * v._value + (c(1.0) - b2) * np.square(g)
        _optimizers._set(m, m_new)
        _optimizers._set(v, v_new)
        m_bar = (c(1.0) - u_t) * (g / (c(1.0) - u_product_t)) + u_t_1 * (
            m_new / (c(1.0) - u_product_t * u_t_1))
        v_hat = v_new / (c(1.0) - b2 ** c(step))
        var.assign(_optimizers.Tensor((var._value - lr * m_bar / (np.sqrt(v_hat) + c(
            self.epsilon))).astype(dtype, copy=False)))
