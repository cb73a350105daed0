"""Following a live source: the part of :class:`~tapeviz.ui.dashboard.Dashboard` that polls it.

A periodic callback drains the source in batches, for at most ``TICK_BUDGET`` seconds a tick
and inside one held document message, and redraws the views at most once a second, so a fast
producer never floods the browser. The callback holds the dashboard weakly: a live view dropped
in a notebook is not kept (and its events paid for) for ever.
"""
from __future__ import annotations

import inspect
import time
import weakref

import panel as pn


class LiveFollowing:
    """Mixed into :class:`~tapeviz.ui.dashboard.Dashboard` (which has ``source``, ``store``,
    ``graph``, ``period``, ``refresh`` and the graph pane's ``_update_graph``)."""

    def _source_done(self) -> bool:
        return bool(getattr(self.source, "ended", False))

    def _start_polling(self):
        if self._callback is None and not self._source_done():
            # the callback holds the view weakly and stops once the view is gone: a live
            # view dropped in a notebook must not be kept (and its events paid for) for ever
            view = weakref.ref(self)
            callback = None

            def tick():
                me = view()
                if me is None:
                    callback.stop()
                else:
                    me._tick()
            callback = self._callback = pn.state.add_periodic_callback(tick, period=self.period)

    # Ingest at most this long per tick while live: the page's clicks and the server's other
    # messages wait while Python ingests, so a backlog (a fast producer, or a finished run
    # appended at once) is taken a slice per tick instead of blocking for seconds.
    TICK_BUDGET = 0.25

    def _restarted(self) -> bool:
        """The followed file was replaced, truncated or rotated (the follower says so in its
        warnings, which the status line shows): what follows is another run."""
        return getattr(self.source, "restarts", 0) != self._restarts_seen

    def _tick(self):
        if self._restarted():      # the new run alone, in a fresh store: load() as for a pick
            self.load(self.source, title=self.title)
            return
        with self.graph.held():      # (the graph's data last in the message: see held)
            # redraw the views at most once a second while events stream
            exhausted = self._drain(budget=self.TICK_BUDGET,
                                    refresh=time.monotonic() - self._last_refresh >= 1.0)
        if exhausted and self._source_done():
            with self.graph.held():
                self.refresh()
                self._mark_ended()
            if self._callback is not None:
                self._callback.stop()
                self._callback = None

    def _poll(self) -> list:
        if self._sliced is None:       # a recording follower takes a slice size; others don't
            try:
                self._sliced = "max_events" in inspect.signature(self.source.poll).parameters
            except (TypeError, ValueError):
                self._sliced = False
        return self.source.poll(max_events=1_000) if self._sliced else self.source.poll()

    def _drain(self, limit=None, refresh=True, budget=None) -> bool:
        """Ingest what the source has now (up to ``limit`` events, or for up to ``budget``
        seconds), then update the views. True when the source had nothing more."""
        start, n, exhausted = time.monotonic(), 0, self._restarted()
        while not self._restarted():      # (a follower's batch never spans two files)
            got = self._poll()
            if not got:
                exhausted = True
                break
            self.store.ingest(got)
            n += len(got)
            if limit is not None and n >= limit:
                break
            if budget is not None and time.monotonic() - start >= budget:
                break
        if refresh or self._drawn_graph is None:
            self.refresh(force=not n and self._drawn_graph is None)
        return exhausted

    def _mark_ended(self):
        self._ended_shown = True
        self._update_graph(force=True)
        self._update_status()


def _weakly(method):
    """`method` as a callable that does not keep its object alive."""
    ref = weakref.WeakMethod(method)

    def call(*args, **kwargs):
        bound = ref()
        if bound is not None:
            return bound(*args, **kwargs)
    return call
