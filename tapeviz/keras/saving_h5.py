"""Keras's legacy HDF5 layout (`model.save("m.h5")`, `model.save_weights("w.h5")`), as
tf-keras 2.21 writes and reads it, so that files move between TensorFlow and tapeviz.

A weights group holds the attributes `layer_names`, `backend`, `keras_version` and one group
per layer (in `model.layers` order) whose attribute `weight_names` lists its variables'
names (`dense/kernel:0`) and whose datasets sit at those names. Loading is by topology, as
Keras's default: the layers that have weights, in order, each given the saved values of the
saved layer at the same position. A whole-model file adds the attributes `model_config` and
`training_config` (JSON) and puts the weights under `model_weights` and the optimizer's
variables under `optimizer_weights`.
"""
from __future__ import annotations

import json

import numpy as np

#: the format version written into `keras_version` (the tf-keras layout imitated)
KERAS_VERSION = "2.21.0"


def h5py():
    """h5py, imported when a file is read or written."""
    import h5py as module
    return module


def _text(value) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _layer_weights(layer) -> list:
    """A layer's weights in Keras's saving order: the trainable ones, then the others."""
    return layer.trainable_weights + layer.non_trainable_weights


def _weight_name(variable) -> str:
    name = variable.name
    return name if ":" in name else name + ":0"


def write_weights_group(group, model):
    layers = model.layers
    group.attrs["layer_names"] = [layer.name.encode("utf-8") for layer in layers]
    group.attrs["backend"] = b"tensorflow"
    group.attrs["keras_version"] = KERAS_VERSION.encode("utf-8")
    for layer in layers:
        _write_variables(group.create_group(layer.name), _layer_weights(layer))
    # Keras writes the model's own variables (none for Sequential and functional models)
    _write_variables(group.create_group("top_level_model_weights"),
                     [w for w in model._own_weights])


def _write_variables(group, variables):
    names = []
    for variable in variables:
        name = _weight_name(variable)
        while name in names:                # two variables of one name: keep both
            name = "_" + name
        names.append(name)
        group.create_dataset(name, data=np.asarray(variable._value))
    group.attrs["weight_names"] = [n.encode("utf-8") for n in names]


def _saved_layers(group) -> list:
    """(layer name, [arrays]) of the saved layers that have weights, in order."""
    if "layer_names" not in group.attrs:
        raise ValueError(f"{group.file.filename}: not Keras's HDF5 weights layout (no "
                         "'layer_names'). Fix: a file written by save_weights to a .h5 path, "
                         "or a .weights.h5 path for the layout of a .keras zip")
    out = []
    for name in (_text(n) for n in group.attrs["layer_names"]):
        layer_group = group[name]
        names = [_text(n) for n in layer_group.attrs["weight_names"]]
        if names:
            out.append((name, [np.asarray(layer_group[n]) for n in names]))
    return out


def read_weights_group(group, model, what="load_weights"):
    """Assign the saved values to `model`'s layers by topology, as Keras: the same number of
    layers with weights, the same number and shapes of weights in each."""
    layers = [layer for layer in model.layers if _layer_weights(layer)]
    saved = _saved_layers(group)
    if not layers and saved and not model.built:
        raise ValueError("Unable to load weights saved in HDF5 format into a subclassed Model "
                         "which has not created its variables yet. Call the Model first, then "
                         "load the weights.")
    if len(layers) != len(saved):
        raise ValueError(f"Layer count mismatch when loading weights from file. Model expected "
                         f"{len(layers)} layers, found {len(saved)} saved layers. ({what}: the "
                         "file was saved from a model of other layers. Fix: build the same "
                         "model as the one saved)")
    pairs = []
    for k, (layer, (name, values)) in enumerate(zip(layers, saved)):
        variables = _layer_weights(layer)
        if len(variables) != len(values):
            raise ValueError(f"Weight count mismatch for layer #{k} (named {layer.name} in the "
                             f"current model, {name} in the save file). Layer expects "
                             f"{len(variables)} weight(s). Received {len(values)} saved "
                             "weight(s)")
        pairs += zip(variables, values)
    assign_all(pairs)


def assign_all(pairs):
    """Check every shape first, then assign: a failed load changes nothing."""
    for variable, value in pairs:
        if tuple(variable.shape) != tuple(value.shape):
            raise ValueError(f"Cannot assign value to variable '{variable.name}': Shape "
                             f"mismatch. The variable shape {tuple(variable.shape)}, and the "
                             f"assigned value shape {tuple(value.shape)} are incompatible. "
                             "Fix: build the model with the shapes it was saved with")
    for variable, value in pairs:
        variable.assign(np.asarray(value, dtype=variable._value.dtype))


def open_file(path, mode):
    """An h5py File; a file that is not HDF5 (or is damaged) gives OSError, as h5py's."""
    return h5py().File(path, mode)


def save_weights(model, path):
    with open_file(path, "w") as f:
        write_weights_group(f, model)


def load_weights(model, path):
    with open_file(path, "r") as f:
        group = f["model_weights"] if "layer_names" not in f.attrs and "model_weights" in f \
            else f
        read_weights_group(group, model)


# --- whole model ------------------------------------------------------------------------------
def save_model(model, path, model_config: dict, training_config):
    with open_file(path, "w") as f:
        f.attrs["backend"] = "tensorflow"
        f.attrs["keras_version"] = KERAS_VERSION
        from .saving_config import json_default
        f.attrs["model_config"] = json.dumps(model_config, default=json_default)
        if training_config is not None:
            f.attrs["training_config"] = json.dumps(training_config, default=json_default)
        write_weights_group(f.create_group("model_weights"), model)
        optimizer = getattr(model, "optimizer", None)
        if optimizer is not None and getattr(model, "_is_compiled", False):
            from .saving_weights import optimizer_variables
            variables = optimizer_variables(optimizer, model.trainable_variables)
            group = f.create_group("optimizer_weights")
            _write_variables(group, variables)


def read_model(path) -> tuple:
    """(model config, training config or None, the open file): the caller builds the model,
    then `load_model_weights`, then closes the file."""
    f = open_file(path, "r")
    if "model_config" not in f.attrs:
        f.close()
        raise ValueError(f"No model config found in the file at {path}. (It holds weights "
                         "only. Fix: build the model in code, then model.load_weights(path))")
    training = f.attrs.get("training_config")
    return (json.loads(_text(f.attrs["model_config"])),
            json.loads(_text(training)) if training is not None else None, f)


def load_model_weights(f, model):
    read_weights_group(f["model_weights"], model, "load_model")


def optimizer_values(f) -> list:
    if "optimizer_weights" not in f:
        return []
    group = f["optimizer_weights"]
    return [np.asarray(group[_text(n)]) for n in group.attrs["weight_names"]]
