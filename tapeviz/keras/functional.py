"""The Keras functional API: `tv.keras.Input`, layers called on it, `tv.keras.Model(inputs,
outputs)`.

Calling a layer on a symbolic input builds the layer's weights (they are real variables,
created where the model is defined) and records the call; the layer's code then runs twice on
stand-in tensors (the unknown batch as 2, then 3; other unknown axes as 32, then 64) in a
mode no tape records and no event reports, only to learn the output's shape (a dimension that
follows an unknown one is None) and dtype. Calling the finished model on data runs each recorded call in order on real tensors,
so a tape sees the real ops in each layer's name scope, as with `Sequential`.
"""
from __future__ import annotations

import contextlib
import threading

import numpy as np

from ..engine import nest
from ..engine.convert import convert_to_tensor
from ..engine.errors import InvalidArgumentError
from ..engine.tensor import Tensor, _Operand
from ..engine.threadstate import unrecorded
from .keras_tensor import KerasNode, KerasTensor, _shape_text
from .layers import Layer, unique_name

_probe = threading.local()     # .active: a stand-in call is running (add_loss then ignored)


def probing() -> bool:
    return getattr(_probe, "active", False)


class InputLayer(Layer):
    """The layer behind `tv.keras.Input`: it declares the input's shape and dtype."""

    def __init__(self, input_shape=None, batch_size=None, dtype=None, name=None, shape=None,
                 **kwargs):
        shape = shape if shape is not None else input_shape
        shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape or ())
        super().__init__(name=name if name is not None else unique_name("input", zero_based=False),
                         dtype=dtype if dtype is not None else _floatx(),
                         batch_input_shape=(batch_size,) + shape, **kwargs)
        self.built = True
        tensor = KerasTensor(self._batch_input_shape, self._dtype, self.name)
        tensor._node = KerasNode(self, (), {}, tensor)
        self._output = tensor

    @property
    def shape(self):
        return self._batch_input_shape

    @property
    def output(self):
        return self._output

    input = output          # (an InputLayer's input is its own tensor, as Keras's)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


def Input(shape=None, batch_size=None, name=None, dtype=None, sparse=None, tensor=None,  # noqa
          ragged=None, type_spec=None, batch_shape=None, **kwargs):
    """A symbolic input: `x = tv.keras.Input(shape=(3,))` has shape (None, 3)."""
    if batch_shape is not None:
        batch_size, shape = batch_shape[0], tuple(batch_shape[1:])
    if shape is None:
        raise ValueError("Please provide to Input a `shape` or a `tensor` or a `type_spec` "
                         "argument. Note that `shape` does not include the batch dimension. "
                         "Fix: e.g. tf.keras.Input(shape=(3,))")
    return InputLayer(shape=shape, batch_size=batch_size, name=name, dtype=dtype,
                      **kwargs)._output


def is_symbolic(inputs, args=(), kwargs=None) -> bool:
    """Whether a layer call has a KerasTensor among its arguments (then it is recorded)."""
    for value in (inputs, *args, *(kwargs.values() if kwargs else ())):
        if isinstance(value, KerasTensor) or (isinstance(value, (list, tuple, dict)) and any(
                isinstance(t, KerasTensor) for t in nest.flatten(value))):
            return True
    return False


def _floatx():
    from .backend import floatx      # (an Input is floatx() under any global policy, as Keras)
    return floatx()


def symbolic_call(layer, inputs, args, kwargs):
    """Record `layer(inputs, *args, **kwargs)` on KerasTensors; return its KerasTensors."""
    if not layer.built:
        # (a TensorShape, as Keras gives build: `input_shape.as_list()`, `input_shape[-1]`)
        shapes = nest.pack_sequence_as(inputs, [
            t.shape if isinstance(t, KerasTensor) else None for t in nest.flatten(inputs)]) \
            if nest.is_nested(inputs) else inputs.shape
        layer._maybe_build(shapes)
    structure = [inputs, list(args), kwargs]
    first, second = (_run_on_stand_ins(layer, structure, size) for size in (2, 3))
    flat_first, flat_second = nest.flatten(first), nest.flatten(second)
    outputs = []
    for index, (a, b) in enumerate(zip(flat_first, flat_second)):
        if a is None:
            outputs.append(None)
            continue
        shape = [None if da != db else da for da, db in zip(a._value.shape, b._value.shape)]
        outputs.append(KerasTensor(shape, a.dtype, layer.name, index=index))
    packed = nest.pack_sequence_as(first, outputs)
    node = KerasNode(layer, (inputs,) + tuple(args), dict(kwargs), packed)
    for t in outputs:
        if t is not None:
            t._node = node
    layer.__dict__.setdefault("_inbound_nodes", []).append(node)
    return packed


