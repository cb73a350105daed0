"""`tv.keras.Model` (subclass it) and `tv.keras.Sequential` (a stack of layers)."""
from __future__ import annotations

from .layers import InputLayer, Layer, _accepts


class Model(Layer):
    """Subclass and define `call`; layers assigned to attributes are tracked."""

    def summary(self, print_fn=print):
        rows = [(f"{layer.name} ({type(layer).__name__})", layer.count_params())
                for layer in self._sublayers()]
        width = max([len(r[0]) for r in rows] + [20])
        lines = [f'Model: "{self.name}"', "_" * (width + 16),
                 f"{'Layer (type)':<{width}}  {'Param #':>12}", "=" * (width + 16)]
        lines += [f"{name:<{width}}  {n:>12,}" for name, n in rows]
        lines += ["=" * (width + 16), f"Total params: {self.count_params():,}"]
        print_fn("\n".join(lines))


class Sequential(Model):
    """Layers applied one after another: `Sequential([Dense(64, 'relu'), Dense(10)])`."""

    def __init__(self, layers=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self._layers: list = []
        for layer in layers or []:
            self.add(layer)

    @property
    def layers(self) -> list:
        return list(self._layers)

    def add(self, layer):
        if not isinstance(layer, Layer):
            raise ValueError(f"Sequential: Only instances of `keras.Layer` can be added to a "
                             f"Sequential model. Received: {layer!r} (of type "
                             f"{type(layer).__name__}). Fix: wrap it in a layer, e.g. "
                             "tv.keras.layers.Dense(5) rather than 5")
        if isinstance(layer, InputLayer):
            if self._layers:
                raise ValueError("An Input must come first in a Sequential model")
            self._batch_input_shape = layer._batch_input_shape
            return
        if any(existing.name == layer.name for existing in self._layers):
            raise ValueError(f"All layers added to a Sequential model should have unique "
                             f"names. Name {layer.name!r} is already the name of a layer in "
                             "this model. Update the `name` argument to pass a unique name.")
        self._layers.append(layer)
        shape = self._batch_input_shape or getattr(self._layers[0], "_batch_input_shape", None)
        if shape is not None:
            self.build(shape)

    def get_layer(self, name=None, index=None):
        """A layer by name or by position."""
        if index is not None:
            return self._layers[index]
        for layer in self._layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: "
                         f"{[layer.name for layer in self._layers]}.")

    def pop(self):
        if not self._layers:
            raise TypeError("There are no layers in the model.")
        self._layers.pop()

    def build(self, input_shape=None):
        if input_shape is None:
            input_shape = self._batch_input_shape or (
                getattr(self._layers[0], "_batch_input_shape", None) if self._layers else None)
        if input_shape is None:
            return
        shape = tuple(input_shape)
        for layer in self._layers:
            if not layer.built:
                layer._maybe_build(shape)
            shape = layer.compute_output_shape(shape)
        self.built = True

    def _maybe_build(self, input_shape):
        # called on the first __call__: each layer builds itself when the data reaches it
        self.built = True

    def call(self, inputs, training=None):
        x = inputs
        for layer in self._layers:
            if training is not None and _accepts(layer.call, "training"):
                x = layer(x, training=training)
            else:
                x = layer(x)
        return x

    def compute_output_shape(self, input_shape):
        shape = tuple(input_shape)
        for layer in self._layers:
            shape = layer.compute_output_shape(shape)
        return shape
