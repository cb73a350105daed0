"""`tensorflow.python.framework.ops`: the eager tensor's class, conversion and control
dependencies, as programs import them from here."""
from __future__ import annotations

from ... import control_dependencies, convert_to_tensor  # noqa: F401
from ...engine.tensor import Tensor as EagerTensor  # noqa: F401
from .. import private_module

__getattr__ = private_module("framework.ops", "the same name under tf")


def executing_eagerly_outside_functions() -> bool:
    """True: tapeviz runs every op eagerly, ``tf.function`` bodies included."""
    return True
