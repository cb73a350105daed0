"""A source ingested once for every view of it: :class:`Feed`, and the server's registry of
followed recordings (:func:`shared_feed`, :func:`release`).

Every browser tab that follows one file reads the same :class:`Feed`: one follower, one store,
so two tabs cost one ingestion. Each tab keeps its own selection and view state, and asks the
feed for more events from its periodic callback (:meth:`Feed.pump`). Ingestion takes small
time slices and steps aside for the user: while a tab answers an interaction, or for
``QUIET`` seconds after one, the feed ingests nothing (the backlog waits, and the page says
how far behind it is), so a click never queues behind seconds of parsing.
"""
from __future__ import annotations

import inspect
import os
import threading
import time
import weakref

#: seconds after a user's interaction during which the feed ingests nothing: the answer to a
#: click takes several turns of the server's event loop, each of which would wait behind a slice
QUIET = 0.4
#: seconds of ingestion at most per pump (a turn of the event loop)
SLICE = 0.04
#: share of the time ingestion may take while behind: after a slice of ``d`` seconds the
#: feed rests ``d * (1 / DUTY - 1)``, and the server reads the pages' messages meanwhile (a
#: click's answer takes several turns of its event loop, each of which waits for a slice)
DUTY = 0.5
#: events asked from the source at a time (a few ms of parsing and ingesting)
BATCH = 100


class Feed:
    """One event source and the :class:`~tapeviz.ui.store.store.Store` it fills, read by any number
    of views. ``clock``: seconds, monotonic (a test passes its own)."""

    def __init__(self, source, store, clock=time.monotonic):
        self.source = source
        self.store = store
        self.clock = clock
        self.users = 0                 # views holding it (the server's registry counts them)
        self._key = None
        self._interaction_at = float("-inf")
        self._rest_until = float("-inf")
        self._views: "weakref.WeakSet" = weakref.WeakSet()   # views that may be answering
        self._restarts_seen = getattr(source, "restarts", 0)
        try:             # a recording follower takes a slice size; other sources do not
            self._sliced = "max_events" in inspect.signature(source.poll).parameters
        except (TypeError, ValueError, AttributeError):
            self._sliced = False

    # ---- the user comes first ----------------------------------------------------------------
    def note_interaction(self) -> None:
        """A view handled a user's interaction (a click, a step, a tab): ingestion waits."""
        self._interaction_at = self.clock()

    def watch(self, view) -> None:
        """``view.answering()`` (True while it is still answering the user, e.g. a layout
        for a click running in a thread) holds ingestion back meanwhile."""
        self._views.add(view)

    def yielding(self) -> bool:
        """True while an interaction is being answered or was handled a moment ago."""
        if self.clock() - self._interaction_at < QUIET:
            return True
        return any(v.answering() for v in list(self._views))

    # ---- ingestion ---------------------------------------------------------------------------
    @property
    def ended(self) -> bool:
        return bool(getattr(self.source, "ended", False))

    def restarted(self) -> bool:
        """The source (a followed file) was replaced, truncated or rotated since the store
        was made: what follows is another run, for a new store."""
        return getattr(self.source, "restarts", 0) != self._restarts_seen

    def behind(self) -> int:
        """About how many events the source holds that are not ingested yet (0 if unknown)."""
        backlog = getattr(self.source, "backlog", None)
        return int(backlog()) if callable(backlog) else 0

    def pump(self, budget: float | None = SLICE, limit: int | None = None,
             force: bool = False) -> bool:
        """Ingest what the source has now: for up to ``budget`` seconds (None: no limit) or
        ``limit`` events, nothing while :meth:`yielding` (unless ``force``). True when the
        source had nothing more (or restarted: its next events belong to a new store)."""
        if not force and (self.yielding() or self.clock() < self._rest_until):
            return False
        if self.restarted():       # the new run alone, in a new store (views see it is new)
            self.store = new_store(self.source, self.store.max_tapes, self.store.max_calls)
            self._restarts_seen = getattr(self.source, "restarts", 0)
        start, n = self.clock(), 0
        try:
            while not self.restarted():      # (a follower's batch never spans two files)
                got = self._poll(BATCH if limit is None else min(BATCH, limit - n))
                if not got:
                    return True
                self.store.ingest(got)
                n += len(got)
                if limit is not None and n >= limit:
                    return False
                if budget is not None and self.clock() - start >= budget:
                    return False
            return True
        finally:
            took = self.clock() - start
            self._rest_until = start + took / DUTY

    def _poll(self, n: int) -> list:
        return self.source.poll(max_events=n) if self._sliced else self.source.poll()

    def close(self) -> None:
        close = getattr(self.source, "close", None)
        if callable(close):
            close()


_FEEDS: dict = {}
_FEEDS_LOCK = threading.Lock()


def shared_feed(path, max_tapes: int | None = None, max_calls: int = 200) -> Feed:
    """The feed following recording ``path`` in this process, made by the first view that
    asks and shared by the next ones; each caller :func:`release`\\ s it when its view is gone
    (the last one closes the file)."""
    from ..store.source import follow
    key = (os.path.abspath(path), max_tapes, max_calls)
    with _FEEDS_LOCK:
        feed = _FEEDS.get(key)
        if feed is None:
            source = follow(path)
            feed = _FEEDS[key] = Feed(source, new_store(source, max_tapes, max_calls))
            feed._key = key
        feed.users += 1
        return feed


def release(feed: Feed) -> None:
    """One view of ``feed`` is gone; the last one drops it and closes its source."""
    with _FEEDS_LOCK:
        feed.users -= 1
        if feed.users > 0:
            return
        if _FEEDS.get(feed._key) is feed:
            del _FEEDS[feed._key]
    feed.close()


def new_store(source, max_tapes: int | None, max_calls: int):
    """An empty store for ``source``, showing the source lines it carries (a recording's,
    which a follower fills as it reads; a live view's own)."""
    from ..store.store import Store
    store = Store(max_tapes=max_tapes, max_calls=max_calls)
    sources = getattr(source, "sources", None)
    if isinstance(sources, dict):
        store.sources = sources
    return store