_UNKNOWN_AXIS = {2: 32, 3: 64}     # the stand-in size of an unknown non-batch axis


def _run_on_stand_ins(layer, structure, size):
    def stand_in(t):
        if not isinstance(t, KerasTensor):
            return t
        # an unknown batch axis as `size` (2, then 3); any other unknown axis (an image's
        # height and width) as 32, then 64: a 7x7 kernel fits, and after strides and
        # poolings the two runs still differ where the output's size depends on it
        shape = tuple(d if d is not None else size if i == 0 else _UNKNOWN_AXIS[size]
                      for i, d in enumerate(t._shape))
        if t.dtype.is_string:
            return convert_to_tensor(np.full(shape, b"", dtype=object))
        return Tensor(np.zeros(shape, t.dtype.np))

    inputs, args, kwargs = nest.pack_sequence_as(
        structure, [stand_in(t) for t in nest.flatten(structure)])
    with stand_in_call():
        try:
            out = layer(inputs, *args, **kwargs)
        except InvalidArgumentError as exc:
            # an op refusing the shapes while a graph is built is a ValueError in TensorFlow
            raise ValueError(f'Exception encountered when calling layer "{layer.name}" (type '
                             f"{type(layer).__name__}).\n\n{exc}") from exc
    return nest.pack_sequence_as(out, [_as_output(layer, t) for t in nest.flatten(out)])


@contextlib.contextmanager
def stand_in_call():
    """A call on stand-in tensors, only to build layers or learn shapes: no tape records it,
    no event reports it, and `add_loss`/moving statistics ignore it (`probing()`)."""
    _probe.active = True
    try:
        with unrecorded():
            yield
    finally:
        _probe.active = False


def _as_output(layer, value):
    if value is None or isinstance(value, Tensor):
        return value
    if isinstance(value, _Operand):
        return value.read_value()
    if isinstance(value, (np.ndarray, np.generic)):
        raise NotImplementedError(
            f"Exception encountered when calling layer {layer.name!r} (type "
            f"{type(layer).__name__}): Cannot convert a symbolic tf.Tensor to a numpy array: "
            "on a tf.keras.Input the layer's code runs before there is any data, so it must "
            "use tf.* ops, not NumPy (.numpy(), np.asarray). Fix: compute with tf functions, "
            "e.g. tf.reduce_sum(t) rather than np.sum(t.numpy())")
    if isinstance(value, (bool, int, float, str, bytes)):
        return convert_to_tensor(value)
    raise TypeError(f"Could not build a TypeSpec for {value!r} of unsupported type "
                    f"{type(value)} (the output of layer {layer.name!r}, "
                    f"{type(layer).__name__}). Fix: a layer must return tensors (or nested "
                    "lists, tuples or dicts of them)")


