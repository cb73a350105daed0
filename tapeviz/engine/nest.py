"""Nested structures as TensorFlow's `tf.nest` sees them: lists, tuples, dicts (sorted keys)."""
from __future__ import annotations


def is_nested(x) -> bool:
    return isinstance(x, (list, tuple, dict))


def flatten(structure) -> list:
    """Leaves in TensorFlow's order: sequences in order, dicts by sorted key."""
    out: list = []
    _flatten(structure, out)
    return out


def _flatten(s, out):
    if isinstance(s, dict):
        for k in sorted(s):
            _flatten(s[k], out)
    elif isinstance(s, (list, tuple)):
        for v in s:
            _flatten(v, out)
    else:
        out.append(s)


def attribute_leaves(value, path=(), string_keys_only=False):
    """``(path, leaf)`` of each object inside an attribute's value (nested lists, tuples and
    dicts), in tf.nest's order: sequences in order, dicts by sorted key (keys that do not
    sort together, which tf.nest refuses, by their text). A path is the tuple of keys and
    indices leading to the leaf. With ``string_keys_only`` a dict with another key is
    skipped whole, as a checkpoint does not track it."""
    if isinstance(value, dict):
        if string_keys_only and not all(isinstance(k, str) for k in value):
            return
        try:
            keys = sorted(value)
        except TypeError:
            keys = sorted(value, key=str)
        items = ((key, value[key]) for key in keys)
    elif isinstance(value, (list, tuple)):
        items = enumerate(value)
    else:
        yield path, value
        return
    for key, item in items:
        if isinstance(item, (list, tuple, dict)):
            yield from attribute_leaves(item, path + (key,), string_keys_only)
        else:        # (a leaf: no generator for it, as Keras walks every layer's attributes)
            yield path + (key,), item


def pack_sequence_as(structure, flat):
    """Rebuild `structure` with the leaves taken in order from `flat`."""
    it = iter(flat)
    return _pack(structure, it)


def _pack(s, it):
    if isinstance(s, dict):
        packed = {k: _pack(s[k], it) for k in sorted(s)}
        return type(s)((k, packed[k]) for k in s) if type(s) is not dict else \
            {k: packed[k] for k in s}
    if isinstance(s, list):
        return [_pack(v, it) for v in s]
    if isinstance(s, tuple):
        values = [_pack(v, it) for v in s]
        return type(s)(*values) if hasattr(s, "_fields") else type(s)(values)
    return next(it)
