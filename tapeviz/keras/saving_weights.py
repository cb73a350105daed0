"""The `model.weights.h5` layout of tf-keras 2.21's `.keras` zip (also `save_weights` to a
`.weights.h5` path): each object's own variables in a group `<path>/vars`, as datasets
`0`, `1`, ... in Keras's order (trainable ones first), at the path of attribute names that
leads to it: `layers/dense/vars` for the model's first Dense layer (a layer in a list is
named by its class in snake case, numbered from the second: `dense_1`), `layers/lstm/cell/vars`
for an LSTM's cell, `optimizer/vars` for the optimizer's iteration count and slots.
"""
from __future__ import annotations

import warnings

import numpy as np

from .layers import Layer
from .naming import to_snake_case
from .saving_h5 import assign_all, h5py, open_file


def is_hdf5(path) -> bool:
    try:
        return h5py().is_hdf5(path)
    except (OSError, TypeError, ValueError):
        return False


def own_variables(layer) -> list:
    own = layer.__dict__.get("_own_weights", [])
    return [w for w in own if w.trainable] + [w for w in own if not w.trainable]


def _children(layer) -> list:
    """(attribute name, sublayer or list of sublayers), sorted by name as Keras's walk over
    `dir()`; a model's layers are its attribute `layers`."""
    from .models import Model
    out = [("layers", layer.layers)] if isinstance(layer, Model) else []
    for name, value in vars(layer).items():
        if name.startswith("_"):
            continue
        if isinstance(value, Layer) or (isinstance(value, (list, tuple)) and value and
                                        all(isinstance(v, Layer) for v in value)):
            out.append((name, value))
    return sorted(out, key=lambda item: item[0])


def layer_paths(model) -> list:
    """(path, layer) of `model` and every layer inside it, each once, in Keras's walk order."""
    out, seen = [], set()

    def visit(layer, path):
        if id(layer) in seen:
            return
        seen.add(id(layer))
        out.append((path, layer))
        for name, child in _children(layer):
            inner = f"{path}/{name}" if path else name
            if isinstance(child, Layer):
                visit(child, inner)
                continue
            used = {}
            for item in child:
                key = to_snake_case(type(item).__name__)
                used[key] = used.get(key, -1) + 1
                visit(item, f"{inner}/{key}" + (f"_{used[key]}" if used[key] else ""))

    visit(model, "")
    return out


def write(f, model):
    for path, layer in layer_paths(model):
        group = f.require_group(f"{path}/vars" if path else "vars")
        for i, variable in enumerate(own_variables(layer)):
            group.create_dataset(str(i), data=np.asarray(variable._value))
    optimizer = getattr(model, "optimizer", None)
    if optimizer is not None and getattr(model, "_is_compiled", False):
        group = f.require_group("optimizer/vars")
        for i, variable in enumerate(optimizer_variables(optimizer,
                                                         model.trainable_variables)):
            group.create_dataset(str(i), data=np.asarray(variable._value))


def _saved(f, path) -> list:
    key = f"{path}/vars" if path else "vars"
    if key not in f:
        return []
    group = f[key]
    return [np.asarray(group[str(i)]) for i in range(len(group))]


def read(f, model, skip_optimizer=False):
    """Every layer's values (counts and shapes checked before anything is assigned), then the
    optimizer's, when the file has them."""
    pairs = []
    for path, layer in layer_paths(model):
        variables, values = own_variables(layer), _saved(f, path)
        if len(variables) != len(values):
            raise ValueError(f"Layer '{layer.name}' expected {len(variables)} variables, but "
                             f"received {len(values)} variables during loading (at "
                             f"'{path or '/'}' in the file). Expected: "
                             f"{[v.name for v in variables]}. Fix: build the same model as "
                             "the one saved")
        pairs += zip(variables, values)
    assign_all(pairs)
    optimizer = getattr(model, "optimizer", None)
    if not skip_optimizer and optimizer is not None and "optimizer/vars" in f:
        restore_optimizer(optimizer, model.trainable_variables, _saved(f, "optimizer"))


def _slot_groups(optimizer):
    """tf-keras's order of an optimizer's slots: groups of slot names, each group taken over
    every variable in turn (Adam: m and v of each variable, then amsgrad's v-hats; RMSprop:
    every velocity, then every momentum, then every average gradient); None: not known."""
    kind = type(optimizer).__name__
    if kind in ("Adam", "Nadam", "AdamW"):
        return [["m", "v"]] + ([["vhat"]] if getattr(optimizer, "amsgrad", False) else [])
    if kind == "RMSprop":
        return [["velocity"]] + ([["momentum"]] if optimizer.momentum > 0 else []) + \
            ([["average_gradient"]] if optimizer.centered else [])
    if kind == "SGD":
        return [["momentum"]] if optimizer.momentum > 0 else []
    if kind == "Adagrad":
        return [["accumulator"]]
    if kind == "Adamax":
        return [["m", "u"]]
    return None


def slot_order(optimizer) -> list:
    """An optimizer's slots made so far, in tf-keras's order where it is known (grouped as
    `_slot_groups` says, the variables in the order of their first update)."""
    groups = _slot_groups(optimizer)
    slots = optimizer._slots
    if groups is None:
        return list(slots.values())
    variables = list(dict.fromkeys(var_id for var_id, _ in slots))
    place = {name: (i, j) for i, group in enumerate(groups) for j, name in enumerate(group)}

    def key(k):
        group, within = place.get(k[1], (len(groups), 0))
        return group, variables.index(k[0]), within
    keys = sorted(slots, key=key)
    return [slots[k] for k in keys]


def _slots_in_order(optimizer, variables, make=False) -> list:
    groups = _slot_groups(optimizer) or []
    keys = [(var, name) for group in groups for var in variables for name in group]
    if make:
        return [optimizer._slot(var, name, scoped=False) for var, name in keys]
    return [optimizer._slots.get((var._id, name)) for var, name in keys]


def optimizer_variables(optimizer, variables) -> list:
    """What Keras saves of an optimizer: its iteration count, then its slots in tf-keras's
    order (before its first step it has none); a LossScaleOptimizer's are its inner one's."""
    optimizer = getattr(optimizer, "inner_optimizer", optimizer)
    slots = _slots_in_order(optimizer, variables)
    if _slot_groups(optimizer) is None or not all(s is not None for s in slots):
        return optimizer.variables()
    return [optimizer.iterations] + slots


def restore_optimizer(optimizer, variables, values):
    """The iteration count, then the slots in tf-keras's order; a file of another layout
    (another optimizer, or one saved before its first step) is skipped with a warning, as
    Keras does."""
    optimizer = getattr(optimizer, "inner_optimizer", optimizer)
    expected = 1 + len(_slots_in_order(optimizer, variables))
    if _slot_groups(optimizer) is None or len(values) != expected:
        warnings.warn(f"Skipping variable loading for optimizer '{optimizer.name}', because "
                      f"it has {expected} variables whereas the saved optimizer has "
                      f"{len(values)} variables.", stacklevel=3)
        return
    slots = _slots_in_order(optimizer, variables, make=True)
    assign_all(list(zip([optimizer.iterations] + slots, values)))


def save_weights_only(model, path):
    with open_file(path, "w") as f:
        write(f, model)


def load_weights_only(model, path):
    with open_file(path, "r") as f:
        read(f, model, skip_optimizer=True)
