"""Whole models: `Model.save` and `tf.keras.models.load_model`.

- `.keras`: a zip of `metadata.json`, `config.json` (the model's config and compile config)
  and `model.weights.h5` (saving_weights.py), as tf-keras 2.21 writes it: TensorFlow loads
  tapeviz's files and tapeviz loads TensorFlow's.
- `.h5` / `.hdf5`: Keras's legacy HDF5 file (saving_h5.py).
- a path without those suffixes (tf-keras's SavedModel): a directory holding the same three
  files as the zip plus `tapeviz_saved_model.json`. Only tapeviz reads it; a SavedModel that
  TensorFlow wrote (`saved_model.pb`, a TensorFlow graph) is refused with the fix.

Loading makes the model from its config (saving_models.py), loads its weights, and, as Keras
with `compile=True`, compiles it as it was compiled and restores the optimizer's state (not
from the directory: tf-keras's SavedModel loading gives a fresh optimizer).
"""
from __future__ import annotations

import datetime
import io
import json
import os
import zipfile

from . import lambda_layer, saving_h5, saving_models, saving_weights
from .saving_config import Lookup, json_default

MARKER = "tapeviz_saved_model.json"
CONFIG, METADATA, WEIGHTS = "config.json", "metadata.json", "model.weights.h5"


def _config_json(model) -> str:
    config = saving_models.model_config(model)
    compiled = saving_models.compile_config(model)
    if compiled is not None:
        config["compile_config"] = compiled
    return json.dumps(config, default=json_default)


def _metadata_json() -> str:
    return json.dumps({"keras_version": saving_h5.KERAS_VERSION,
                       "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")})


def _weights_bytes(model) -> bytes:
    buffer = io.BytesIO()
    with saving_h5.h5py().File(buffer, "w") as f:
        saving_weights.write(f, model)
    return buffer.getvalue()


def save_model(model, filepath, overwrite=True, save_format=None):
    path = os.fspath(filepath)
    kind = _format(path, save_format)
    if not overwrite and os.path.exists(path):
        return
    config = _config_json(model)       # (first: a model that cannot be saved writes nothing)
    parent = os.path.dirname(path.rstrip("/\\"))
    if parent:
        os.makedirs(parent, exist_ok=True)
    if kind == "h5":
        spec = json.loads(config)
        saving_h5.save_model(model, path, {k: spec[k] for k in ("class_name", "config")},
                             _training_config(spec.get("compile_config")))
        return
    files = {METADATA: _metadata_json(), CONFIG: config, WEIGHTS: _weights_bytes(model)}
    if kind == "keras":
        with zipfile.ZipFile(path, "w") as archive:
            for name, data in files.items():
                archive.writestr(name, data)
        return
    os.makedirs(path, exist_ok=True)
    files[MARKER] = json.dumps({"format": "tapeviz SavedModel directory", "version": 1,
                                "files": sorted(files)})
    for name, data in files.items():
        with open(os.path.join(path, name), "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)


def _format(path, save_format) -> str:
    if save_format is not None:
        table = {"keras": "keras", "keras_v3": "keras", "h5": "h5", "hdf5": "h5", "tf": "tf",
                 "tensorflow": "tf"}
        if save_format not in table:
            raise ValueError("Unknown `save_format` argument. Expected one of 'keras', 'tf', "
                             f"or 'h5'. Received: save_format={save_format}")
        return table[save_format]
    if path.endswith(".keras"):
        return "keras"
    return "h5" if path.endswith((".h5", ".hdf5")) else "tf"


def _training_config(compiled):
    if compiled is None:
        return None
    optimizer = compiled["optimizer"]
    return {"loss": compiled["loss"], "metrics": compiled["metrics"],
            "weighted_metrics": compiled["weighted_metrics"],
            "loss_weights": compiled["loss_weights"],
            # (tf-keras's name for its current optimizers in these files; a plain name
            # would be read as a legacy optimizer, whose saved state it skips)
            "optimizer_config": {"class_name": "Custom>" + optimizer["class_name"],
                                 "config": dict(optimizer["config"],
                                                is_legacy_optimizer=False)}}


# --- loading ------------------------------------------------------------------------------------
def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    path = os.fspath(filepath)
    custom_objects = Lookup(custom_objects, TypeError if path.endswith(".keras") or
                            os.path.isdir(path) else ValueError)
    if not os.path.exists(path):
        raise OSError(f"No file or directory found at {path}")
    if os.path.isdir(path):
        return _load_directory(path, custom_objects, compile)
    if path.endswith(".keras") and zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            config = json.loads(archive.read(CONFIG))
            weights = io.BytesIO(archive.read(WEIGHTS))
        with lambda_layer.safe_mode(safe_mode):    # (only a .keras file's, as tf-keras)
            return _from_parts(config, weights, custom_objects, compile)
    return _load_h5(path, custom_objects, compile)


def _load_directory(path, custom_objects, compile):
    if not os.path.exists(os.path.join(path, MARKER)):
        what = ("a SavedModel that TensorFlow wrote (a TensorFlow graph, which tapeviz does "
                "not run)" if os.path.exists(os.path.join(path, "saved_model.pb"))
                else "not a saved model")
        raise OSError(f"load_model({path!r}): this directory is {what}; tapeviz reads only "
                      f"the SavedModel directories tapeviz writes (with {MARKER}). Fix: in "
                      "TensorFlow, save the model as a .keras or .h5 file "
                      "(model.save('model.keras')) and load that")
    with open(os.path.join(path, CONFIG), encoding="utf-8") as f:
        config = json.load(f)
    # (compiled with a fresh optimizer of the saved config: tf-keras's SavedModel loading
    # does not bring the optimizer's state back)
    return _from_parts(config, os.path.join(path, WEIGHTS), custom_objects, compile,
                       optimizer_state=False)


def _from_parts(config, weights, custom_objects, compile, optimizer_state=True):
    model = saving_models.model_from_config(config, custom_objects)
    if compile and config.get("compile_config"):
        saving_models.compile_from_config(model, config["compile_config"], custom_objects)
    with saving_h5.open_file(weights, "r") as f:
        saving_weights.read(f, model, skip_optimizer=not (compile and optimizer_state))
    return model


def _load_h5(path, custom_objects, compile):
    model_config, training, f = saving_h5.read_model(path)
    try:
        model = saving_models.model_from_config(model_config, custom_objects)
        saving_h5.load_model_weights(f, model)
        if compile and training is not None:
            saving_models.compile_from_config(model, {
                "optimizer": training.get("optimizer_config"), "loss": training.get("loss"),
                "metrics": training.get("metrics"),
                "loss_weights": training.get("loss_weights"),
                "weighted_metrics": training.get("weighted_metrics")}, custom_objects)
            values = saving_h5.optimizer_values(f)
            if values:
                saving_weights.restore_optimizer(model.optimizer, model.trainable_variables,
                                                 values)
    finally:
        f.close()
    return model


def load_weights_from_zip(model, path):
    with zipfile.ZipFile(path) as archive:
        weights = io.BytesIO(archive.read(WEIGHTS))
    with saving_h5.open_file(weights, "r") as f:
        saving_weights.read(f, model, skip_optimizer=True)
