"""`tv.keras.layers.Lambda`: a function of tensors as a layer.

The function runs on real tensors whenever the layer is called on data (so its ops are
recorded in the layer's name scope); on a symbolic `tv.keras.Input` it runs on stand-in
tensors once, only to learn the output's shape and dtype.

>>> import tapeviz as tv
>>> double = tv.keras.layers.Lambda(lambda t: t * 2.0, name="double")
>>> double(tv.ones((1, 2))).numpy().tolist()
[[2.0, 2.0]]

Saved (`Model.save`, `get_config`), its function is named by reference, not written as code:
tf-keras writes a Python function's bytecode and runs it when loading, which tapeviz never
does. So a model with a Lambda is loaded back (`load_model`, `clone_model`, `from_config`)
in the process that saved it, where the reference finds the function; elsewhere loading
raises, naming the fix. As tf-keras, a `.keras` file's Lambda is refused unless
`load_model(..., safe_mode=False)`.
"""
from __future__ import annotations

import contextlib
import itertools

from .layers import Layer, _accepts

#: the functions of the Lambda layers configured in this process, by reference
_FUNCTIONS: dict = {}
#: id(function) -> its reference (the function is kept alive by _FUNCTIONS)
_REFERENCES: dict = {}
_COUNTER = itertools.count(1)
#: set while `load_model` reads a `.keras` file with safe_mode=True
_SAFE_MODE = [False]


@contextlib.contextmanager
def safe_mode(on: bool):
    """Refuse Lambda layers' functions while loading, as tf-keras's `safe_mode=True`."""
    outer, _SAFE_MODE[0] = _SAFE_MODE[0], bool(on)
    try:
        yield
    finally:
        _SAFE_MODE[0] = outer


def _reference(function) -> dict:
    key = _REFERENCES.get(id(function))
    if key is None or _FUNCTIONS.get(key) is not function:
        key = f"{next(_COUNTER)}:{getattr(function, '__qualname__', type(function).__name__)}"
        _REFERENCES[id(function)] = key
        _FUNCTIONS[key] = function
    return {"tapeviz_function_reference": key}


def _resolve(value, what, layer_name):
    if not isinstance(value, dict) or "tapeviz_function_reference" not in value:
        return value
    if _SAFE_MODE[0]:
        raise ValueError("Requested the deserialization of a Lambda layer with a Python "
                         "`lambda` inside it. This carries a potential risk of arbitrary code "
                         "execution and thus it is disallowed by default. If you trust the "
                         "source of the saved model, you can pass `safe_mode=False` to the "
                         "loading function in order to allow Lambda layer loading.")
    function = _FUNCTIONS.get(value["tapeviz_function_reference"])
    if function is None:
        raise ValueError(
            f"Lambda layer {layer_name!r}: its {what} "
            f"({value['tapeviz_function_reference'].split(':', 1)[-1]}) was saved by "
            "reference by the process that saved this model (tapeviz never writes or runs a "
            "function's code from a file), and this process does not have it. Fix: load the "
            "model in the process that saved it, or build the model again in code and "
            "load_weights")
    return function


class Lambda(Layer):
    """`Lambda(function, output_shape=None, mask=None, arguments=None)`: `function(inputs,
    **arguments)` (plus `training=`/`mask=` when the function takes them)."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        if function is not None and not callable(function):
            raise TypeError(f"Lambda: `function` must be callable, got {function!r} "
                            f"({type(function).__name__}). Fix: e.g. "
                            "tf.keras.layers.Lambda(lambda x: x * 2)")
        self.function = function
        self.arguments = dict(arguments or {})
        self._output_shape = output_shape

    def build(self, input_shape):
        self.built = True

    def call(self, inputs, mask=None, training=None):
        kwargs = dict(self.arguments)
        if mask is not None and _accepts(self.function, "mask"):
            kwargs["mask"] = mask
        if training is not None and _accepts(self.function, "training"):
            kwargs["training"] = training
        return self.function(inputs, **kwargs)

    def get_config(self) -> dict:
        config = super().get_config()
        function = self.function
        shape = self._output_shape
        config.update({
            "function": _reference(function), "function_type": "lambda",
            "module": getattr(function, "__module__", None),
            "output_shape": _reference(shape) if callable(shape) else
            (list(shape) if isinstance(shape, tuple) else shape),
            "output_shape_type": "lambda" if callable(shape) else "raw",
            "output_shape_module": None, "arguments": dict(self.arguments)})
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        name = config.get("name")
        config["function"] = _resolve(config["function"], "function", name)
        config["output_shape"] = _resolve(config.get("output_shape"), "output_shape", name)
        for key in ("function_type", "module", "output_shape_type", "output_shape_module"):
            config.pop(key, None)
        return cls(**config)

    def compute_output_shape(self, input_shape):
        if self._output_shape is not None and not callable(self._output_shape):
            return (input_shape[0],) + tuple(self._output_shape)
        return super().compute_output_shape(input_shape)
