"""The dashboard: the op graph, the inspector, the backward player, the why cards, the
variables, the training charts and the Jacobians of a run, as one Panel viewer.

It reads an event source (see :mod:`tapeviz.ui.store.source`) into a
:class:`~tapeviz.ui.store.store.Store` and draws from the store only. :class:`Dashboard` is
thin: it makes the shared :class:`~tapeviz.ui.dashboard.state.DashboardState` and graph plot,
makes one component per entry of :data:`COMPONENTS` and lays them out by their ``area``; the
components react to the state and to each other only through it.

To add a panel: write a :class:`~tapeviz.ui.dashboard.state.Component` in a module of its own
and append its class to :data:`COMPONENTS` (CONTRIBUTING.md, "Add a view").
"""
from __future__ import annotations

from functools import partial

import panel as pn

from ...private_apis import lock_panel_events, skip_mathjax, skip_webgl
from ..graph.plot import GraphView
from ..store.store import Store
from .backward_player import BackwardPlayer
from .charts import TrainingCharts
from .flight_timeline import FlightTimeline
from .graph_panel import GraphPanel
from .inspector import Inspector
from .jacobian_view import JacobianView
from .live import LiveFollower, feed_for, weakly
from .run_picker import RunPicker
from .source_lines import SourceLines
from .state import DashboardState
from .variables_table import VariablesTable
from .why import WhyCards

skip_mathjax()      # every page and notebook output with a dashboard imports this module
skip_webgl()        # (server pages only)

#: The components a dashboard is made of, in the order they are refreshed and, within an
#: area, laid out: ``top`` (the toolbar row and above the graph), ``main`` (the graph's
#: place), ``side`` (tabs beside the graph), ``bottom`` (tabs under it).
COMPONENTS = [RunPicker, FlightTimeline, GraphPanel, Inspector, BackwardPlayer, WhyCards,
              VariablesTable, TrainingCharts, JacobianView, SourceLines]


