"""`tv.keras.Model` (subclass it, or `Model(inputs, outputs)` on `tv.keras.Input`s) and
`tv.keras.Sequential` (a stack of layers); both train with `compile`/`fit` (training.py)."""
from __future__ import annotations

from ..engine import nest
from ..engine.tensor import Tensor, TensorShape
from ..engine.threadstate import outside_name_scopes
from .functional import Graph, InputLayer, conform_to_input_rank, is_symbolic
from .keras_tensor import KerasTensor, SymbolicTensorError, _shape_text
from .layers import Layer, _accepts
from .model_build import build_by_calling
from .model_weights import ModelWeights as _ModelWeights
from .layer_aliases import ModelAliases
from .model_config_api import ModelConfig, clone_model, model_from_config, model_from_json  # noqa: F401,E501
from .training import Trainer


class Model(_ModelWeights, ModelConfig, ModelAliases, Trainer, Layer):
    """Subclass and define `call` (layers assigned to attributes are tracked), or give the
    functional graph: `Model(inputs=tv.keras.Input(shape=(3,)), outputs=y)`."""

    def __init__(self, *args, **kwargs):
        # as tf-keras: positional arguments are the graph's only with the outputs given too
        # (a subclass's `super().__init__("name")` passes one that Keras ignores)
        functional = len(args) == 2 or (len(args) == 1 and "outputs" in kwargs)
        inputs = kwargs.pop("inputs", args[0] if functional else None)
        outputs = kwargs.pop("outputs", args[1] if functional and len(args) > 1 else None)
        super().__init__(**kwargs)
        self._graph = None
        if inputs is not None or outputs is not None:
            if inputs is None or outputs is None:
                raise ValueError(f"Model: a functional model needs both `inputs` and "
                                 f"`outputs`; got inputs={inputs!r}, outputs={outputs!r}. Fix: "
                                 "tf.keras.Model(inputs=x_in, outputs=y)")
            self._graph = Graph(self, inputs, outputs)
            self._autocast = False      # (as Keras: its layers cast their own inputs)
            self._layers = list(self._graph.layers)
            self.built = True

    # --- the functional graph -------------------------------------------------------------------
    @property
    def layers(self) -> list:
        return list(self._layers) if hasattr(self, "_layers") else self._sublayers()

    def _sublayers(self):
        if getattr(self, "_graph", None) is not None:
            return [layer for layer in self._layers if not isinstance(layer, InputLayer)]
        return super()._sublayers()

    @property
    def inputs(self) -> list:
        return list(self._graph.flat_inputs) if self._graph else None

    @property
    def outputs(self) -> list:
        return list(self._graph.flat_outputs) if self._graph else None

    @property
    def input(self):
        return self._functional("input").inputs

    @property
    def output(self):
        return self._functional("output").outputs

    @property
    def input_names(self) -> list:
        return [t.name for t in self._functional("input_names").flat_inputs]

    @property
    def output_names(self) -> list:
        # the output layers' names, made unique as Keras's: a layer with two outputs gives
        # `rnn` and `rnn_1`
        names: list = []
        for t in self._functional("output_names").flat_outputs:
            name, count = t.node.layer.name, 1
            proposal = name
            while proposal in names:
                proposal, count = f"{name}_{count}", count + 1
            names.append(proposal)
        return names

    @property
    def input_shape(self):
        shapes = [t._shape for t in self._functional("input_shape").flat_inputs]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def output_shape(self):
        shapes = [t._shape for t in self._functional("output_shape").flat_outputs]
        return shapes[0] if len(shapes) == 1 else shapes

    def _functional(self, what) -> Graph:
        graph = getattr(self, "_graph", None)
        if graph is None:
            raise AttributeError(f"Layer {self.name} has no inbound nodes: `{what}` is known "
                                 f"for functional models only. Fix: build the model as "
                                 f"tf.keras.Model(inputs=tf.keras.Input(...), outputs=...)")
        return graph

    def build(self, input_shape=None):
        # a subclassed model runs `call` once on zeros so its layers make their weights
        if self._graph is None:
            build_by_calling(self, input_shape)
        self.built = True

    # a first call builds each layer as data reaches it: tf-keras calls a model's `build` then
    # only where a subclass overrides it (and that one's `super().build(shape)` runs `call`)
    build.skipped_on_first_call = True

    def __call__(self, inputs, *args, **kwargs):
        graph = getattr(self, "_graph", None)
        if graph is not None and not is_symbolic(inputs, args, kwargs):
            inputs = nest.pack_sequence_as(graph.inputs, graph.conform(inputs))
        return super().__call__(inputs, *args, **kwargs)

    def call(self, inputs, training=None, mask=None):
        if self._graph is None:
            raise NotImplementedError(f"Model {self.name!r} has no `call`. Fix: subclass "
                                      "tf.keras.Model and define call(self, inputs), or build it "
                                      "as tf.keras.Model(inputs, outputs)")
        outputs, losses = self._graph.run(nest.flatten(inputs), training)
        if losses:
            self._graph_losses = list(losses)
        return outputs

    def save_weights(self, filepath, overwrite=True, save_format=None, options=None):
        """The model's variables: Keras's HDF5 layouts for `.h5` and `.weights.h5` paths,
        else tapeviz's checkpoint format (see saving_api.py)."""
        from .saving_api import save_weights
        save_weights(self, filepath, overwrite, save_format)

    def load_weights(self, filepath, skip_mismatch=False, by_name=False, options=None):
        from .saving_api import load_weights
        return load_weights(self, filepath, skip_mismatch, by_name)

    def save(self, filepath, overwrite=True, save_format=None, **kwargs):
        """The whole model (config, weights, compile config and optimizer state): a `.keras`
        zip or `.h5` file as tf-keras writes them, else a tapeviz SavedModel directory."""
        from .saving_keras import save_model
        save_model(self, filepath, overwrite, save_format)

    def get_layer(self, name=None, index=None):
        """A layer by name or by position."""
        layers = self.layers
        if index is not None:
            return layers[index]
        for layer in layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: "
                         f"{[layer.name for layer in layers]}.")

    def summary(self, print_fn=print, line_length=None):
        """Keras's table: each layer's name and type, output shape and parameter count (and,
        for a functional model, the layers it is connected to)."""
        functional = getattr(self, "_graph", None) is not None
        rows = [(f"{layer.name} ({type(layer).__name__})", shape, layer.count_params(),
                 _connected_to(layer) if functional else "")
                for layer, shape in zip(self.layers, self._output_shapes())]
        widths = [max([len(r[0]) for r in rows] + [20]), max([len(r[1]) for r in rows] + [14])]
        total = widths[0] + widths[1] + (36 if functional else 14)
        lines = [f'Model: "{self.name}"', "_" * total,
                 f"{'Layer (type)':<{widths[0]}}  {'Output Shape':<{widths[1]}}  {'Param #':>10}"
                 + ("  Connected to" if functional else ""), "=" * total]
        lines += [f"{n:<{widths[0]}}  {shape:<{widths[1]}}  {p:>10,}  {c}".rstrip()
                  for n, shape, p, c in rows]
        trainable = sum(int(w._value.size) for w in self.trainable_weights)
        lines += ["=" * total, f"Total params: {self.count_params():,}",
                  f"Trainable params: {trainable:,}",
                  f"Non-trainable params: {self.count_params() - trainable:,}", "_" * total]
        print_fn("\n".join(lines))

    def _output_shapes(self) -> list:
        return [_output_shape(layer) for layer in self.layers]


