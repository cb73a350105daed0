"""`tv.keras.optimizers.legacy`: Keras's pre-2.11 optimizers, which older code builds with
`lr=` and `decay=` (`Adam(lr=1e-3, decay=1e-3 / epochs)`): the same update rules, with the
learning rate `lr / (1 + decay · iterations)` at each step, as tf-keras's legacy optimizers.
"""
from __future__ import annotations

import numpy as np

from . import optimizers as _optimizers


def _legacy(base):
    class Legacy(base):
        __doc__ = f"{base.__name__} taking `lr=` and `decay=` (Keras's legacy optimizer)."

        def __init__(self, *args, lr=None, decay=0.0, **kwargs):
            if lr is not None:
                kwargs["learning_rate"] = lr
            if not isinstance(decay, (int, float, np.number)) or decay < 0:
                raise ValueError(f"decay cannot be less than 0. Received: decay={decay}.")
            super().__init__(*args, **kwargs)
            self.decay = float(decay)

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
Nadam = _legacy(_optimizers.Nadam)
Nadam._counts_at_trace_time = False     # its u-product is a variable, no trace-time counter
Optimizer = _optimizers.Optimizer
