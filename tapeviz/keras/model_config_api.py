"""A model's architecture as data, as tf-keras: `get_config`/`from_config` of a Sequential or
functional model (the layers' configs, and the graph's nodes), `to_json` and
`models.model_from_json`/`model_from_config`, and `models.clone_model` (the same architecture
with new weights, made by each layer's initializers). A subclassed model keeps `Layer`'s
config: the arguments it was made with, or its own `get_config`."""
from __future__ import annotations

import json

from . import saving_models as _saving_models
from .lambda_layer import safe_mode
from .saving_config import json_default
from .saving_h5 import KERAS_VERSION


def _has_graph(model) -> bool:
    from .models import Sequential
    return isinstance(model, Sequential) or getattr(model, "_graph", None) is not None


class ModelConfig:
    def get_config(self) -> dict:
        if _has_graph(self):
            return _saving_models.model_config(self)["config"]
        config = super().get_config()         # (Layer's base config)
        if type(self).get_config is ModelConfig.get_config:   # none of its own: its arguments
            from .saving_config import auto_config
            return auto_config(self, config)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from .models import Sequential
        # (a Lambda layer's function is refused, as tf-keras's safe mode refuses its code)
        with safe_mode(True):
            if issubclass(cls, Sequential):
                shape = config.get("build_input_shape")
                return _saving_models._sequential_from_config(
                    config, None if shape is None else {"input_shape": shape}, custom_objects)
            if "layers" in config and "input_layers" in config:
                return _saving_models.functional_from_config(config, custom_objects)
        return super().from_config(config)

    def to_json(self, **kwargs) -> str:
        """The model's class name and config as JSON (`models.model_from_json` reads it)."""
        spec = _saving_models.model_config(self)
        return json.dumps({"class_name": spec["class_name"], "config": spec["config"],
                           "keras_version": KERAS_VERSION, "backend": "tensorflow"},
                          default=json_default, **kwargs)


def model_from_config(config, custom_objects=None):
    """A model (new weights) from `{"class_name", "config"}`, as `get_config` or `to_json`
    describe it."""
    if not isinstance(config, dict):
        raise TypeError(f"`model_from_config` expects a dictionary, not a list. Received: "
                        f"config={config}. Did you meant to use `Sequential.from_config(config)`?")
    with safe_mode(True):      # (as tf-keras: a Lambda layer's function is refused)
        return _saving_models.model_from_config(config, custom_objects)


def model_from_json(json_string, custom_objects=None):
    """A model (new weights) from the JSON `model.to_json()` wrote."""
    return model_from_config(json.loads(json_string), custom_objects)


def clone_model(model, input_tensors=None, clone_function=None):
    """A new model of the same architecture (Sequential or functional), its layers made anew
    from their configs, so with new weights; the same layer names."""
    from .models import Model
    if input_tensors is not None or clone_function is not None:
        raise NotImplementedError("clone_model: input_tensors= and clone_function= are not "
                                  "supported by tapeviz. Fix: clone_model(model), then copy "
                                  "or change layers as needed")
    if not isinstance(model, Model):        # (a layer: a new one of the same config)
        return type(model).from_config(model.get_config())
    if not _has_graph(model):
        raise ValueError(f"Expected `model` argument to be a functional `Model` instance, but "
                         f"got a subclassed model instead: {model}")
    return _saving_models.model_from_config(_saving_models.model_config(model))
