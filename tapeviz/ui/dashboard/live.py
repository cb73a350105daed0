"""Following a live source, and the status line that says how it goes: :class:`LiveFollower`.

The dashboard reads its source through a :class:`~tapeviz.ui.serve.live_feed.Feed` (shared by
every tab of a server that follows one file). A periodic callback asks the feed for a small
slice of events and redraws the views when they are due: at most once a second, less often
when a redraw or a layout took long, and never while the user waits for an answer (the feed
then ingests nothing either), nor before the page has painted the last one (see
:mod:`~tapeviz.ui.dashboard.page_ack`). The status line says how far behind the source the page
is meanwhile, whether it is live or ended, and what the recording warned about. The callback
holds the follower weakly: a live view dropped in a notebook is not kept (and its events paid
for) for ever.
"""
from __future__ import annotations

import contextlib
import time
import weakref

import panel as pn
import param

from ...recording.crash import CRASH_PREFIX
from ..render.html import esc
from ..serve.live_feed import Feed, new_store
from ..store.source import as_source
from .page_ack import PageAck
from .state import Component, html_pane

#: redraws are spaced by at least this many times what the last one took (on the server or
#: in the page) or the last graph layout: a slow redraw never fills the server's or the
#: page's time
SPACING = 4.0
#: events behind the source from which the page says it is catching up
CATCHING_UP_AT = 2_000


def feed_for(source, follow: bool, store, max_tapes: int, max_calls: int) -> Feed:
    """The feed to read: ``source`` itself when it is one (a server's shared feed), else a
    feed of one view alone over ``source`` and ``store`` (or a new store)."""
    if isinstance(source, Feed):
        return source
    source = as_source(source, follow_live=follow)
    return Feed(source, store if store is not None else new_store(source, max_tapes, max_calls))


