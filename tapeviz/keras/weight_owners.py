"""The layer that made each weight (``Layer.add_weight``), so that an optimizer updating a
weight of a frozen layer (``trainable=False``: the weight was passed to the tape and the
optimizer by hand, and Keras's weight lists leave it out) tells it as a run note
(``explain.notes``)."""
from __future__ import annotations

import weakref

from ..explain.notes import frozen_layer_updated

#: variable id -> the layer that made it (gone with the layer)
_OWNERS: "weakref.WeakValueDictionary" = weakref.WeakValueDictionary()

#: True once a layer was made or set ``trainable=False``: until then no weight can be a frozen
#: layer's, and ``apply_gradients`` skips the owner lookup of each weight it updates (a dict
#: lookup per weight per step while anyone listens). Process-wide by design: a layer frozen
#: anywhere (another model, an earlier run) turns the check on for every optimizer, and
#: unfreezing it does not turn it off (the check then costs what it always did).
ANY_FROZEN = False


def made_by(var, layer) -> None:
    _OWNERS[var._id] = layer


def trainable_flag(value) -> bool:
    """A layer's ``trainable`` as it is stored; a False one turns :data:`ANY_FROZEN` on."""
    global ANY_FROZEN
    flag = bool(value)
    if not flag:
        ANY_FROZEN = True
    return flag


def frozen_layer_of(var):
    """The frozen layer that made ``var``, or None (made by a trainable layer, or by none)."""
    layer = _OWNERS.get(var._id)
    return layer if layer is not None and not layer.trainable else None


def tell_frozen_updates(optimizer: str, variables) -> None:
    """The run note of each of ``variables`` (about to be updated by ``optimizer``) that a
    frozen layer made."""
    for var in variables:
        layer = frozen_layer_of(var)
        if layer is not None:
            frozen_layer_updated(layer.name, var.name, optimizer)
