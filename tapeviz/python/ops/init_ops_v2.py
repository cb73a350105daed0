"""`tensorflow.python.ops.init_ops_v2`: ``_compute_fans``, which custom initializers (SIREN's,
for one) import to size their weights as Keras's own initializers do."""
from __future__ import annotations

from .. import private_module

__getattr__ = private_module("ops.init_ops_v2", "tf.keras.initializers")


def _compute_fans(shape):
    """``(fan_in, fan_out)`` of a weight of ``shape``, as Python ints: a convolution kernel
    ``(..., in, out)`` multiplies both by its receptive field (the product of the leading
    dimensions)."""
    if len(shape) < 1:          # a scalar (a constant), as TensorFlow counts it
        return 1, 1
    if len(shape) == 1:
        return int(shape[0]), int(shape[0])
    if len(shape) == 2:
        return int(shape[0]), int(shape[1])
    receptive = 1
    for dim in shape[:-2]:
        receptive *= dim
    return int(shape[-2] * receptive), int(shape[-1] * receptive)