class LiveFollower(Component):
    """Polls the feed of a live source and redraws the dashboard when due (``redraw``: the
    dashboard's refresh; ``reload``: its load, for a source that restarted); shows the
    status line."""

    label = "Status"
    area = "top"

    period = param.Integer(default=100, doc="ms between polls of a live source")

    def __init__(self, state, plot, feed: Feed, redraw, reload, **params):
        super().__init__(state, plot, **params)
        self.feed = feed
        self._redraw, self._reload = redraw, reload
        self.page_ack = PageAck(plot.figure)     # how far the page is behind
        self.status = html_pane('<span class="tv-small">loading…</span>',
                                css_classes=["tv-status"])
        self._callback = None
        self.reset()
        feed.watch(self)

    def body(self) -> list:
        return [self.status]

    def reset(self) -> None:
        self._last_refresh = 0.0
        self._refresh_took = 0.0
        self._refreshed_version = None
        self._behind_shown = 0
        self.state.live = not self.feed.ended

    @property
    def source(self):
        return self.feed.source

    def use(self, feed: Feed) -> None:
        """Follow ``feed`` from now on (another run loaded)."""
        self.stop()
        if feed is not self.feed:
            feed.watch(self)
        self.feed = feed
        self.reset()

    # ---- the user's interactions -------------------------------------------------------------
    def watch_user(self, layout) -> None:
        """Every change the user can make in ``layout`` (and on the graph) tells the feed to
        step aside for a moment."""
        for widget in layout.select(pn.widgets.Widget):
            names = [n for n in ("value", "clicks", "selection") if n in widget.param]
            if names:
                widget.param.watch(self._on_interaction, names[:1])
        for tabs in layout.select(pn.Tabs):
            tabs.param.watch(self._on_interaction, ["active"])
        self.plot.param.watch(self._on_interaction, ["selected", "box_clicked"])

    def _on_interaction(self, *events):
        if self.state.by_user:      # the view's own updates are not the user's
            self.feed.note_interaction()

    def answering(self) -> bool:
        """True while this view still answers the user (a layout for a click runs)."""
        return self.state.layout_busy and self.state.layout_for_user

    # ---- polling -----------------------------------------------------------------------------
    def start(self):
        """Poll the source (once the page has loaded)."""
        if self._callback is None and self.state.live:
            # the callback holds the view weakly and stops once the view is gone: a live
            # view dropped in a notebook must not be kept (and its events paid for) for ever
            view = weakref.ref(self)
            callback = None

            def tick():
                me = view()
                if me is None:
                    callback.stop()
                else:
                    me.tick()
            callback = self._callback = pn.state.add_periodic_callback(tick, period=self.period)

    def stop(self):
        if self._callback is not None:
            self._callback.stop()
            self._callback = None

    def fill(self):
        """A new view's first events: all of a finished source, up to 50,000 of a live one
        that nobody read yet (a shared feed other tabs read is shown as it is)."""
        if self.feed.ended:
            self.feed.pump(budget=None, force=True)
        elif self.store.n_events == 0:
            self.feed.pump(budget=None, limit=50_000, force=True)

    @contextlib.contextmanager
    def timing(self):
        """Time a redraw of the views (the next one waits several times as long)."""
        start = self._last_refresh = time.monotonic()
        self._refreshed_version = self.store.version
        try:
            yield
        finally:
            self._refresh_took = time.monotonic() - start

    def tick(self):
        feed = self.feed
        with self.state.updating():
            if feed.store is not self.store:    # the source restarted: the new run alone
                self._reload(feed, title=self.state.title)
                return
            exhausted = feed.pump()
            if feed.store is not self.store:
                return                           # (shown from the next tick)
            if exhausted and feed.ended:
                with self.plot.held():
                    self._redraw()
                    self.mark_ended()
                self.stop()
                return
            if feed.yielding() or not self.page_ack.caught_up():
                return     # the user waits for an answer, or the page for the last redraw
            due = time.monotonic() - self._last_refresh >= self._refresh_spacing()
            if due and (self.store.version != self._refreshed_version or
                        feed.behind() != self._behind_shown):
                with self.plot.held():     # (the graph's data last in the message)
                    self._redraw()
                if served():
                    self.page_ack.mark_sent()

    def _refresh_spacing(self) -> float:
        """Seconds between two redraws: at least a second, and several times what the last
        one took here and in the page."""
        return max(1.0, SPACING * max(self._refresh_took, self.page_ack.took))

    def mark_ended(self):
        self.state.live = False
        self.state.ended = True
        self.guarded(self.refresh)

    # ---- the status line ---------------------------------------------------------------------
    @param.depends("state.layout_busy", watch=True)
    def _on_layout(self):
        self.guarded(self.refresh)

    def refresh(self, force: bool = False) -> None:
        s, state = self.store, self.state
        parts = [f"{s.n_events} events", s.counts_text()]
        live = state.live = not self.feed.ended
        # a tape's own view polls on after its `with` block, for the calls it may yet answer,
        # but only a tape still recording is live
        finished_tape = live and getattr(self.source, "recording", True) is False
        badge = ('<span class="tv-badge tv-ended" style="background:#eee" title="its with '
                 'block has exited; gradient calls it answers still show here">tape '
                 'finished</span>' if finished_tape else
                 '<span class="tv-badge" style="background:#d4edda">live</span>' if live else
                 '<span class="tv-badge tv-ended" style="background:#eee">stream ended</span>'
                 if state.ended else "")
        warns = getattr(self.source, "warnings", None) or s.warnings
        # the exception that ended the run has its own line, always shown (not one warning
        # among others): without it a crashed run reads as a clean finish
        crash = next((w for w in warns if w.startswith(CRASH_PREFIX)), None)
        warns = [w for w in warns if w is not crash]
        lay = self.plot.layout
        extra = ""
        if state.layout_busy:
            extra += ' <span class="tv-badge tv-busy">laying out the graph…</span>'
        if lay is not None and lay.error:
            extra += f' <span class="tv-err">layout: {esc(lay.error)} (simple layout used)</span>'
        if live:
            extra += self._behind_badge()
        if warns:
            extra += f' <span class="tv-err">{esc(len(warns))} recording warning(s): {esc(warns[-1])}</span>'
        reason = getattr(self.source, "reason", None)
        if not live and reason and reason != "closed":
            extra += f' <span class="tv-small">({esc(reason)})</span>'
        if crash:
            extra += (f'<div class="tv-err tv-crash"><b>{esc(CRASH_PREFIX.strip())}</b> '
                      f'{esc(crash[len(CRASH_PREFIX):])}</div>')
        self.status.object = (f'<span class="tv-small"><b>{esc(state.title)}</b> · '
                              f'{esc(" · ".join(parts))}</span> {badge}{extra}')

    def _behind_badge(self) -> str:
        """"catching up" while the view is well behind its source, else nothing."""
        behind = self._behind_shown = self.feed.behind()
        if behind < CATCHING_UP_AT:
            return ""
        return (' <span class="tv-badge tv-behind" style="background:#fff3cd">catching up: '
                f'{behind:,} events behind</span>')


def served() -> bool:
    """True inside a served session (not a notebook, not a test)."""
    doc = pn.state.curdoc
    return doc is not None and getattr(doc, "session_context", None) is not None


def weakly(method):
    """`method` as a callable that does not keep its object alive."""
    ref = weakref.WeakMethod(method)

    def call(*args, **kwargs):
        bound = ref()
        if bound is not None:
            return bound(*args, **kwargs)
    return call
