"""Merging layers: `Add`, `Subtract`, `Multiply`, `Average`, `Maximum`, `Minimum`,
`Concatenate`, `Dot`, each called on a list of tensors (`Add()([a, b])`), as Keras's."""
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


class Dot(Layer):
    """Per-sample dot products of two tensors over `axes` (one axis each, or an int for
    both; `normalize=True` gives cosine similarities), Keras's `backend.batch_dot`."""

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(axes, int):
            if not isinstance(axes, (list, tuple)):
                raise TypeError("Invalid type for argument `axes`: it should be a list or an "
                                f"int. Received: axes={axes}")
            if len(axes) != 2:
                raise ValueError("Invalid format for argument `axes`: it should contain two "
                                 f"elements. Received: axes={axes}")
            if not isinstance(axes[0], int) or not isinstance(axes[1], int):
                raise ValueError("Invalid format for argument `axes`: list elements should be "
                                 f"integers. Received: axes={axes}")
        self.axes = axes
        self.normalize = normalize

    def _axes(self, rank1, rank2):
        axes = [self.axes] * 2 if isinstance(self.axes, int) else list(self.axes)
        return [a % rank if a < 0 else a for a, rank in zip(axes, (rank1, rank2))]

    def _check(self, shapes):
        if not isinstance(shapes, (list, tuple)) or len(shapes) != 2:
            raise ValueError(f"A `Dot` layer should be called on a list of 2 inputs (layer "
                             f"{self.name!r}). Received: input_shape={shapes}")
        shape1, shape2 = (tuple(s) for s in shapes)
        a0, a1 = self._axes(len(shape1), len(shape2))
        if shape1[a0] != shape2[a1]:
            raise ValueError(f"Incompatible input shapes: axis values {shape1[a0]} (at axis "
                             f"{a0}) != {shape2[a1]} (at axis {a1}). Full input shapes: "
                             f"{shape1}, {shape2}")

    def build(self, input_shape):
        if input_shape is not None:     # (None: called eagerly on a list; `call` checks)
            self._check(input_shape)
        self.built = True

    def call(self, inputs):
        from ..linalg import l2_normalize
        from .backend_batch import batch_dot
        self._check([tuple(x.shape) for x in inputs] if isinstance(inputs, (list, tuple))
                    else inputs)
        x1, x2 = inputs
        axes = self._axes(x1.shape.rank, x2.shape.rank)
        if self.normalize:
            x1, x2 = l2_normalize(x1, axis=axes[0]), l2_normalize(x2, axis=axes[1])
        return batch_dot(x1, x2, axes)

    def compute_output_shape(self, input_shape):
        shape1, shape2 = (list(s) for s in input_shape)
        a0, a1 = self._axes(len(shape1), len(shape2))
        shape1.pop(a0)
        shape2.pop(a1)
        out = shape1 + shape2[1:]
        return tuple(out + [1] if len(out) == 1 else out)

    def get_config(self):
        return {**super().get_config(), "axes": self.axes, "normalize": self.normalize}


def dot(inputs, axes, normalize=False, **kwargs):
    return Dot(axes=axes, normalize=normalize, **kwargs)(inputs)


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
