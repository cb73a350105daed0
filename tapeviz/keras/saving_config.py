"""Layer configs as tf-keras 2.21 writes them (`{"module", "class_name", "config",
"registered_name", "build_config"}`), and layers made again from them.

A layer's config is what it was made with: the arguments given to its constructor (captured
when it is made, defaults filled in from the signature), as tf-keras's automatic config;
initializers, regularizers and constraints as Keras's `{"class_name", "config"}`, activations
by name. A layer class that defines `get_config` gives its own.

Reading a config is data only: a class name is looked up in `custom_objects`, then among
classes registered with `tf.keras.utils.register_keras_serializable`, then among tapeviz's
own Keras classes. No module named in a file is ever imported, and an unknown name is an
error, as Keras's safe mode.
"""
from __future__ import annotations

import inspect
import threading

import numpy as np

from ..engine import dtypes as _dt

#: registered custom classes: "Package>Name" and "Name" -> class
_REGISTERED: dict = {}

#: constructor arguments every layer's base config already holds
_BASE_KEYS = ("self", "name", "trainable", "dtype", "input_shape", "batch_input_shape",
              "input_dim", "activity_regularizer")


def register_keras_serializable(package="Custom", name=None):
    """`tf.keras.utils.register_keras_serializable`: make a custom class loadable by name."""
    def decorate(cls):
        key = name or cls.__name__
        _REGISTERED[f"{package}>{key}"] = _REGISTERED[key] = cls
        cls._registered_name = f"{package}>{key}"
        return cls
    return decorate


def get_custom_objects() -> dict:
    """`tf.keras.utils.get_custom_objects`: the live table of custom classes and functions
    found by name (`get_custom_objects()["mish"] = mish` makes `activation="mish"` work)."""
    return _REGISTERED


#: the tables of the `custom_object_scope`s open in this thread, innermost last
_SCOPES = threading.local()


class CustomObjectScope:
    """`with tf.keras.utils.custom_object_scope({"Name": obj}):` names found inside it only."""

    def __init__(self, *args):
        self.custom_objects = {}
        for table in args:
            self.custom_objects.update(table or {})

    def __enter__(self):
        _SCOPES.__dict__.setdefault("tables", []).append(self.custom_objects)
        return self

    def __exit__(self, *exc):
        _SCOPES.tables.pop()


custom_object_scope = CustomObjectScope


def custom_object(name):
    """The object `name` names in an open scope or the global table, or None."""
    for table in reversed(_SCOPES.__dict__.get("tables", [])):
        if name in table:
            return table[name]
    return _REGISTERED.get(name)


def named_custom_object(name):
    """What a bare name found by :func:`custom_object` gives an initializer's, regularizer's
    or constraint's ``get``: a class made with no arguments, as Keras deserializes
    ``{"class_name": name, "config": {}}``; a function as it is; None if nothing has the name."""
    found = custom_object(name)
    return found() if isinstance(found, type) else found


# --- writing ----------------------------------------------------------------------------------
class _Arguments:
    """A layer's constructor arguments, kept in one object that walks over a layer's
    attributes (its sublayers, its checkpointed values) do not enter."""

    __slots__ = ("args", "kwargs")

    def __init__(self, args, kwargs):
        self.args, self.kwargs = args, kwargs


def capture_arguments(layer, args, kwargs):
    """Keep what a layer is made with (called when it is made, before its __init__)."""
    layer.__dict__["_init_arguments"] = _Arguments(args, dict(kwargs))


def auto_config(layer, config: dict) -> dict:
    """`config` (the base one: name, trainable, dtype) plus the layer's constructor arguments."""
    captured = layer.__dict__.get("_init_arguments")
    args, kwargs = (captured.args, captured.kwargs) if captured is not None else ((), {})
    signature = inspect.signature(type(layer).__init__)
    try:
        bound = signature.bind(layer, *args, **kwargs)
    except TypeError:
        return config
    bound.apply_defaults()
    out = dict(config)
    for key, value in bound.arguments.items():
        kind = signature.parameters[key].kind
        if kind == inspect.Parameter.VAR_POSITIONAL:
            continue
        if kind == inspect.Parameter.VAR_KEYWORD:     # (passed on to the base Layer)
            items = [(k, v) for k, v in value.items() if k not in _BASE_KEYS]
        else:
            base = _BASE_KEYS if type(layer).__init__ is _base_init() else \
                ("self", "name", "trainable", "dtype")
            items = [] if key in base else [(key, value)]
        for name, item in items:
            kept = layer.__dict__.get(name)
            if isinstance(item, int) and isinstance(kept, tuple) and kept and all(
                    isinstance(k, int) for k in kept):
                item = kept             # Keras's sizes and strides: `3` kept as (3, 3)
            out[name] = serialize_value(name, item, layer)
    return out


