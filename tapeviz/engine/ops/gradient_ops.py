"""Ops about gradients themselves: identity and stop_gradient (custom_gradient: ../custom.py)."""
from __future__ import annotations

from ..op import apply, defop
from ._base import tensor

_identity = defop("Identity", lambda x: x, [lambda g, y, x: g], "y = x", ["∂x = g"])
_stop = defop("StopGradient", lambda x: x, None, "y = x (no gradient flows back)")


def identity(input, name=None):
    return apply(_identity, (tensor(input),))


def stop_gradient(input, name=None):
    """The value of `input`, with every gradient path through it cut (the gradient is None)."""
    return apply(_stop, (tensor(input),))


__all__ = ["identity", "stop_gradient"]