def _output_shape(layer) -> str:
    if isinstance(layer, InputLayer):
        return f"[{_shape_text(layer._batch_input_shape)}]"
    nodes = layer.__dict__.get("_inbound_nodes")
    if not nodes:
        return "?"
    outs = [t for t in nest.flatten(nodes[-1].outputs) if isinstance(t, KerasTensor)]
    return ", ".join(_shape_text(t._shape) for t in outs) or "?"


def _connected_to(layer) -> str:
    """Keras's `['layer[node][tensor]', ...]`: the calls whose outputs this layer read."""
    if isinstance(layer, InputLayer):
        return "[]"
    nodes = layer.__dict__.get("_inbound_nodes") or []
    return "[" + ", ".join(f"'{t.node.layer.name}[{_node_index(t.node)}][{t._index}]'"
                           for node in nodes for t in node.parents()) + "]"


def _node_index(node) -> int:
    nodes = node.layer.__dict__.get("_inbound_nodes") or [node]
    return next((i for i, n in enumerate(nodes) if n is node), 0)


def _declared_input_shape(layer):
    """The batch input shape a first layer declares, as tf-keras's get_input_shape_and_dtype
    (a nested Sequential that only learnt its shape from a call: its first layer's)."""
    while isinstance(layer, Sequential) and layer.__dict__.get("_input_shape_inferred") \
            and layer._layers:
        layer = layer._layers[0]
    return getattr(layer, "_batch_input_shape", None)