class Dashboard(pn.viewable.Viewer):
    """The full dashboard over an event source, a list of events, a recording path or a tape.

    ``parts`` holds its components by label (``d.parts["Why"]``), ``state`` what they show,
    ``plot`` the graph they share.

    >>> import tapeviz.ui as ui
    >>> d = ui.Dashboard([], title="empty")     # doctest: +SKIP
    """

    def __init__(self, source=None, title: str = "tapeviz", follow: bool = False,
                 max_tapes: int = 50, max_calls: int = 200, height: int = 600,
                 store: Store | None = None, components=None, **params):
        super().__init__(**params)
        lock_panel_events()        # a click right after a tab change draws, as any other
        # (a store that already ingested a finished run is read only here: tabs may share
        # it, as they share a followed file's feed)
        feed = feed_for(source, follow, store, max_tapes, max_calls)
        self.state = DashboardState(title=title, store=feed.store)
        self.plot = GraphView(height=height)
        self.live = LiveFollower(self.state, self.plot, feed, redraw=self.refresh,
                                 reload=self.load)
        self.parts = {cls.label: cls(self.state, self.plot)
                      for cls in (COMPONENTS if components is None else components)}
        self._layout = self._lay_out()
        self.state.param.watch(self._on_tab_asked, "tab")
        self.state.param.watch(self._on_node, "node")
        self.live.watch_user(self._layout)
        self._fill()
        # (weakly: Panel keeps the onload callbacks of a document that may never load, and
        # a view kept alive by them keeps its source's event subscription on for ever)
        pn.state.onload(weakly(self.plot.fit))       # once the page has its real size
        if self.state.live:
            pn.state.onload(weakly(self.live.start))

    @property
    def store(self) -> Store:
        return self.state.store

    def __panel__(self):
        return self._layout

    # ---- layout ------------------------------------------------------------------------------
    def _lay_out(self):
        parts = list(self.parts.values())
        in_area = {area: [p for p in parts if p.area == area]
                   for area in ("top", "main", "side", "bottom")}
        # each side tab as tall as its content, and at most as tall as the graph (it scrolls
        # inside): a tall Why tab never pushes the variables and charts down the page. Not
        # dynamic: Panel 1.9 gives a tab rendered late a stylesheet link to its CDN
        # (dist/css/loading.css), which an offline page cannot load
        side_tab = {"styles": {"max-height": f"{self.plot.figure.height + 40}px",
                               "overflow-y": "auto"}}
        self.side = pn.Tabs(*[(p.label, p.panel(**side_tab)) for p in in_area["side"]],
                            width=440, dynamic=False, css_classes=["tv-side"])
        self.bottom = pn.Tabs(*[(p.label, p.panel()) for p in in_area["bottom"]],
                              sizing_mode="stretch_width", dynamic=False)
        self._tabs = {p.label: (self.side, i) for i, p in enumerate(in_area["side"])}
        self._tabs.update({p.label: (self.bottom, i) for i, p in enumerate(in_area["bottom"])})
        for part in parts:
            part.shown = partial(self._shown, part)
        self.bottom.param.watch(self._on_bottom_tab, "active")
        toolbar = [w for p in parts for w in p.toolbar()]
        return pn.Column(
            pn.Row(*toolbar, sizing_mode="stretch_width"),
            self.live.panel(), *[p.panel() for p in in_area["top"]],
            pn.Row(*[p.panel() for p in in_area["main"]], self.side,
                   sizing_mode="stretch_width"),
            self.bottom, sizing_mode="stretch_width", css_classes=["tv-dashboard"])

    def _shown(self, part) -> bool:
        tabs, i = self._tabs.get(part.label, (None, None))
        return tabs is None or tabs.active == i

    def _on_bottom_tab(self, event):
        for part in self.parts.values():
            if part.lazy and self._shown(part):
                part.guarded(part.refresh)

    def _on_tab_asked(self, event):
        if event.new in self._tabs:
            tabs, i = self._tabs[event.new]
            tabs.active = i

    def _on_node(self, event):
        # a click on a node shows the inspector, unless the player is shown: the click moved
        # it to the node's step
        backward = self._tabs.get(BackwardPlayer.label)
        if event.new and not (backward and self.side.active == backward[1]):
            self.state.bring_forward(Inspector.label)

    # ---- the run shown -----------------------------------------------------------------------
    def refresh(self, force: bool = False) -> None:
        """Update every component from the store (throttled graph re-layout while live)."""
        with self.state.updating(), self.live.timing():
            for part in self.parts.values():
                if not part.lazy or self._shown(part):
                    part.guarded(part.refresh, force)
            self.live.guarded(self.live.refresh)

    def _fill(self):
        with self.state.updating():
            self.live.fill()
            self.refresh(force=True)
            if not self.state.live:
                self.live.mark_ended()

    def load(self, source, title: str | None = None, follow: bool = False,
             store: Store | None = None) -> None:
        """Show another run in this dashboard. The widgets and Bokeh models stay and get the
        new run's data (a page already showing them gets no new models), and nothing of the
        old run is kept: store, selection, expanded groups, player step, highlights, cards,
        charts. ``store``: one that already ingested a finished run (read only here, so
        sessions may share it); ``source`` is then None. ``source`` may be a
        :class:`~tapeviz.ui.serve.live_feed.Feed` (a followed file shared by tabs)."""
        feed = feed_for(source, follow, store, self.store.max_tapes,
                        self.store.max_calls)      # may raise: the old run stays
        self.live.use(feed)
        with self.plot.held(), self.state.updating():    # one message to the page
            for part in [*self.parts.values(), self.live]:
                part.alert.visible = False
                part.reset()
            self.state.graph = None
            self.state.param.update(store=feed.store, title=title or self.state.title,
                                    tape=None, call=None, node="", pinned=False, ended=False,
                                    expanded=frozenset(), closed=frozenset(),
                                    layout_busy=False)
            self.plot.select("")
            self.plot.clear_highlights()
            self._fill()
            if self.state.graph is None or self.state.layout_busy:
                self.plot.clear()    # not the old run's graph while the new one is laid out
        if self.state.live:
            self.live.start()

    def select_call(self, call_id) -> None:
        """Show a gradient call and its tape (the gallery opens a lesson on its first)."""
        self.state.show_call(call_id)
