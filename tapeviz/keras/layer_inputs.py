"""Checks of a layer's arguments and inputs that the layer modules share."""
from __future__ import annotations

from ..engine.convert import convert_to_tensor
from ..engine.tensor import Tensor


def refuse_unsupported(layer: str, **arguments):
    """Arguments a layer does not imitate: refuse them rather than train without them
    (silently different weights or loss)."""
    given = sorted(name for name, value in arguments.items() if value is not None)
    if given:
        verb = "is" if len(given) == 1 else "are"
        raise NotImplementedError(f"{layer}: {', '.join(given)} {verb} not supported by "
                                  "tapeviz. Fix: leave it None (a constraint: clip the weight "
                                  "after each step)")


def _float_input(x, dtype, layer="layer"):
    if not isinstance(x, Tensor):
        x = convert_to_tensor(x)
    if x.dtype.is_string:
        raise ValueError(f"{layer}: dtype='string' is not a valid input dtype: the layer computes "
                         f"in {dtype.name}, and its input of shape {tuple(x.shape)} holds strings. "
                         "Fix: turn the text into numbers first (e.g. a vocabulary lookup to "
                         "ids, then tv.one_hot)")
    if x._value.dtype != dtype.np:
        from ..engine.ops import cast
        x = cast(x, dtype)
    return x
