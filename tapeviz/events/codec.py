"""Events to and from their JSON form: :func:`from_dict`, which checks every known field's
JSON type, and :func:`sanitize`, which makes any value JSON-safe. Imports: stdlib, ``kinds``.
"""
from __future__ import annotations

import dataclasses
import math

from .kinds import EVENT_TYPES, Event

_FIELD_NAMES: dict = {}
_FIELD_TYPES: dict = {}


def _field_names(cls) -> frozenset:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = frozenset(f.name for f in dataclasses.fields(cls))
    return names


_NONE = type(None)
_TYPES_BY_NAME = {"int": (int,), "float": (int, float), "str": (str,), "bool": (bool,),
                  "list": (list,), "dict": (dict,), "None": (_NONE,), "Any": (object,)}
_NON_FINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def _field_types(cls) -> dict:
    """{field name: (accepted python types, is float)} from the annotations (strings here)."""
    types = _FIELD_TYPES.get(cls)
    if types is None:
        types = {}
        for f in dataclasses.fields(cls):
            accepted: tuple = ()
            for part in str(f.type).replace(" ", "").split("|"):
                accepted += _TYPES_BY_NAME.get(part, (object,))
            types[f.name] = (accepted, "float" in str(f.type))
        _FIELD_TYPES[cls] = types
    return types


def from_dict(data: dict) -> Event | None:
    """Rebuild an event from its JSON form.

    Unknown kinds give ``None``; unknown fields are dropped; missing fields take their
    defaults. A known field holding the wrong JSON type (a string where a number belongs)
    raises ``ValueError`` naming the field, so a garbled line is never half-trusted. Float
    fields accept the strings ``"nan"``, ``"inf"`` and ``"-inf"`` that writers use for
    non-finite numbers (JSON has none)."""
    if not isinstance(data, dict):
        raise ValueError(f"an event must be a JSON object, got {type(data).__name__}")
    cls = EVENT_TYPES.get(data.get("kind"))
    if cls is None:
        return None
    types = _field_types(cls)
    kwargs = {}
    for k, v in data.items():
        spec = types.get(k)
        if spec is None:
            continue
        accepted, is_float = spec
        if is_float and type(v) is str and v in _NON_FINITE:
            v = _NON_FINITE[v]
        elif not isinstance(v, accepted) or (type(v) is bool and bool not in accepted):
            raise ValueError(f"field {k!r} of a {cls.KIND!r} event should be "
                             f"{' or '.join(sorted({_json_type(t) for t in accepted}))}, "
                             f"got {_json_type(type(v))} {_short(v)}")
        kwargs[k] = v
    return cls(**kwargs)


def _json_type(t) -> str:
    return {int: "a number", float: "a number", str: "a string", bool: "true/false",
            list: "a list", dict: "an object", _NONE: "null"}.get(t, t.__name__)


def _short(v) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def sanitize(value, _depth: int = 0):
    """``value`` made JSON-safe: non-finite floats become ``"nan"``/``"inf"``/``"-inf"``,
    NumPy scalars and arrays plain numbers and lists, tuples lists, dict keys strings, and
    anything else its ``str()``. Used by writers when the fast encoder refuses an event."""
    if value is None or value is True or value is False or type(value) is str:
        return value
    if _depth > 64:
        return "<too deep>"
    if isinstance(value, float):
        if math.isfinite(value):
            return float(value)
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, int):
        return int(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, dict):
        return {(k if type(k) is str else str(k)): sanitize(v, _depth + 1)
                for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [sanitize(v, _depth + 1) for v in value]
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", "replace")
    if hasattr(value, "tolist") and callable(value.tolist):   # numpy scalars and arrays
        try:
            return sanitize(value.tolist(), _depth + 1)
        except Exception:
            pass
    try:
        return str(value)
    except Exception:
        return f"<{type(value).__name__}>"