def _base_init():
    from .layers import Layer
    return Layer.__init__


def serialize_value(key, value, layer=None):
    """One config entry as JSON data, as Keras writes it."""
    from . import activations, initializers
    from .layers import Layer
    if value is None or isinstance(value, (bool, str, int, float)) and not (
            key.endswith("_initializer") and isinstance(value, str)):
        return value
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    if isinstance(value, (list, tuple)):
        return [serialize_value(key, v, layer) for v in value]
    if isinstance(value, dict):
        return {k: serialize_value(k, v, layer) for k, v in value.items()}
    if isinstance(value, _dt.DType):
        return value.name
    if key.endswith("_initializer"):
        return initializers.serialize(initializers.get(value))
    if isinstance(value, Layer):
        return serialize_layer(value)
    if key.endswith("activation") or getattr(value, "__module__", "").endswith("activations"):
        return activations.serialize(value)
    if hasattr(value, "get_config"):
        module = "keras.optimizers.schedules" if key == "learning_rate" else \
            "keras." + key.rsplit("_", 1)[-1] + "s"
        return {"module": module,
                "class_name": type(value).__name__, "config": value.get_config(),
                "registered_name": None}
    name = layer.name if layer is not None else "?"
    raise NotImplementedError(
        f"Layer {type(layer).__name__} ({name!r}) has argument {key}={value!r} in `__init__`, "
        "which is not JSON data, and therefore must override `get_config()`. Fix: define "
        "get_config (and from_config) on the layer, or save only its weights "
        "(model.save_weights)")


def json_default(value):
    """NumPy values left in a layer's config (ReLU's floatx scalars) as JSON data, as
    tf-keras's JSON encoder writes them."""
    if isinstance(value, (np.ndarray, np.generic)):
        return value.tolist()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def serialize_layer(layer) -> dict:
    from .functional import InputLayer
    from .layers import Layer
    if isinstance(layer, InputLayer):
        return {"module": "keras.layers", "class_name": "InputLayer",
                "config": {"batch_input_shape": list(layer._batch_input_shape),
                           "dtype": layer.dtype, "sparse": False, "ragged": False,
                           "name": layer.name}, "registered_name": None}
    from .models import Model, Sequential
    if isinstance(layer, Sequential) or isinstance(layer, Model) and getattr(
            layer, "_graph", None) is not None:
        from .saving_models import model_config       # (a model inside a model)
        return model_config(layer)
    cls = type(layer)
    builtin = cls.__module__.startswith("tapeviz.")
    out = {"module": "keras.layers" if builtin else cls.__module__,
           "class_name": cls.__name__, "config": layer.get_config(),
           "registered_name": None if builtin else getattr(cls, "_registered_name",
                                                           cls.__name__)}
    shape = layer.__dict__.get("_seen_input_shape")
    if shape is not None and isinstance(layer, Layer):
        out["build_config"] = {"input_shape": list(shape)}
    return out


# --- reading ----------------------------------------------------------------------------------
def _modules_of(kind) -> tuple:
    """The tapeviz modules whose classes a config may name for an object of this kind."""
    from . import constraints, initializers, layers, losses, metrics, optimizers, regularizers
    from . import functional, lambda_layer, merging, models, schedules
    return {"layer": (layers, functional, merging, lambda_layer, models),
            "initializer": (initializers,), "regularizer": (regularizers,),
            "constraint": (constraints,), "loss": (losses,), "metric": (metrics,),
            "optimizer": (optimizers,), "schedule": (schedules,)}[kind]


class Lookup(dict):
    """`custom_objects` for one file, with the error an unknown class name raises there
    (tf-keras's: TypeError in a `.keras` zip, ValueError in an `.h5` file)."""

    def __init__(self, custom_objects, unknown_error):
        super().__init__(custom_objects or {})
        self.unknown_error = unknown_error


