"""Deferred payloads: an event's fields are built on their first read, so a subscriber that
only counts events pays for no summaries, refs or sites.

A deferred event holds ``(build, seq, time, *args)`` in its ``_pending`` slot (one flat
tuple: a tuple of the args inside it cost every event one more allocation) until a field,
``to_dict()``, ``==`` or ``repr`` reads it; ``build(*args)`` then returns the fields as a
dict. ``_pending`` is ``None`` for an event built the ordinary way (``from_dict``, by hand)
and ``False`` once tapeviz built it itself (:func:`engine_built`). Imports: stdlib only.
"""
from __future__ import annotations

import dataclasses
import itertools
from time import time as _now
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .kinds import Event


class _Deferrable:
    """The slot a deferred event keeps its unbuilt payload in (see :func:`deferred`)."""
    __slots__ = ("_pending", "__weakref__")


_get_pending = _Deferrable._pending.__get__
_set_pending = _Deferrable._pending.__set__
_set_seq = _set_time = None       # the raw slot setters of Event.seq and Event.time
_seq = itertools.count(1)         # the process-wide sequence number of events
_GETTERS: dict = {}
_DEFERRED_FIELDS: dict = {}       # class -> ((name, raw slot setter, default factory), ...)


class _Deferred:
    """Replaces a field's slot descriptor: builds the event's payload before the first read."""
    __slots__ = ("get", "set")

    def __init__(self, slot):
        self.get = slot.__get__
        self.set = slot.__set__

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        try:
            if _get_pending(obj):
                _materialize(obj)
        except AttributeError:      # built without __init__ (unpickled): nothing deferred
            pass
        return self.get(obj)

    def __set__(self, obj, value):
        self.set(obj, value)


class _Stamp:
    """``seq`` and ``time``: a deferred event keeps them with its unbuilt payload (one slot
    to fill when it is emitted), readable without building it."""
    __slots__ = ("get", "set", "index")

    def __init__(self, slot, index):
        self.get = slot.__get__
        self.set = slot.__set__
        self.index = index

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        try:
            pending = _get_pending(obj)
        except AttributeError:      # built without __init__ (unpickled): nothing deferred
            pending = None
        if pending:
            return pending[self.index]
        return self.get(obj)

    def __set__(self, obj, value):
        self.set(obj, value)


def install_stamps(event_cls) -> None:
    """Make ``seq`` and ``time`` of the base event class readable before the payload is built."""
    global _set_seq, _set_time
    seq, time = event_cls.__dict__["seq"], event_cls.__dict__["time"]
    _set_seq, _set_time = seq.__set__, time.__set__
    event_cls.seq = _Stamp(seq, 1)
    event_cls.time = _Stamp(time, 2)


def _make_deferrable(cls) -> None:
    entries = []
    for f in dataclasses.fields(cls)[2:]:
        slot = cls.__dict__[f.name]
        if f.default is not dataclasses.MISSING:
            default = (lambda v=f.default: v)
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory
        else:   # pragma: no cover (every event field has a default)
            default = (lambda: None)
        entries.append((f.name, slot.__set__, default))
        setattr(cls, f.name, _Deferred(slot))
    _DEFERRED_FIELDS[cls] = tuple(entries)


def _getters(cls) -> tuple:
    """(field name, raw getter) pairs in field order: reads that skip the deferral check."""
    getters = _GETTERS.get(cls)
    if getters is None:
        getters = []
        for name in _field_order(cls):
            attr = None
            for klass in cls.__mro__:
                if name in klass.__dict__:
                    attr = klass.__dict__[name]
                    break
            getters.append((name, attr.get if isinstance(attr, (_Deferred, _Stamp))
                            else attr.__get__))
        getters = _GETTERS[cls] = tuple(getters)
    return getters


_DICT_MAKERS: dict = {}


def _dict_maker(cls):
    """A function ``event -> {"kind": ..., "seq": ..., <fields>}`` reading the raw slots, made
    once per class (as ``dataclasses`` makes ``__init__``): one dict display instead of a
    loop of stores, as a recording encodes every event through it."""
    make = _DICT_MAKERS.get(cls)
    if make is None:
        getters = _getters(cls)
        namespace = {f"get{i}": get for i, (_, get) in enumerate(getters)}
        items = "".join(f", {name!r}: " + (f"event.{raw}" if raw else f"get{i}(event)")
                        for i, (name, get) in enumerate(getters)
                        for raw in [_raw_attribute(cls, name, get)])
        exec(f"def to_dict(event):\n    return {{'kind': {cls.KIND!r}{items}}}\n", namespace)
        make = _DICT_MAKERS[cls] = namespace["to_dict"]
    return make


def _raw_attribute(cls, name: str, get) -> str | None:
    """An attribute name that reads the field's slot itself, as Python reads any slot (no
    call: a call of the slot's ``__get__`` per field made building the dict cost more than
    encoding it): the field's own name when that is still its slot, else ``_raw_<name>``,
    the slot under a second name on the class that holds it. None: read it with ``get``."""
    slot = getattr(get, "__self__", None)
    if type(slot) is not _MEMBER:
        return None
    if getattr(cls, name, None) is slot:
        return name
    alias = "_raw_" + name
    owner = slot.__objclass__
    if owner.__dict__.get(alias, slot) is not slot:
        return None
    setattr(owner, alias, slot)
    return alias


