"""`tv.keras.layers.Lambda`: a function of tensors as a layer.

The function runs on real tensors whenever the layer is called on data (so its ops are
recorded in the layer's name scope); on a symbolic `tv.keras.Input` it runs on stand-in
tensors once, only to learn the output's shape and dtype.

>>> import tapeviz as tv
>>> double = tv.keras.layers.Lambda(lambda t: t * 2.0, name="double")
>>> double(tv.ones((1, 2))).numpy().tolist()
[[2.0, 2.0]]
"""
from __future__ import annotations

from .layers import Layer, _accepts


class Lambda(Layer):
    """`Lambda(function, output_shape=None, mask=None, arguments=None)`: `function(inputs,
    **arguments)` (plus `training=`/`mask=` when the function takes them)."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        if function is not None and not callable(function):
            raise TypeError(f"Lambda: `function` must be callable, got {function!r} "
                            f"({type(function).__name__}). Fix: e.g. "
                            "tf.keras.layers.Lambda(lambda x: x * 2)")
        self.function = function
        self.arguments = dict(arguments or {})
        self._output_shape = output_shape

    def build(self, input_shape):
        self.built = True

    def call(self, inputs, mask=None, training=None):
        kwargs = dict(self.arguments)
        if mask is not None and _accepts(self.function, "mask"):
            kwargs["mask"] = mask
        if training is not None and _accepts(self.function, "training"):
            kwargs["training"] = training
        return self.function(inputs, **kwargs)

    def compute_output_shape(self, input_shape):
        if self._output_shape is not None and not callable(self._output_shape):
            return (input_shape[0],) + tuple(self._output_shape)
        return super().compute_output_shape(input_shape)
