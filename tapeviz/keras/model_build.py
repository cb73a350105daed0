"""`Model.build(input_shape)` of a subclassed model, as tf-keras's: `call` runs once on
stand-in zeros of that shape (an unknown axis as 1), so that every layer it reaches makes its
weights. tf-keras runs it in a graph; tapeviz runs it on zeros, unrecorded, so a Python side
effect of `call` (or a random op in it, which draws from the generator) happens then too."""
from __future__ import annotations

import inspect

import numpy as np

from ..engine.errors import InvalidArgumentError
from ..engine.tensor import Tensor, TensorShape
from ..engine.threadstate import outside_name_scopes
from .backend import floatx
from .functional import stand_in_call


def _zeros(shape):
    return Tensor(np.zeros(tuple(1 if d is None else int(d) for d in shape),
                           np.dtype(floatx())))


def _is_shape(value) -> bool:
    return isinstance(value, (tuple, list, TensorShape)) and all(
        d is None or isinstance(d, (int, np.integer)) for d in value)


def build_by_calling(model, input_shape):
    """Run ``model.call`` on zeros shaped ``input_shape`` (a shape, a list of shapes, or a
    dict of them), with `training=False` where `call` requires it, as tf-keras's build."""
    if input_shape is None:
        raise ValueError("Input shape must be defined when calling `build()` on a `Model` "
                         "subclass. Fix: e.g. model.build(input_shape=(None, 784))")
    if not isinstance(input_shape, (tuple, list, TensorShape, dict)):
        raise ValueError(f"Specified input shape is not one of the valid types. Please specify "
                         f"a batch input shape of type tuple or list of input shapes. User "
                         f"provided input type: {type(input_shape)}. Fix: e.g. "
                         f"model.build(input_shape=(None, {input_shape!r}))")
    if isinstance(input_shape, dict):
        x = {k: _zeros(s) for k, s in input_shape.items()}
    elif _is_shape(input_shape):
        x = _zeros(input_shape)
    else:
        x = [_zeros(s) for s in input_shape]
    kwargs = {}
    params = list(inspect.signature(model.call).parameters.values())[1:]
    for p in params:
        if p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.name != "training":
            raise ValueError(
                f"Currently, you cannot build your model if it has positional or keyword "
                f"arguments that are not inputs to the model, but are required for its "
                f"`call()` method (here {p.name!r}). Fix: give it a default, or call the "
                "model on data instead of calling build()")
        kwargs["training"] = False
    # (outside the model's name scope, as tf-keras's call in a graph of its own: the layers'
    # weights are `dense/kernel:0` even when a subclass's own build calls this on a first call)
    with stand_in_call(), outside_name_scopes():
        try:
            model.call(x, **kwargs)
        except (InvalidArgumentError, TypeError) as e:
            raise ValueError("You cannot build your model by calling `build` if your layers do "
                             "not support float type inputs. Instead, in order to instantiate "
                             "and build your model, call your model on real tensor data (of the "
                             f"correct dtype).\n\nThe actual error from `call` is: {e}.") from e
