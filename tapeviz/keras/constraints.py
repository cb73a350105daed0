"""`tv.keras.constraints`: projections that Keras optimizers apply to a weight after each
update (`v.assign(v.constraint(v))`), given to layers as `kernel_constraint=` /
`bias_constraint=`. The same formulas as Keras 2, with `backend.epsilon()`."""
from __future__ import annotations

from ..engine.ops import cast, clip_by_value, greater_equal, reduce_sum, sqrt, square
from . import backend as _backend


class Constraint:
    def __call__(self, w):
        return w

    def get_config(self) -> dict:
        return {}


def _norms(w, axis):
    return sqrt(reduce_sum(square(w), axis=axis, keepdims=True))


class MaxNorm(Constraint):
    """Scale each slice along `axis` down to a norm of at most `max_value`."""

    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = clip_by_value(norms, 0, self.max_value)
        return w * (desired / (_backend.epsilon() + norms))

    def get_config(self) -> dict:
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    """Negative weights become zero."""

    def __call__(self, w):
        return w * cast(greater_equal(w, 0.0), _backend.floatx())


class UnitNorm(Constraint):
    """Each slice along `axis` scaled to norm 1."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        return w / (_backend.epsilon() + _norms(w, self.axis))

    def get_config(self) -> dict:
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    """Each slice's norm moved `rate` of the way into [min_value, max_value]."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = self.rate * clip_by_value(norms, self.min_value, self.max_value) + \
            (1 - self.rate) * norms
        return w * (desired / (_backend.epsilon() + norms))

    def get_config(self) -> dict:
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate,
                "axis": self.axis}


max_norm, non_neg, unit_norm, min_max_norm = MaxNorm, NonNeg, UnitNorm, MinMaxNorm


def get(identifier):
    """A constraint from None, a name ('max_norm', 'non_neg', ...), an object or a callable."""
    if identifier is None or callable(identifier):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    table = {"max_norm": MaxNorm, "non_neg": NonNeg, "unit_norm": UnitNorm,
             "min_max_norm": MinMaxNorm, "MaxNorm": MaxNorm, "NonNeg": NonNeg,
             "UnitNorm": UnitNorm, "MinMaxNorm": MinMaxNorm}
    if isinstance(identifier, str):
        from .saving_config import named_custom_object   # `get_custom_objects()["x"] = X`
        found = named_custom_object(identifier)
        if found is not None:
            return found
    if isinstance(identifier, str) and identifier in table:
        return table[identifier]()
    raise ValueError(f"Could not interpret constraint identifier: {identifier!r}. Fix: use "
                     "'max_norm', 'non_neg', 'unit_norm' or e.g. "
                     "tf.keras.constraints.MaxNorm(2.0)")


def serialize(constraint) -> dict:
    """Keras's description of a constraint (what a layer's `get_config` stores)."""
    return {"module": "keras.constraints", "class_name": type(constraint).__name__,
            "config": constraint.get_config(), "registered_name": None}


def deserialize(config, custom_objects=None):
    """A constraint from a name or Keras's `{"class_name", "config"}`."""
    if isinstance(config, dict) and "class_name" in config:
        from .saving_config import find_class
        cls = find_class(config["class_name"], "constraint", custom_objects)
        return cls(**(config.get("config") or {}))
    return get(config)
