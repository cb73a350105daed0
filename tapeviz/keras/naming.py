"""Keras's names for layers: the class name in snake case, made unique by a counter per
name ('dense', 'dense_1', ...), reset by `tf.keras.backend.clear_session()`."""
from __future__ import annotations

import re

_NAME_UIDS: dict = {}


def to_snake_case(name: str) -> str:
    """Keras's layer-name rule: 'Dense' -> 'dense', 'ReLU' -> 're_lu', 'Conv2D' -> 'conv2d'."""
    intermediate = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    insecure = re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()
    return insecure if insecure[0] != "_" else "private" + insecure


def unique_name(base: str, zero_based: bool = True) -> str:
    """'dense', then 'dense_1', 'dense_2', ... as Keras names layers (one counter per base);
    `zero_based=False`: 'input_1', 'input_2', ... as Keras names inputs."""
    n = _NAME_UIDS.get(base, 0)
    _NAME_UIDS[base] = n + 1
    return base if n == 0 and zero_based else f"{base}_{n + (not zero_based)}"


def reset_uids():
    """Start layer names anew (as `tf.keras.backend.clear_session()`)."""
    _NAME_UIDS.clear()
