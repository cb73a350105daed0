"""A Sequential or functional model's config as tf-keras 2.21 writes it, the model made again
from it, and the compile config (optimizer, loss, metrics) that `load_model` compiles with.

A functional model's config lists its layers, each with the calls that feed it
(`inbound_nodes`: `[[layer name, node index, tensor index, kwargs], ...]`), and its
`input_layers` and `output_layers`; made again, the layers are called in that order on the
model's new `Input`s. An RNN's `initial_state` is folded into its inputs, as Keras does.
"""
from __future__ import annotations

import inspect

from ..engine import nest
from .saving_config import deserialize_layer, find_class, serialize_layer, serialize_value


def _is_rnn(layer) -> bool:
    from .layers_recurrent import RNN
    return isinstance(layer, RNN)


# --- model configs ------------------------------------------------------------------------------
def model_config(model) -> dict:
    """`{"module", "class_name", "config", ...}` of a Sequential or functional model."""
    from .models import Sequential
    if isinstance(model, Sequential):
        return _sequential_config(model)
    if getattr(model, "_graph", None) is not None:
        return _functional_config(model)
    # a subclassed model: its own get_config, or the arguments it was made with (an argument
    # that is not JSON data raises NotImplementedError naming the fix)
    return serialize_layer(model)


def _sequential_config(model) -> dict:
    layers = []
    shape = model._batch_input_shape or getattr(model._layers[0], "_batch_input_shape", None) \
        if model._layers else model._batch_input_shape
    if shape is not None:
        first = model._layers[0].name if model._layers else "input"
        layers.append({"module": "keras.layers", "class_name": "InputLayer",
                       "config": {"batch_input_shape": list(shape), "dtype": model.dtype,
                                  "sparse": False, "ragged": False,
                                  "name": f"{first}_input"},
                       "registered_name": None})
    layers += [serialize_layer(layer) for layer in model._layers]
    out = {"module": "keras", "class_name": "Sequential",
           "config": {"name": model.name, "layers": layers}, "registered_name": None}
    if shape is not None:
        out["build_config"] = {"input_shape": list(shape)}
    return out


def _nodes_in(layer, in_graph) -> list:
    """The layer's calls that belong to the model (a shared layer has others), in order."""
    return [n for n in layer.__dict__.get("_inbound_nodes", []) if id(n) in in_graph]


def _reference(tensor, kwargs, in_graph) -> list:
    """Keras's `[layer name, node index, tensor index, kwargs]`, its node index counting
    only the model's own calls of that layer."""
    layer = tensor.node.layer
    if layer.__class__.__name__ == "InputLayer":
        return [layer.name, 0, 0, kwargs]
    index = next(i for i, n in enumerate(_nodes_in(layer, in_graph)) if n is tensor.node)
    return [layer.name, index, tensor._index, kwargs]


def _node_data(node, in_graph) -> list:
    from .keras_tensor import KerasTensor
    inputs, extra = node.args[0], node.args[1:]
    names = list(inspect.signature(node.layer.call).parameters)[1:]
    kwargs = dict(zip(names, extra))
    kwargs.update(node.kwargs)
    flat = nest.flatten(inputs)
    if _is_rnn(node.layer) and kwargs.get("initial_state") is not None:
        flat += nest.flatten(kwargs.pop("initial_state"))
    if any(isinstance(t, KerasTensor) for t in nest.flatten(list(kwargs.values()))):
        raise NotImplementedError(f"Saving the model: layer {node.layer.name!r} is called with "
                                  f"symbolic tensors among its keyword arguments "
                                  f"{sorted(kwargs)}, which tapeviz does not serialize. Fix: "
                                  "save the weights (model.save_weights)")
    kwargs = {k: serialize_value(k, v) for k, v in kwargs.items()}
    return [_reference(t, kwargs, in_graph) for t in flat]


