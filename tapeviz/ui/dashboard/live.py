"""Following a live source: the part of :class:`~tapeviz.ui.dashboard.dashboard.Dashboard` that polls it.

The view reads its source through a :class:`~tapeviz.ui.serve.live_feed.Feed` (shared by every tab
of a server that follows one file). A periodic callback asks the feed for a small slice of
events and redraws the views when they are due: at most once a second, less often when a
redraw or a layout took long, and never while the user waits for an answer (the feed then
ingests nothing either), nor before the page has painted the last one (see
:mod:`~tapeviz.ui.dashboard.page_ack`). The page says how far behind the source it is meanwhile. The callback
holds the dashboard weakly: a live view dropped in a notebook is not kept (and its events paid
for) for ever.
"""
from __future__ import annotations

import contextlib
import time
import weakref

import panel as pn

from ..serve.live_feed import Feed, new_store
from ..store.source import as_source

#: redraws are spaced by at least this many times what the last one took (on the server or
#: in the page) or the last graph layout: a slow redraw never fills the server's or the
#: page's time
SPACING = 4.0
#: events behind the source from which the page says it is catching up
CATCHING_UP_AT = 2_000


class LiveFollowing:
    """Mixed into :class:`~tapeviz.ui.dashboard.dashboard.Dashboard` (which has ``store``, ``graph``,
    ``period``, ``refresh``, its widgets and the graph pane's ``_update_graph``)."""

    @property
    def source(self):
        return self.feed.source

    def _feed_for(self, source, follow: bool, store, max_tapes: int, max_calls: int) -> Feed:
        """The feed to read: ``source`` itself when it is one (a server's shared feed),
        else a feed of this view alone over ``source`` and ``store`` (or a new store)."""
        if isinstance(source, Feed):
            return source
        source = as_source(source, follow_live=follow)
        return Feed(source, store if store is not None else
                    new_store(source, max_tapes, max_calls))

    def _source_done(self) -> bool:
        return self.feed.ended

    # ---- the user's interactions -------------------------------------------------------------
    def _watch_interactions(self):
        """Every change the user can make tells the feed to step aside for a moment."""
        watched = [(self.graph, ["selected", "box_clicked"]), (self.player, ["value"]),
                   (self.side, ["active"]), (self.bottom, ["active"]),
                   (self.tape_select, ["value"]), (self.call_select, ["value"]),
                   (self.search, ["value"]), (self.line_select, ["value"]),
                   (self.variables, ["selection"])]
        watched += [(b, ["clicks"]) for b in (self.fit_button, self.expand_button,
                                               self.collapse_button, self.bp_nan,
                                               self.bp_zero, self.bp_node)]
        for widget, names in watched:
            widget.param.watch(self._on_interaction, names)
        self.feed.watch(self)

    def _on_interaction(self, *events):
        if not self._view_updates:      # the view's own updates are not the user's
            self.feed.note_interaction()

    @contextlib.contextmanager
    def _updating_views(self):
        """Changes made meanwhile are the view's, not the user's."""
        self._view_updates += 1
        try:
            yield
        finally:
            self._view_updates -= 1

    def answering(self) -> bool:
        """True while this view still answers the user (a layout for a click runs)."""
        return self.layout_busy and self._layout_for_user

    # ---- polling -----------------------------------------------------------------------------
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

    def _fill(self):
        """A new view's first events: all of a finished source, up to 50,000 of a live one
        that nobody read yet (a shared feed other tabs read is shown as it is)."""
        if self._source_done():
            self.feed.pump(budget=None, force=True)
        elif self.store.n_events == 0:
            self.feed.pump(budget=None, limit=50_000, force=True)
        self.refresh(force=True)

    def _tick(self):
        feed = self.feed
        with self._updating_views():
            if feed.store is not self.store:    # the source restarted: the new run alone
                self.load(feed, title=self.title)
                return
            exhausted = feed.pump()
            if feed.store is not self.store:
                return                           # (shown from the next tick)
            if exhausted and self._source_done():
                with self.graph.held():
                    self.refresh()
                    self._mark_ended()
                if self._callback is not None:
                    self._callback.stop()
                    self._callback = None
                return
            if feed.yielding() or not self.page_ack.caught_up():
                return     # the user waits for an answer, or the page for the last redraw
            due = time.monotonic() - self._last_refresh >= self._refresh_spacing()
            if due and (self.store.version != self._refreshed_version or
                        feed.behind() != self._behind_shown):
                with self.graph.held():     # (the graph's data last in the message)
                    self.refresh()
                if _served():
                    self.page_ack.mark_sent()

    def _refresh_spacing(self) -> float:
        """Seconds between two redraws: at least a second, and several times what the last
        one took here and in the page."""
        return max(1.0, SPACING * max(self._refresh_took, self.page_ack.took))

    def _redraw_spacing(self) -> float:
        """Seconds between two layouts of a live graph: at least a second, and several
        times what the last layout took."""
        return max(1.0, SPACING * self._layout_took)

    def _behind_badge(self) -> str:
        """"catching up" while the view is well behind its source, else nothing."""
        behind = self._behind_shown = self.feed.behind() if not self._source_done() else 0
        if behind < CATCHING_UP_AT:
            return ""
        return (' <span class="tv-badge tv-behind" style="background:#fff3cd">catching up: '
                f'{behind:,} events behind</span>')

    def _mark_ended(self):
        self._ended_shown = True
        self._update_graph(force=True)
        self._update_status()


def _served() -> bool:
    doc = pn.state.curdoc
    return doc is not None and getattr(doc, "session_context", None) is not None


def _weakly(method):
    """`method` as a callable that does not keep its object alive."""
    ref = weakref.WeakMethod(method)

    def call(*args, **kwargs):
        bound = ref()
        if bound is not None:
            return bound(*args, **kwargs)
    return call
