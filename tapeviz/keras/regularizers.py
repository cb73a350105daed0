"""`tv.keras.regularizers`: weight penalties a layer adds to its `losses` (Keras 2's rules:
`l2(0.01)` is 0.01·Σw², `l1(0.01)` is 0.01·Σ|w|, `L1L2` defaults to 0 for both)."""
from __future__ import annotations

from ..engine.ops import abs as _abs, reduce_sum, square, zeros
from ..engine.ops._base import tensor


class Regularizer:
    def __call__(self, x):
        return 0.0

    def get_config(self) -> dict:
        return {}


class L1L2(Regularizer):
    def __init__(self, l1=0.0, l2=0.0):
        self.l1, self.l2 = float(l1), float(l2)

    def __call__(self, x):
        x = tensor(x)
        total = zeros((), x.dtype)
        if self.l1:
            total = total + self.l1 * reduce_sum(_abs(x))
        if self.l2:
            total = total + self.l2 * reduce_sum(square(x))
        return total

    def get_config(self) -> dict:
        return {"l1": self.l1, "l2": self.l2}


class L1(L1L2):
    def __init__(self, l1=0.01, **kwargs):
        super().__init__(l1=kwargs.pop("l", l1))

    def get_config(self) -> dict:
        return {"l1": self.l1}


class L2(L1L2):
    def __init__(self, l2=0.01, **kwargs):
        super().__init__(l2=kwargs.pop("l", l2))

    def get_config(self) -> dict:
        return {"l2": self.l2}


def l1_l2(l1=0.01, l2=0.01):
    return L1L2(l1=l1, l2=l2)


l1, l2 = L1, L2


def get(identifier):
    """A regularizer from None, a name ('l1', 'l2', 'l1_l2'), an object or a callable."""
    if identifier is None or callable(identifier):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    table = {"l1": L1, "l2": L2, "l1_l2": l1_l2, "L1": L1, "L2": L2, "L1L2": L1L2}
    if isinstance(identifier, str):
        from .saving_config import named_custom_object   # `get_custom_objects()["x"] = X`
        found = named_custom_object(identifier)
        if found is not None:
            return found
    if isinstance(identifier, str) and identifier in table:
        return table[identifier]()
    raise ValueError(f"Could not interpret regularizer identifier: {identifier!r}. Fix: use "
                     "'l1', 'l2', 'l1_l2' or e.g. tf.keras.regularizers.l2(1e-4)")


def serialize(regularizer) -> dict:
    """Keras's description of a regularizer (what a layer's `get_config` stores)."""
    return {"module": "keras.regularizers", "class_name": type(regularizer).__name__,
            "config": regularizer.get_config(), "registered_name": None}


def deserialize(config, custom_objects=None):
    """A regularizer from a name or Keras's `{"class_name", "config"}`."""
    if isinstance(config, dict) and "class_name" in config:
        from .saving_config import find_class
        cls = find_class(config["class_name"], "regularizer", custom_objects)
        return cls(**(config.get("config") or {}))
    return get(config)
