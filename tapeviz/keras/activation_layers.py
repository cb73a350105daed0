"""Activation layers with parameters of their own (Keras 2's names and defaults)."""
from __future__ import annotations

from ..engine.ops.nn import leaky_relu
from .layers import Layer


class LeakyReLU(Layer):
    """`LeakyReLU(alpha=0.3)`: x where x > 0, alpha·x elsewhere (Keras 2's default slope is
    0.3, `tf.nn.leaky_relu`'s 0.2)."""

    def __init__(self, alpha=0.3, **kwargs):
        super().__init__(**kwargs)
        if alpha is None:
            raise ValueError("The alpha value of a Leaky ReLU layer cannot be None, needs a "
                             "float. Fix: e.g. LeakyReLU(alpha=0.2)")
        self.alpha = float(alpha)

    def call(self, inputs):
        return leaky_relu(inputs, alpha=self.alpha)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)