def _functional_config(model) -> dict:
    graph = model._graph
    in_graph = {id(n) for n in graph.nodes}
    layers = []
    for layer in model.layers:
        spec = serialize_layer(layer)
        spec["name"] = layer.name
        spec["inbound_nodes"] = [_node_data(n, in_graph) for n in _nodes_in(layer, in_graph)
                                 if layer.__class__.__name__ != "InputLayer"]
        layers.append(spec)
    config = {"name": model.name, "trainable": model.trainable, "layers": layers,
              "input_layers": [_reference(t, None, in_graph)[:3] for t in graph.flat_inputs],
              "output_layers": [_reference(t, None, in_graph)[:3]
                                for t in graph.flat_outputs]}
    return {"module": "keras.src.engine.functional", "class_name": "Functional",
            "config": config, "registered_name": "Functional",
            "build_config": {"input_shape": [list(t._shape) for t in graph.flat_inputs]
                             if len(graph.flat_inputs) > 1
                             else list(graph.flat_inputs[0]._shape)}}


def model_from_config(spec: dict, custom_objects=None):
    """The model a `model_config` describes, built (its weights made, not yet loaded)."""
    class_name = spec.get("class_name")
    config = spec.get("config") or {}
    if class_name == "Sequential":
        return _sequential_from_config(config, spec.get("build_config"), custom_objects)
    if class_name in ("Functional", "Model") and "layers" in config:
        return functional_from_config(config, custom_objects)
    model = deserialize_layer(spec, custom_objects)
    _build(model, spec.get("build_config"))
    return model


def _sequential_from_config(config, build_config, custom_objects):
    from .models import Sequential
    model = Sequential(name=config.get("name"))
    for layer_spec in config.get("layers", []):
        model.add(deserialize_layer(layer_spec, custom_objects))
    _build(model, build_config)
    return model


def _build(model, build_config):
    """Make the variables of a model made from its config: Keras's `build_config`. A
    subclassed model, or a model nested inside, builds its layers only when data reaches
    them: it is called once on zeros of that shape."""
    shape = (build_config or {}).get("input_shape")
    if shape is None:
        return
    model.build(tuple(shape))
    if any(not layer.built for _, layer in _walk(model)):
        from ..engine.ops.makers import zeros
        from .functional import unrecorded
        with unrecorded():        # a build, not work to show
            model(zeros(tuple(1 if d is None else d for d in shape), model._dtype))



def _walk(model):
    from .saving_weights import layer_paths
    return layer_paths(model)


def functional_from_config(config, custom_objects=None):
    """Keras's reconstruction: make every layer, then run each inbound node once the
    tensors it reads exist (a layer's nodes in order)."""
    from .models import Model
    layers, outputs, pending = {}, {}, []
    for layer_spec in config["layers"]:
        layer = deserialize_layer(layer_spec, custom_objects)
        name = layer_spec.get("name", layer.name)
        layers[name] = layer
        if layer.__class__.__name__ == "InputLayer":
            outputs[(name, 0)] = layer.output
        pending.append([name, list(layer_spec.get("inbound_nodes") or []), 0])
    while any(nodes for _, nodes, _ in pending):
        progressed = False
        for entry in pending:
            name, nodes, done = entry
            while nodes and all((ref[0], ref[1]) in outputs for ref in nodes[0]):
                outputs[(name, done)] = _run_node(layers[name], nodes.pop(0), outputs)
                entry[2] = done = done + 1
                progressed = True
        if not progressed:
            raise ValueError("The model config's layer calls cannot be ordered: a call reads "
                             "a tensor no other call makes. (A damaged or hand-edited config)")

    def tensor(ref):
        return nest.flatten(outputs[(ref[0], ref[1])])[ref[2]]

    inputs = [tensor(ref) for ref in config["input_layers"]]
    results = [tensor(ref) for ref in config["output_layers"]]
    return Model(inputs=inputs if len(inputs) > 1 else inputs[0],
                 outputs=results if len(results) > 1 else results[0], name=config.get("name"))


def _run_node(layer, node_data, outputs):
    flat = [nest.flatten(outputs[(ref[0], ref[1])])[ref[2]] for ref in node_data]
    kwargs = dict(node_data[0][3]) if node_data and len(node_data[0]) > 3 and \
        node_data[0][3] else {}
    if _is_rnn(layer) and len(flat) > 1:
        return layer(flat[0], initial_state=flat[1:], **kwargs)
    return layer(flat if len(flat) > 1 else flat[0], **kwargs)