def find_class(class_name, kind, custom_objects=None):
    """The class a config names: from `custom_objects`, registered classes, or tapeviz."""
    error = getattr(custom_objects, "unknown_error", ValueError)
    if class_name in (custom_objects or {}):
        return custom_objects[class_name]
    if custom_object(class_name) is not None:
        return custom_object(class_name)
    short = class_name.split(">")[-1]
    for module in _modules_of(kind):
        found = getattr(module, short, None)
        # (only tapeviz's own Keras classes: a name never reaches other code a module imports)
        if isinstance(found, type) and not short.startswith("_") and \
                found.__module__.startswith("tapeviz.keras"):
            return found
    raise error(f"Unknown {kind}: '{class_name}'. Please ensure you are using a "
                "`keras.utils.custom_object_scope` and that this object is included in the "
                f"scope. Fix: pass custom_objects={{'{short}': {short}}} to load_model, or "
                "decorate the class with tf.keras.utils.register_keras_serializable()")


def deserialize_value(key, value, custom_objects=None):
    """A config entry back to what a constructor takes."""
    if key == "dtype":        # a name, or a mixed-precision Policy's dict: the layer reads it
        return value
    if isinstance(value, dict) and "class_name" in value:
        kind = next((k for k in ("initializer", "regularizer", "constraint")
                     if key.endswith("_" + k) or key == k), "layer")
        if kind == "layer":
            return deserialize_layer(value, custom_objects)
        cls = find_class(value["class_name"], kind, custom_objects)
        return cls(**(value.get("config") or {}))
    if isinstance(value, list) and key.endswith(("shape", "size", "strides", "rate")):
        return tuple(value)
    if isinstance(value, list) and key in ("kernel_size", "pool_size", "padding", "cropping",
                                           "dilation_rate", "target_shape", "axis"):
        return tuple(value) if key != "axis" else list(value)
    return value


def deserialize_layer(spec: dict, custom_objects=None):
    """A layer made from its `{"class_name", "config"}`."""
    if not isinstance(spec, dict) or "class_name" not in spec:
        raise ValueError(f"Improper config format for a layer: {spec!r}. Expected a dict "
                         "with 'class_name' and 'config'")
    class_name, config = spec["class_name"], dict(spec.get("config") or {})
    if class_name == "InputLayer":
        return _input_layer(config)
    if class_name in ("Sequential", "Functional", "Model") and "layers" in config:
        from .saving_models import model_from_config      # (a model inside a model)
        return model_from_config(spec, custom_objects)
    cls = find_class(class_name, "layer", custom_objects)
    if "from_config" in vars(cls):                          # the class's own
        return cls.from_config(config)
    config = {k: deserialize_value(k, v, custom_objects) for k, v in _known(cls, config).items()}
    if "batch_input_shape" in config:
        config["batch_input_shape"] = tuple(config["batch_input_shape"])
    return cls(**config)


#: entries of tf-keras's layer configs that some tapeviz layers do not take, at the values
#: where they change nothing (any other value is left for the layer to refuse)
_NEUTRAL = {"data_format": ("channels_last",), "max_value": (None,), "negative_slope": (0.0,),
            "threshold": (0.0,), "groups": (1,)}

#: entries tf-keras writes for a layer that its own layer ignores (a separable convolution's
#: config inherits the kernel's from Conv, but its kernels are depthwise and pointwise)
_UNUSED_BY_KERAS = {"SeparableConv2D": ("kernel_initializer", "kernel_regularizer",
                                        "kernel_constraint")}


def _known(cls, config) -> dict:
    named = inspect.signature(cls.__init__).parameters
    unused = _UNUSED_BY_KERAS.get(cls.__name__, ())
    return {k: v for k, v in config.items() if k in named or not (
        k in unused or k in _NEUTRAL and v in _NEUTRAL[k])}


def _input_layer(config):
    from .functional import InputLayer
    shape = config.get("batch_input_shape") or config.get("batch_shape")
    if config.get("sparse") or config.get("ragged"):
        raise NotImplementedError(f"InputLayer {config.get('name')!r}: sparse and ragged "
                                  "inputs are not supported by tapeviz")
    return InputLayer(shape=tuple(shape[1:]), batch_size=shape[0], dtype=config.get("dtype"),
                      name=config.get("name"))
