"""Activation layers with parameters of their own (Keras 2's names and defaults)."""
from __future__ import annotations

from ..engine.ops.nn import leaky_relu
from .layers_base import Layer


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


class Softmax(Layer):
    """`Softmax(axis=-1)`: softmax along `axis` (a list of axes: over all of them together).
    With `mask=`, masked positions (False or 0) get -1e9 added to their logits first (the
    float16 minimum for float16), so they come out (nearly) zero, as Keras 2."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.axis = axis

    def call(self, inputs, mask=None):
        from ..engine.ops import cast, exp, reduce_logsumexp
        from ..engine.ops.nn import softmax
        from ..engine.ops._base import tensor
        inputs = tensor(inputs)
        if inputs.dtype.is_floating and inputs.dtype != self._dtype:   # Keras's autocast
            inputs = cast(inputs, self._dtype)
        if mask is not None:
            large_negative = -65504.0 if inputs.dtype.name == "float16" else -1e9
            inputs = inputs + (1.0 - cast(mask, inputs.dtype)) * large_negative
        if isinstance(self.axis, (tuple, list)):
            if len(self.axis) > 1:
                return exp(inputs - reduce_logsumexp(inputs, axis=self.axis, keepdims=True))
            return softmax(inputs, axis=self.axis[0])
        return softmax(inputs, axis=self.axis)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}