# --- the graph of a functional model ----------------------------------------------------------
class Graph:
    """The layer calls between a functional model's inputs and outputs, in running order."""

    def __init__(self, model, inputs, outputs):
        self.model = model
        self.inputs, self.outputs = inputs, outputs
        self.flat_inputs = nest.flatten(inputs)
        self.flat_outputs = nest.flatten(outputs)
        for t in self.flat_inputs:
            if not isinstance(t, KerasTensor) or not isinstance(t.node.layer, InputLayer):
                raise ValueError(f"Input tensors to a Functional must come from "
                                 f"`tf.keras.Input`. Received: {t!r} (missing previous layer "
                                 f"metadata). Fix: model inputs are tf.keras.Input(...) results")
        for t in self.flat_outputs:
            if not isinstance(t, KerasTensor):
                raise ValueError(f"Output tensors of a Functional model must be the output of "
                                 f"a TensorFlow `Layer` (thus holding past layer metadata). "
                                 f"Found: {t!r}. Fix: outputs are what layers called on "
                                 "tf.keras.Input(...) return")
        self.loss_outputs: list = []    # KerasTensors given to model.add_loss
        self._order()

    def _order(self):
        """Nodes in post-order from the outputs (each after its inputs); layers by depth from
        the outputs, deepest first, as Keras lists `model.layers`."""
        known = {id(t) for t in self.flat_inputs}
        nodes, seen, depth = [], set(), {}

        def visit(node, path):
            if id(node) in path:
                raise ValueError("The layer graph has a cycle. Fix: call each layer on tensors "
                                 "made before it")
            if id(node) in seen:
                return
            for parent in node.parents():
                if isinstance(parent.node.layer, InputLayer) and id(parent) not in known:
                    raise ValueError(
                        f"Graph disconnected: cannot obtain value for tensor {parent!r} at "
                        f"layer {parent.node.layer.name!r}. Fix: list every tf.keras.Input the "
                        f"outputs depend on in Model(inputs=...)")
                visit(parent.node, path | {id(node)})
            seen.add(id(node))
            nodes.append(node)

        ends = self.flat_outputs + self.loss_outputs
        for t in ends:
            visit(t.node, frozenset())
        for t in self.flat_inputs:
            if id(t.node) not in seen:
                seen.add(id(t.node))
                nodes.insert(0, t.node)
        for node in reversed(nodes):          # depth: longest path to an output
            d = depth.get(id(node), 0)
            for parent in node.parents():
                depth[id(parent.node)] = max(depth.get(id(parent.node), 0), d + 1)
            depth.setdefault(id(node), d)
        self.nodes = nodes
        index = {id(n): i for i, n in enumerate(nodes)}
        layers, placed = [], set()
        for node in sorted(nodes, key=lambda n: (-depth[id(n)], index[id(n)])):
            if id(node.layer) not in placed:
                placed.add(id(node.layer))
                layers.append(node.layer)
        self.layers = layers

    def add_loss_output(self, tensor):
        self.loss_outputs.append(tensor)
        self._order()

    def run(self, inputs, training=None):
        """The outputs for real input tensors (and the values of add_loss tensors)."""
        values = {id(t): v for t, v in zip(self.flat_inputs, inputs)}

        def value_of(x):
            return values[id(x)] if isinstance(x, KerasTensor) else x

        for node in self.nodes:
            if isinstance(node.layer, InputLayer):
                continue
            args = nest.pack_sequence_as(node.args, [value_of(x) for x in nest.flatten(
                list(node.args))])
            kwargs = {k: nest.pack_sequence_as(v, [value_of(x) for x in nest.flatten(v)])
                      if nest.is_nested(v) else value_of(v) for k, v in node.kwargs.items()}
            if training is not None and "training" not in kwargs and node.takes_training():
                kwargs["training"] = training
            out = node.layer(*args, **kwargs)
            for t, v in zip(nest.flatten(node.outputs), nest.flatten(out)):
                if t is not None:
                    values[id(t)] = v
        outputs = nest.pack_sequence_as(self.outputs,
                                        [values[id(t)] for t in self.flat_outputs])
        return outputs, [values[id(t)] for t in self.loss_outputs]

    def conform(self, inputs) -> list:
        """The call's inputs as a flat list of tensors in the model's input order, cast to
        the inputs' dtypes; a wrong count or shape is refused as Keras refuses it."""
        name = self.model.name
        if isinstance(inputs, dict) and not isinstance(self.inputs, dict):
            by_name = {t.name: t for t in self.flat_inputs}
            if set(inputs) >= set(by_name):
                inputs = [inputs[t.name] for t in self.flat_inputs]
        flat = nest.flatten(inputs) if nest.is_nested(inputs) and not (
            isinstance(inputs, (list, tuple)) and len(self.flat_inputs) == 1 and
            not any(isinstance(v, (_Operand, np.ndarray, list, tuple)) for v in inputs)) \
            else [inputs]
        if len(flat) != len(self.flat_inputs):
            raise ValueError(f'Layer "{name}" expects {len(self.flat_inputs)} input(s), but it '
                             f"received {len(flat)} input tensors. Inputs received: "
                             f"{[_describe(v) for v in flat]}. Fix: pass one tensor per "
                             f"tf.keras.Input, in order: {[t.name for t in self.flat_inputs]}")
        out = []
        for i, (value, spec) in enumerate(zip(flat, self.flat_inputs)):
            t = value if isinstance(value, Tensor) else convert_to_tensor(value)
            if t.dtype != spec.dtype and not spec.dtype.is_string:
                from ..engine.ops import cast
                t = cast(t, spec.dtype)
            t = conform_to_input_rank(t, spec._shape)
            shape = tuple(t.shape)
            if len(shape) != len(spec._shape) or any(
                    d is not None and d != s for d, s in zip(spec._shape, shape)):
                raise ValueError(f'Input {i} of layer "{name}" is incompatible with the layer: '
                                 f"expected shape={_shape_text(spec._shape)}, found shape="
                                 f"{_shape_text(shape)}. Fix: give input {i} "
                                 f"({spec.name!r}) the shape {_shape_text(spec._shape)}, the "
                                 "first axis being the batch")
            out.append(t)
        return out