_MEMBER = type(_Deferrable._pending)


def _materialize(event) -> None:
    """Build a deferred event's fields (idempotent; a second thread may race: same values)."""
    pending = _get_pending(event)
    if pending:
        materialized_dict(event, pending)


def materialized_dict(event, pending) -> dict:
    """Build a deferred event's payload (``pending``, its unbuilt ``_pending``) and return
    its ``to_dict()``, filling the dict as the slots are set rather than reading them back
    (the recording writer builds nearly every event it writes this way; a field read builds
    through here too and drops the dict). Through a function made once per class (as
    :func:`_dict_maker`): a loop over the fields cost the writer 11.6k instructions an
    event more than reading a built one."""
    make = _MATERIALIZERS.get(type(event))
    if make is None:
        make = _materializer(type(event))
    return make(event, pending[0](*pending[3:]), pending[1], pending[2])


def _values_of(values: dict) -> dict:
    """The build of a payload built already (see :func:`built_payload`)."""
    return values


def built_payload(event, pending) -> dict:
    """A deferred event's ``to_dict()`` form, its payload built once, without setting its
    fields: the event stays deferred on the built payload, so a later read fills its fields
    from these same values (building nothing again) and a recording that is its only reader
    pays for no slot (setting a frozen event's slots, a wrapper call each, cost more than
    encoding the event). Keys in the build's order, which is the fields' for the engine's
    payloads; a field the build leaves out is left out here too (readers give it its
    default, as reading the event does), and the tensors the build read are let go."""
    build, seq, time = pending[:3]
    values = build(*pending[3:])
    if build is not _values_of:
        _set_pending(event, (_values_of, seq, time, values))
    return {"kind": type(event).KIND, "seq": seq, "time": time, **values}


_MATERIALIZERS: dict = {}


def _materializer(cls):
    """``(event, values, seq, time) -> its dict``, setting each field's slot from ``values``
    (the build's dict) by name, without a loop: one local per field, one call of the slot's
    setter each, one dict display. A payload that lacks a field or holds another name takes
    :func:`_materialize_fields`, which gives missing fields their defaults."""
    entries = _DEFERRED_FIELDS[cls]
    names = [name for name, _, _ in entries]
    namespace = {f"set{i}": set_raw for i, (_, set_raw, _) in enumerate(entries)}
    namespace.update(_set_seq=_set_seq, _set_time=_set_time, _set_pending=_set_pending,
                     _by_name=_materialize_fields, KeyError=KeyError)
    locals_ = [f"v{i}" for i in range(len(names))]
    body = [f"    if len(values) != {len(names)}:",
            "        return _by_name(event, values, seq, time)",
            "    try:",
            f"        {', '.join(locals_)}, = "
            + ", ".join(f"values[{name!r}]" for name in names) + ",",
            "    except KeyError:",
            "        return _by_name(event, values, seq, time)"]
    body += [f"    set{i}(event, v{i})" for i in range(len(names))]
    body += ["    _set_seq(event, seq)", "    _set_time(event, time)",
             "    _set_pending(event, False)",
             f"    return {{'kind': {cls.KIND!r}, 'seq': seq, 'time': time, "
             + ", ".join(f"{name!r}: v{i}" for i, name in enumerate(names)) + "}"]
    exec("def materialize(event, values, seq, time):\n" + "\n".join(body) + "\n", namespace)
    make = _MATERIALIZERS[cls] = namespace["materialize"]
    return make


def _materialize_fields(event, values: dict, seq, time) -> dict:
    """The general case of :func:`_materializer`'s functions, field by field."""
    cls = type(event)
    out = {"kind": cls.KIND, "seq": seq, "time": time}
    for name, set_raw, default in _DEFERRED_FIELDS[cls]:
        value = values[name] if name in values else default()
        set_raw(event, value)
        out[name] = value
    _set_seq(event, seq)
    _set_time(event, time)
    _set_pending(event, False)     # False: built here (by tapeviz, not from a file or a user)
    return out


def materialize(event) -> Event:
    """Build a deferred event's payload now (reading any field does the same); returns it."""
    try:
        if _get_pending(event):
            _materialize(event)
    except AttributeError:
        pass
    return event


def engine_built(event) -> bool:
    """True for an event tapeviz built itself with :func:`deferred` (its payload is already
    JSON-safe: summaries hold no NaN/Inf numbers); writers may encode it with a faster,
    less strict encoder."""
    try:
        return _get_pending(event) is False
    except AttributeError:
        return False


_new_event = object.__new__


def deferred(cls, build, *args) -> Event:
    """An event stamped like :func:`make` whose payload ``build(*args)`` (a dict of fields)
    runs on the first read of a field, ``to_dict()``, equality or ``repr``: never, for a
    subscriber that does not look. ``args`` must not change afterwards (tensors do not)."""
    event = _new_event(cls)
    _set_pending(event, (build, next(_seq), _now(), *args))
    return event


_FIELD_ORDER: dict = {}


def _field_order(cls) -> tuple:
    names = _FIELD_ORDER.get(cls)
    if names is None:
        names = _FIELD_ORDER[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names
