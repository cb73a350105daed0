"""Merging layers: `Add`, `Subtract`, `Multiply`, `Average`, `Maximum`, `Minimum`,
`Concatenate`, each called on a list of tensors (`Add()([a, b])`), as Keras's."""
from __future__ import annotations

from .layers import Layer


class _Merge(Layer):
    """Combines a list of same-shaped tensors pairwise, left to right."""

    def _check(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) < self._min_inputs:
            got = len(inputs) if isinstance(inputs, (list, tuple)) else "a single tensor"
            raise ValueError(f"A merge layer should be called on a list of inputs "
                             f"(layer {self.name!r}, {type(self).__name__}): it needs at least "
                             f"{self._min_inputs}, got {got}. Fix: e.g. "
                             f"tf.keras.layers.{type(self).__name__}()([a, b])")

    _min_inputs = 1

    def build(self, input_shape):
        self.built = True

    def call(self, inputs):
        self._check(inputs)
        out = inputs[0]
        for x in inputs[1:]:
            out = self._merge(out, x)
        return out

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[0])


class Add(_Merge):
    def _merge(self, a, b):
        return a + b


class Multiply(_Merge):
    def _merge(self, a, b):
        return a * b


class Maximum(_Merge):
    def _merge(self, a, b):
        from ..engine.ops import maximum
        return maximum(a, b)


class Minimum(_Merge):
    def _merge(self, a, b):
        from ..engine.ops import minimum
        return minimum(a, b)


class Subtract(_Merge):
    _min_inputs = 2

    def call(self, inputs):
        self._check(inputs)
        if len(inputs) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs "
                             f"(layer {self.name!r}), got {len(inputs)}. Fix: Subtract()([a, b])")
        return inputs[0] - inputs[1]


class Average(_Merge):
    def call(self, inputs):
        return super().call(inputs) / float(len(inputs))

    def _merge(self, a, b):
        return a + b


class Concatenate(Layer):
    """Joins a list of tensors along `axis` (the last by default)."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def build(self, input_shape):
        self.built = True

    def call(self, inputs):
        from ..engine.ops import concat
        if not isinstance(inputs, (list, tuple)) or len(inputs) < 1:
            raise ValueError(f"A `Concatenate` layer should be called on a list of at least 1 "
                             f"input (layer {self.name!r}), got {inputs!r}. Fix: e.g. "
                             "tf.keras.layers.Concatenate()([a, b])")
        return concat(list(inputs), axis=self.axis)

    def compute_output_shape(self, input_shape):
        shapes = [list(s) for s in input_shape]
        out = shapes[0]
        axis = self.axis % len(out)
        sizes = [s[axis] for s in shapes]
        out[axis] = None if None in sizes else sum(sizes)
        return tuple(out)


def add(inputs, **kwargs):
    return Add(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    return Concatenate(axis=axis, **kwargs)(inputs)


def multiply(inputs, **kwargs):
    return Multiply(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    return Subtract(**kwargs)(inputs)


def average(inputs, **kwargs):
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    return Minimum(**kwargs)(inputs)
