"""Event sources: anything with ``poll() -> list[Event]`` and an ``ended`` attribute.

:func:`as_source` turns what a user hands to the dashboard into one: a recording path
(loaded whole, or followed live with ``follow=True``), a list of events, an existing source,
or any object with a ``_tapeviz_event_source()`` method (a tape). The engine is never
imported here: tapes are duck-typed.
"""
from __future__ import annotations

import os
from collections import OrderedDict


class ListSource:
    """A finished list of events, delivered in batches of ``batch`` by :meth:`poll`."""

    def __init__(self, items, batch: int | None = None):
        self._items = list(items)
        self._pos = 0
        self._batch = batch

    @property
    def ended(self) -> bool:
        return self._pos >= len(self._items)

    def poll(self) -> list:
        end = len(self._items) if self._batch is None else self._pos + self._batch
        out = self._items[self._pos:end]
        self._pos += len(out)
        return out


_LOADED: "OrderedDict[tuple, tuple]" = OrderedDict()    # (path, mtime, size) -> events
_LOADED_FILES = 4


def load_events(path) -> list:
    """All events of a recording file. A finished file is parsed once per process: every
    browser tab of ``tapeviz serve`` shares the (read-only) events instead of re-reading
    megabytes of JSON while the user waits."""
    try:
        st = os.stat(path)
    except OSError:
        st = None
    key = (os.path.abspath(path), st.st_mtime_ns, st.st_size) if st else None
    hit = _LOADED.get(key) if key else None
    if hit is not None:
        _LOADED.move_to_end(key)
        return list(hit)
    events = _load_events(path)
    if key:
        _LOADED[key] = tuple(events)
        while len(_LOADED) > _LOADED_FILES:
            _LOADED.popitem(last=False)
    return events


def _load_events(path) -> list:
    from ..recording import load_recording
    return list(load_recording(path))


def follow(path):
    """A live source on a growing recording."""
    from ..recording import follow_recording
    return follow_recording(path)


def as_source(obj, follow_live: bool = False):
    """An event source for ``obj`` (see the module docstring)."""
    if obj is None:
        return ListSource([])
    if hasattr(obj, "_tapeviz_event_source"):
        return obj._tapeviz_event_source()
    if hasattr(obj, "poll") and hasattr(obj, "ended"):
        return obj
    if isinstance(obj, (str, os.PathLike)):
        return follow(obj) if follow_live else ListSource(load_events(obj))
    if isinstance(obj, (list, tuple)):
        return ListSource(obj)
    raise TypeError(f"tapeviz.ui: cannot show {type(obj).__name__}: pass a recording path, a "
                    "list of events, an event source or a tape")


def label_of(obj) -> str:
    if isinstance(obj, (str, os.PathLike)):
        return os.path.basename(os.fspath(obj))
    return ""
