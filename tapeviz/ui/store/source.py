"""Event sources: anything with ``poll() -> list[Event]`` and an ``ended`` attribute.

:func:`as_source` turns what a user hands to the dashboard into one: a recording path
(loaded whole, or followed live with ``follow=True``), a list of events, an existing source,
or any object with a ``_tapeviz_event_source()`` method (a tape). The engine is never
imported here: tapes are duck-typed. :func:`store_for` is the server's cache of finished
recordings, already ingested, shared by its browser tabs.
"""
from __future__ import annotations

import os
import threading
from collections import OrderedDict


class ListSource:
    """A finished list of events, delivered in batches of ``batch`` by :meth:`poll`."""

    def __init__(self, items, batch: int | None = None):
        #: the source lines a loaded recording carries (file -> {line: text}), else none
        self.sources = getattr(items, "sources", None) or {}
        self._items = list(items)
        self.warnings = list(getattr(items, "warnings", None) or [])   # a Recording's
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


def own_events(events) -> ListSource:
    """A finished list of events this process emitted (a lesson's), with the source lines
    around their sites taken as a recording takes them (its own source, through linecache):
    never for events read from elsewhere, whose paths may name any file."""
    from ...recording.sources import SourceWindows, carry
    source = ListSource(events)
    carry(source._items, SourceWindows(), source.sources)
    return source


_STORES: "OrderedDict[tuple, object]" = OrderedDict()   # (path, mtime, size, limits) -> Store
_STORES_KEPT = 4
_STORES_LOCK = threading.Lock()


def load_events(path) -> list:
    """All events of a recording file: a :class:`~tapeviz.recording.Recording` (a list), with
    the ``sources`` it carries and ``warnings`` that say what was skipped or read differently."""
    from ...recording import load_recording
    return load_recording(path)


def store_for(path, max_tapes: int | None = None, max_calls: int = 200):
    """A :class:`~tapeviz.ui.store.store.Store` that ingested a finished recording, made once per
    process for the last few files: every browser tab of ``tapeviz serve`` (one file or a
    folder) shares it, so a second tab or a switch back to a 5,000-op recording parses and
    ingests nothing. Sharing is safe because nothing writes to a store after its ingest. A
    file that changed (its time or size) is read again."""
    from . import limits
    from .store import Store
    max_tapes = limits.KEEP_TAPES if max_tapes is None else max_tapes
    path = os.path.abspath(path)
    st = os.stat(path)
    key = (path, st.st_mtime_ns, st.st_size, max_tapes, max_calls)
    with _STORES_LOCK:
        hit = _STORES.get(key)
        if hit is not None:
            _STORES.move_to_end(key)
            return hit
    store = Store(max_tapes=max_tapes, max_calls=max_calls)
    events = load_events(path)
    store.ingest(events)
    store.warnings = list(events.warnings)
    store.sources = events.sources
    with _STORES_LOCK:
        _STORES[key] = store
        while len(_STORES) > _STORES_KEPT:
            _STORES.popitem(last=False)
    return store


def follow(path):
    """A live source on a growing recording."""
    from ...recording import follow_recording
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