# --- compile config -----------------------------------------------------------------------------
def _object_config(obj, kind) -> dict:
    """An optimizer's, loss's or metric's `{"class_name", "config"}`: its constructor's
    arguments read back from its attributes."""
    config = dict(obj.get_config()) if hasattr(obj, "get_config") else {}
    for name in inspect.signature(type(obj).__init__).parameters:
        value = getattr(obj, "_learning_rate", None) if name == "learning_rate" else \
            getattr(obj, name, None)
        if name in ("self", "args", "kwargs") or name in config or value is None:
            continue
        if hasattr(value, "numpy"):
            value = value.numpy().item()
        config[name] = serialize_value(name, value)
    if kind == "metric" and "name" not in config:
        config["name"] = obj.name
    module = {"loss": "keras.losses", "metric": "keras.metrics",
              "optimizer": "keras.optimizers"}[kind]
    return {"module": module, "class_name": type(obj).__name__, "config": config,
            "registered_name": None}


def _plain(value, kind):
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v, kind) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v, kind) for k, v in value.items()}
    if callable(value) and not hasattr(value, "get_config") and hasattr(value, "__name__"):
        return value.__name__
    return _object_config(value, kind)


def compile_config(model):
    if not getattr(model, "_is_compiled", False):
        return None
    args = getattr(model, "_compile_arguments", {})
    # (a LossScaleOptimizer: its inner one; compiling under a mixed policy wraps it again)
    optimizer = getattr(model.optimizer, "inner_optimizer", model.optimizer)
    return {"optimizer": _object_config(optimizer, "optimizer"),
            "loss": _plain(args.get("loss", model.loss), "loss"),
            "metrics": _plain(args.get("metrics"), "metric"),
            "loss_weights": args.get("loss_weights"),
            "weighted_metrics": _plain(args.get("weighted_metrics"), "metric"),
            "run_eagerly": None, "steps_per_execution": None, "jit_compile": None}


#: tf-keras's optimizer config entries that change no numbers (the `ema_` ones without
#: `use_ema`), dropped; and those dropped at their neutral value, else left for the optimizer
#: to refuse (tapeviz imitates no moving average)
_OPTIMIZER_IGNORED = ("is_legacy_optimizer", "jit_compile", "ema_momentum",
                      "ema_overwrite_frequency")
_OPTIMIZER_NEUTRAL = ("use_ema", "weight_decay")


def _from_object_config(value, kind, custom_objects):
    if isinstance(value, str):            # a name: a custom function first, as Keras
        return (custom_objects or {}).get(value, value)
    if value is None:
        return value
    if isinstance(value, list):
        return [_from_object_config(v, kind, custom_objects) for v in value]
    if isinstance(value, dict) and "class_name" not in value:
        return {k: _from_object_config(v, kind, custom_objects) for k, v in value.items()}
    config = dict(value.get("config") or {})
    if value["class_name"] == "MeanMetricWrapper" and isinstance(config.get("fn"), str):
        return config["fn"]           # (Keras's wrapper of a metric named by a string)
    cls = find_class(value["class_name"], kind, custom_objects)
    named = inspect.signature(cls.__init__).parameters
    config = {k: v for k, v in config.items() if k in named or (k != "fn" and v is not None)}
    if kind == "optimizer" and isinstance(config.get("learning_rate"), dict):
        config["learning_rate"] = _from_object_config(config["learning_rate"], "schedule",
                                                      custom_objects)
    if kind == "optimizer":
        config = {k: v for k, v in config.items()
                  if k not in _OPTIMIZER_IGNORED and not (k in _OPTIMIZER_NEUTRAL and not v)}
    return cls(**config)


def _per_output(metrics):
    """Keras's legacy files nest metrics per output: one output's list stands alone."""
    if isinstance(metrics, list) and len(metrics) == 1 and isinstance(metrics[0], list):
        return metrics[0]
    return metrics


def compile_from_config(model, config, custom_objects=None):
    config = dict(config, metrics=_per_output(config.get("metrics")),
                  weighted_metrics=_per_output(config.get("weighted_metrics")))
    model.compile(
        optimizer=_from_object_config(config.get("optimizer"), "optimizer", custom_objects),
        loss=_from_object_config(config.get("loss"), "loss", custom_objects),
        metrics=_from_object_config(config.get("metrics"), "metric", custom_objects),
        loss_weights=config.get("loss_weights"),
        weighted_metrics=_from_object_config(config.get("weighted_metrics"), "metric",
                                             custom_objects))
