"""`tv.keras.utils`: the data helpers Keras code calls before training."""
from __future__ import annotations

import numpy as np


def to_categorical(y, num_classes=None, dtype="float32"):
    """One-hot rows of integer class labels, as a NumPy array (Keras's rule: a trailing axis
    of size 1 is dropped first; `num_classes` defaults to the largest label + 1)."""
    y = np.array(y, dtype="int")
    input_shape = y.shape
    if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
        input_shape = tuple(input_shape[:-1])
    y = y.reshape(-1)
    if not num_classes:
        num_classes = int(np.max(y)) + 1
    if y.size and (y.min() < 0 or y.max() >= num_classes):
        raise IndexError(f"to_categorical: labels must be in [0, {num_classes}), got "
                         f"{int(y.min())}..{int(y.max())}. Fix: pass num_classes larger "
                         "than the largest label")
    categorical = np.zeros((y.shape[0], num_classes), dtype=dtype)
    categorical[np.arange(y.shape[0]), y] = 1
    return np.reshape(categorical, input_shape + (num_classes,))