class Sequential(Model):
    """Layers applied one after another: `Sequential([Dense(64, 'relu'), Dense(10)])`."""

    _autocast = False

    def __init__(self, layers=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self._layers: list = []
        single = layers is not None and not isinstance(layers, (list, tuple))
        for layer in [layers] if single else layers or []:   # (one layer, as Keras takes it)
            self.add(layer)

    @property
    def layers(self) -> list:
        return list(self._layers)

    def add(self, layer):
        if isinstance(layer, KerasTensor) and isinstance(layer.node.layer, InputLayer):
            self._given_input = layer         # Sequential([tf.keras.Input(shape=(3,)), ...])
            layer = layer.node.layer
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
        shape = self._batch_input_shape or _declared_input_shape(self._layers[0])
        if shape is not None:
            try:
                self.build(shape)
                self._trace(layer, shape)
            except Exception:
                self._layers.pop()    # as tf-keras: a layer that does not fit is not added
                raise

    def _trace(self, layer, shape):
        """As tf-keras, with the input shape known, call the added layer on the KerasTensors
        before it: `model.input`, `model.output` and each layer's `output` exist, and a layer
        that does not fit is refused now. One whose code needs values leaves them unknown."""
        from .functional import Input
        symbolic = self.__dict__.get("_symbolic")
        try:
            if symbolic is None:
                inputs = self.__dict__.get("_given_input")
                if inputs is None:
                    inputs = Input(batch_shape=shape, name=f"{self._layers[0].name}_input")
                outputs = inputs
                for each in self._layers:
                    outputs = each(outputs)
            else:
                inputs, outputs = symbolic[0], layer(symbolic[1])
            self._symbolic = (inputs, outputs, Graph(self, inputs, outputs))
        except (SymbolicTensorError, NotImplementedError):
            self._symbolic = None

    @property
    def input_shape(self):
        """Known once an input shape is (`Input`, or `input_shape=` on the first layer)."""
        shape = self._batch_input_shape or (
            getattr(self._layers[0], "_batch_input_shape", None) if self._layers else None)
        if shape is None:
            raise AttributeError(f"The layer {self.name!r} has never been called and thus has "
                                 "no defined input shape. Fix: start the model with "
                                 "tf.keras.Input(shape=...) or give the first layer input_shape=")
        return tuple(shape)

    @property
    def output_shape(self):
        shape = self.input_shape
        for layer in self._layers:
            shape = tuple(layer.compute_output_shape(shape))
        return shape

    def pop(self):
        if not self._layers:
            raise TypeError("There are no layers in the model.")
        self._layers.pop()
        self._symbolic = None

    def _functional(self, what) -> Graph:
        symbolic = self.__dict__.get("_symbolic")
        return symbolic[2] if symbolic is not None else super()._functional(what)

    @property
    def inputs(self) -> list:
        symbolic = self.__dict__.get("_symbolic")
        return list(symbolic[2].flat_inputs) if symbolic is not None else None

    @property
    def outputs(self) -> list:
        symbolic = self.__dict__.get("_symbolic")
        return list(symbolic[2].flat_outputs) if symbolic is not None else None

    def build(self, input_shape=None):
        if input_shape is None:
            input_shape = self._batch_input_shape or (
                getattr(self._layers[0], "_batch_input_shape", None) if self._layers else None)
        if input_shape is None:
            return
        shape = tuple(input_shape)
        for layer in self._layers:
            if not layer.built:     # (a nested Sequential's _maybe_build only notes the shape)
                (layer.build if isinstance(layer, Sequential) else layer._maybe_build)(shape)
            # (a TensorShape, as Keras gives it: a custom layer may call .as_list() on it)
            shape = tuple(layer.compute_output_shape(TensorShape(shape)))
        self.built = True

    def _maybe_build(self, input_shape):
        # called on the first __call__: each layer builds itself when the data reaches it
        if input_shape is not None and self._batch_input_shape is None:
            self._batch_input_shape = (None,) + tuple(input_shape[1:])
            self._input_shape_inferred = True
        self.built = True

    def _output_shapes(self) -> list:
        shape, out = self._batch_input_shape or (
            getattr(self._layers[0], "_batch_input_shape", None) if self._layers else None), []
        for layer in self._layers:
            try:
                shape = None if shape is None else tuple(
                    layer.compute_output_shape(TensorShape(shape)))
            except Exception:  # noqa: BLE001  (a summary shows '?' where a shape is unknown)
                shape = None
            out.append("?" if shape is None else _shape_text(shape))
        return out

    def call(self, inputs, training=None):
        x = inputs
        expected = self._batch_input_shape or (
            getattr(self._layers[0], "_batch_input_shape", None) if self._layers else None)
        if expected and isinstance(x, Tensor):
            x = conform_to_input_rank(x, expected)
        for layer in self._layers:
            if not layer.built and isinstance(x, Tensor):
                # Keras builds a Sequential's layers outside every name scope: 'dense/kernel',
                # not 'sequential/dense/kernel', wherever the model is first called
                with outside_name_scopes():
                    layer._maybe_build(tuple(x.shape))
                layer.built = True
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


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True, **kwargs):
    """A model saved by `Model.save` (tapeviz's or TensorFlow's `.keras` and `.h5` files)."""
    from .saving_keras import load_model as load
    return load(filepath, custom_objects, compile, safe_mode)


def save_model(model, filepath, overwrite=True, save_format=None, **kwargs):
    model.save(filepath, overwrite, save_format)