def conform_to_input_rank(t, input_shape):
    """``t`` with the rank of the Input it feeds, as Keras conforms a model's inputs: a last
    axis of 1 the Input lacks is squeezed, and one it has is added (a 1-D column fed to
    ``Input(shape=(1,))``)."""
    rank = len(t.shape)
    if rank == len(input_shape) + 1 and t.shape[-1] == 1:
        from ..engine.ops import squeeze
        return squeeze(t, -1)
    if rank == len(input_shape) - 1 and input_shape[-1] == 1:
        from ..engine.ops import expand_dims
        return expand_dims(t, -1)
    return t


def _describe(value) -> str:
    if isinstance(value, _Operand):
        return f"<tensor shape={tuple(value.shape)} dtype={value.dtype.name}>"
    return repr(value) if len(repr(value)) < 80 else f"<{type(value).__name__}>"


# --- add_loss / losses ------------------------------------------------------------------------
_LOSSES_ADDED = [False]   # whether any layer ever added a loss (else there is nothing to do)


def add_loss(layer, loss):
    """`layer.add_loss(loss)`: see `Layer.add_loss`."""
    if probing():
        return                  # a stand-in run adds nothing: the real calls will
    if isinstance(loss, (list, tuple)):
        for item in loss:
            add_loss(layer, item)
        return
    if isinstance(loss, KerasTensor):
        graph = getattr(layer, "_graph", None)
        if graph is None:
            raise ValueError(f"{layer.name}.add_loss: a symbolic loss (a KerasTensor) can only "
                             "be added to the functional model built from its inputs. Fix: "
                             "model = tf.keras.Model(inputs, outputs); model.add_loss(...)")
        _LOSSES_ADDED[0] = True
        graph.add_loss_output(loss)
        return
    if callable(loss) and not isinstance(loss, _Operand):
        _LOSSES_ADDED[0] = True
        layer.__dict__.setdefault("_loss_fns", []).append(loss)
        return
    if loss is None:
        return
    _LOSSES_ADDED[0] = True
    layer.__dict__.setdefault("_call_losses", []).append(
        loss if isinstance(loss, Tensor) else convert_to_tensor(loss))


def _layers_within(layer) -> list:
    """The layer, then every layer inside it, each once, depth first."""
    out, seen = [], set()

    def visit(item):
        if id(item) in seen:
            return
        seen.add(id(item))
        out.append(item)
        for sub in item.layers if isinstance(getattr(item, "_graph", None), Graph) else \
                item._sublayers():
            visit(sub)

    visit(layer)
    return out


def collect_losses(layer) -> list:
    if not _LOSSES_ADDED[0]:
        return []
    out = []
    items = _layers_within(layer)
    for item in items:
        out += item.__dict__.get("_call_losses", [])
        for fn in item.__dict__.get("_loss_fns", []):
            value = fn()
            if value is not None:
                out.append(value if isinstance(value, Tensor) else convert_to_tensor(value))
    # a model's symbolic losses come last: Keras computes them in a layer of its own that it
    # adds after the model's other layers
    for item in items:
        out += item.__dict__.get("_graph_losses", [])
    return out


def forget_call_losses(layer):
    """At the start of an outermost layer call: the losses added by the last call go."""
    if _LOSSES_ADDED[0]:
        for item in _layers_within(layer):
            if item.__dict__.get("_call_losses"):
                item._call_losses = []
            if item.__dict__.get("_graph_losses"):
                item._graph_losses = []
