"""Activation layers with parameters of their own (Keras 2's names and defaults)."""
from __future__ import annotations

from ..engine.ops.nn import leaky_relu, relu
from . import constraints as _constraints
from . import initializers as _initializers
from . import regularizers as _regularizers
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
        from .activations import softmax as keras_softmax
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
            return keras_softmax(inputs, axis=self.axis[0])
        return keras_softmax(inputs, axis=self.axis)     # (its logits cached, as Keras's)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


class PReLU(Layer):
    """`PReLU()`: x where x > 0, alpha·x elsewhere, with a learned `alpha` per input entry
    (batch axis excluded; one per `shared_axes` group), zeros at first: relu(x) - alpha·relu(-x),
    as Keras computes it."""

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None, alpha_constraint=None,
                 shared_axes=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.alpha_initializer = _initializers.get(alpha_initializer)
        self.alpha_regularizer = _regularizers.get(alpha_regularizer)
        self.alpha_constraint = _constraints.get(alpha_constraint)
        if shared_axes is None or isinstance(shared_axes, (list, tuple)):
            self.shared_axes = list(shared_axes) if shared_axes is not None else None
        else:
            self.shared_axes = [shared_axes]
        self.alpha = None

    def build(self, input_shape):
        param_shape = [int(d) if d is not None else 1 for d in tuple(input_shape)[1:]]
        for axis in self.shared_axes or ():
            param_shape[axis - 1] = 1
        self.alpha = self.add_weight("alpha", param_shape, initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer,
                                     constraint=self.alpha_constraint)
        self.built = True

    def call(self, inputs):
        pos = relu(inputs)
        neg = -self.alpha * relu(-inputs)
        return pos + neg

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


class ELU(Layer):
    """`K.elu(x, alpha)`: `x` where positive, `alpha·(exp(x) - 1)` elsewhere."""

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        if alpha is None:
            raise ValueError(f"Alpha of an ELU layer cannot be None, expecting a float. "
                             f"Received: {alpha}")
        self.alpha = float(alpha)

    def call(self, inputs):
        from .backend import elu
        return elu(inputs, self.alpha)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "alpha": self.alpha}


class ThresholdedReLU(Layer):
    """`x` where `x > theta`, else 0."""

    def __init__(self, theta=1.0, **kwargs):
        super().__init__(**kwargs)
        if theta is None:
            raise ValueError(f"Theta of a Thresholded ReLU layer cannot be None, expecting a "
                             f"float. Received: {theta}")
        if theta < 0:
            raise ValueError(f"The theta value of a Thresholded ReLU layer should be >=0. "
                             f"Received: {theta}")
        self.theta = float(theta)

    def call(self, inputs):
        from ..engine.ops import cast, greater
        dtype = inputs.dtype
        return inputs * cast(greater(inputs, cast(self.theta, dtype)), dtype)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "theta": self.theta}
