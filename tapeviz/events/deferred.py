"""Payloads built on first read, so a subscriber that only counts events pays for no
summaries, refs or sites.

An event the engine emits per op is made with its ``seq`` and ``time`` set and its payload
fields left unset; it holds ``(build, args)`` in its ``_build`` slot instead. Reading an unset
slot raises ``AttributeError``, and Python then calls the class's ``__getattr__``
(:meth:`Payload.__getattr__`): it runs ``build(*args)`` once, sets every field from the dict
that returns (a field the dict leaves out takes its default), lets go of the builder and its
arguments, and returns the field. From then on the event is an ordinary frozen dataclass, and
``__getattr__`` is never called for it again.

``_build`` is ``None`` for an event made the ordinary way (by hand, ``from_dict``), the
``(build, args)`` pair while a payload waits, and ``False`` once tapeviz built it
(:func:`engine_built`). Imports: stdlib only.
"""
from __future__ import annotations

import dataclasses
import itertools
from time import time as _now
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .kinds import Event

_seq = itertools.count(1)         # the process-wide sequence number of events
_set = object.__setattr__         # how a frozen dataclass sets its own fields (as its __init__)


class Payload:
    """The base of every event: the slot an unbuilt payload waits in, and its first read."""
    __slots__ = ("_build", "__weakref__")

    def __getattr__(self, name):
        # reached only when ordinary lookup fails: a field of an event not built yet
        if name.startswith("_") or not build_payload(self):
            raise AttributeError(f"{type(self).__name__!r} event has no attribute {name!r}")
        return object.__getattribute__(self, name)


def build_payload(event) -> bool:
    """Build ``event``'s payload if it waits for one; False when there was nothing to build.
    Two threads may build at once: both set the same values."""
    pending = pending_build(event)
    if not pending:
        return False
    build, args = pending
    values = build(*args)
    for f in _payload_fields(type(event)):
        if f.name in values:
            _set(event, f.name, values[f.name])
        elif f.default is not dataclasses.MISSING:
            _set(event, f.name, f.default)
        else:
            _set(event, f.name, f.default_factory())
    _set(event, "_build", False)
    return True


def pending_build(event):
    """``(build, args)`` while ``event``'s payload waits to be built; False once built by the
    engine; None for an event made whole (or a copy). The flight recorder's memory count
    reads the arguments of held events (recording/flight_memory.py)."""
    try:
        return object.__getattribute__(event, "_build")
    except AttributeError:     # made without __init__ (a copy): nothing waits
        return None


_FIELDS: dict = {}


def _payload_fields(cls) -> tuple:
    """The fields after ``seq`` and ``time``."""
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = _FIELDS[cls] = dataclasses.fields(cls)[2:]
    return fields


def deferred(cls, build, *args) -> Event:
    """An event stamped with the next sequence number and the current time whose payload
    ``build(*args)`` (a dict of fields) runs on the first read of a field, ``to_dict()``,
    equality or ``repr``: never, for a subscriber that does not look. ``args`` must not change
    afterwards (tensors do not)."""
    return deferred_at(cls, next(_seq), _now(), build, args)


def deferred_at(cls, seq: int, time: float, build, args: tuple) -> Event:
    """:func:`deferred` with its sequence number and time taken earlier: how a subscriber that
    held the engine's event unmade (``subscribe(holds=...)``) makes it when it wants it, the
    same event the others got."""
    event = object.__new__(cls)     # (TypeError for a class that is not an event's)
    _set(event, "seq", seq)
    _set(event, "time", time)
    _set(event, "_build", (build, args))
    return event


def preset(event, **fields) -> None:
    """Set some payload fields of a deferred event now (cheap facts its builder also returns):
    reading them builds nothing; the rest waits for the first read as before."""
    for name, value in fields.items():
        _set(event, name, value)


def materialize(event) -> Event:
    """Build a deferred event's payload now (reading any field does the same); returns it."""
    build_payload(event)
    return event


def unbuilt(event) -> bool:
    """True while ``event``'s payload waits to be built."""
    return bool(pending_build(event))


def engine_built(event) -> bool:
    """True for an event tapeviz built itself with :func:`deferred` (its payload is already
    JSON-safe: summaries hold no NaN/Inf numbers); writers may encode it with a faster,
    less strict encoder."""
    return pending_build(event) is False


class Lazy:
    """A field value (or an item of a list field) that :func:`make` computes as
    ``fn(*args)`` only when the event's payload is first read (the engine's tensor refs:
    their summaries are most of an event's cost). Never part of a built event."""
    __slots__ = ("fn", "args")

    def __init__(self, fn, *args):
        self.fn = fn
        self.args = args

    def __repr__(self):
        return f"<tapeviz.events.Lazy {getattr(self.fn, '__name__', self.fn)}>"


def make(cls: type[Event], **fields) -> Event:
    """Build an event stamped with the next sequence number and the current time.

    Fields holding :class:`Lazy` values (directly or as list items) are computed on first
    read (see :func:`deferred`)."""
    for v in fields.values():
        if type(v) is Lazy or (type(v) is list and v and type(v[0]) is Lazy):
            return deferred(cls, _resolve_fields, fields)
    return cls(seq=next(_seq), time=_now(), **fields)


def _resolve_fields(fields: dict) -> dict:
    out = {}
    for k, v in fields.items():
        if type(v) is Lazy:
            v = v.fn(*v.args)
        elif type(v) is list and v:
            v = [x.fn(*x.args) if type(x) is Lazy else x for x in v]
        out[k] = v
    return out
