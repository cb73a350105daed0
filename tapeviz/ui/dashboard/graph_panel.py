"""The graph pane: draws the shown tape's graph, finds nodes by name or op, opens and closes
groups. It keeps ``state.node`` and the plot's selection in step, and bumps ``state.drawn``
when a graph is drawn (the components that draw on it then do).

A large graph without a cached layout is laid out by Graphviz in a thread when served, and
drawn back on the session's event loop; while events stream, re-layout is debounced.
"""
from __future__ import annotations

import threading
import time
from functools import partial

import panel as pn
import param

from ..graph import piecewise_layout
from ..graph.group import collapse
from .live import SPACING, served
from .state import Component, html_pane

THREAD_LAYOUT_ABOVE = 150      # nodes: larger uncached layouts run in a thread (served apps)


class GraphPanel(Component):
    """The graph, with its search box, Fit and Collapse buttons in the toolbar."""

    label = "Graph"
    area = "main"

    def __init__(self, state, plot, **params):
        super().__init__(state, plot, **params)
        # (restrict=False: Enter finds what was typed, not only a picked completion)
        self.search = pn.widgets.AutocompleteInput(
            label="Find node", options=[], width=200, case_sensitive=False,
            search_strategy="includes", min_characters=1, placeholder="name or op",
            restrict=False)
        self.fit_button = pn.widgets.Button(label="Fit", width=60, align="end")
        self.collapse_button = pn.widgets.Button(label="Collapse all", width=110, visible=False,
                                                 align="end")
        self.expand_note = html_pane("", visible=False)
        self.search.param.watch(lambda e: self.guarded(self._find, e.new), "value")
        self.fit_button.on_click(lambda e: self.plot.fit())
        self.collapse_button.on_click(lambda e: setattr(self.state, "expanded", frozenset()))
        plot.param.watch(self._on_plot_selected, "selected")
        plot.param.watch(self._on_box_clicked, "box_clicked")
        self.reset()

    def toolbar(self) -> list:
        return [self.search, self.fit_button, self.collapse_button]

    def body(self) -> list:
        return [self.expand_note, pn.pane.Bokeh(self.plot.figure, sizing_mode="stretch_width")]

    def reset(self) -> None:
        self._drawn_graph = None       # the store's graph last sent to layout
        self._shown = None             # that graph with its groups collapsed
        self._last_draw = 0.0
        self.layout_took = 0.0         # seconds the last layout took
        self._layout_token = None      # a layout still running for the old graph is dropped
        self._pending_select = None
        self.search.value = ""

    # ---- drawing -----------------------------------------------------------------------------
    def refresh(self, force: bool = False) -> None:
        self._update(force)

    @param.depends("state.tape", watch=True)
    def _on_tape(self):
        # the user's pick is drawn at once; following a live run's latest tape is debounced
        self.guarded(self._update, self.state.by_user)

    @param.depends("state.ended", watch=True)
    def _on_ended(self):
        if self.state.ended:
            self.guarded(self._update, True)

    @param.depends("state.expanded", "state.closed", watch=True)
    def _on_groups(self):
        self.collapse_button.visible = bool(self.state.expanded)
        graph = self._drawn_graph
        if graph is not None:
            self._drawn_graph = None
            self.guarded(self._draw, graph)

    def _update(self, force=False):
        if self.state.tape is None:
            return
        graph = self.store.graph(self.state.tape)
        if graph is self._drawn_graph and not force:
            return
        if (self.state.live and not force
                and time.monotonic() - self._last_draw < max(1.0, SPACING * self.layout_took)):
            return      # debounce re-layout while events stream in
        if graph is not self._drawn_graph:
            self._draw(graph)

    def _draw(self, graph):
        shown = collapse(graph, self.state.expanded, closed=self.state.closed)
        units = shown.get("units")
        self._drawn_graph = graph
        self._last_draw = time.monotonic()
        try:
            lay = piecewise_layout.layout_graph(shown, units, cached_only=True)
        except piecewise_layout.NotCached:
            lay = None
        # (while live, every new layout: the server answers clicks meanwhile)
        threaded = lay is None and served() and (len(shown["nodes"]) > THREAD_LAYOUT_ABOVE
                                                 or self.state.live)
        if not threaded:
            start = time.monotonic()
            lay = lay or piecewise_layout.layout_graph(shown, units)
            self.layout_took = time.monotonic() - start
            self._apply_layout(graph, shown, lay)
            return
        # layout off the event loop: Graphviz runs in a thread, the drawing hops back
        token = self._layout_token = object()
        doc = pn.state.curdoc
        self.state.layout_for_user = self.state.by_user     # a click waits for this one
        self.state.layout_busy = True
        start = time.monotonic()

        def work():
            try:
                result = piecewise_layout.layout_graph(shown, units)
            except Exception as exc:       # keep the message for the graph view
                result = exc
            self.layout_took = time.monotonic() - start
            doc.add_next_tick_callback(partial(self._layout_done, token, graph, shown, result))
        threading.Thread(target=work, daemon=True, name="tapeviz-layout").start()

    def _layout_done(self, token, graph, shown, result):
        if token is not self._layout_token:
            return          # a newer layout was requested meanwhile
        with self.state.updating():
            if isinstance(result, Exception):
                self.guarded(_raise, result)
            else:
                with self.plot.held():
                    self.guarded(self._apply_layout, graph, shown, result)
            self.state.layout_busy = False

    def _apply_layout(self, graph, shown, lay):
        self._shown = shown
        self.plot.show(shown, lay)
        names = {str(n.get("name")) for n in graph["nodes"] if n.get("name")}
        ops = {str(n.get("op")) for n in graph["nodes"] if n.get("op")}
        self.search.options = sorted(names | ops)[:5000]
        # (the note is for a large graph; a small one's boxes were closed by a click)
        collapsed = bool(shown.get("collapsed")) and not shown.get("closed_by_user")
        self.collapse_button.visible = bool(self.state.expanded)
        self.expand_note.visible = collapsed
        self.expand_note.object = (f'<span class="tv-small">{len(graph["nodes"])} nodes: grouped by '
                                   'name scope (or blocks of ops). Select a group and press '
                                   '<b>Expand</b> to open it.</span>') if collapsed else ""
        self.state.graph = graph
        self.state.drawn += 1
        if self._pending_select:
            self.plot.select(self._pending_select)
            self.plot.zoom_to(self._pending_select)
            self._pending_select = None

    # ---- the user's clicks -------------------------------------------------------------------
    def _on_plot_selected(self, event):
        key = event.new or ""
        node = self.plot.node(key) if key else None
        if node and node.get("group") in self.state.closed:
            self.state.open_group(node["group"])     # a click on a box the user closed
        self.state.node = key

    @param.depends("state.node", watch=True)
    def _select(self):
        if self.plot.selected != self.state.node:
            self.plot.select(self.state.node)

    def _on_box_clicked(self, event):
        """A click on a cluster's box: a name scope (a Keras layer) closes into one box."""
        _, _, scope = (event.new or "").rpartition("|scope:")
        if scope:
            self.state.close_group("scope:" + scope)

    def _find(self, text):
        text = (text or "").strip().lower()
        graph = self._drawn_graph
        if not text or not graph:
            return

        def match(n, exact):
            name, op = str(n.get("name", "")).lower(), str(n.get("op", "")).lower()
            return (text == name or text == op) if exact else (text in name or text in op)
        hits = ([n["key"] for n in graph["nodes"] if match(n, True)] or
                [n["key"] for n in graph["nodes"] if match(n, False)])
        if not hits:
            return
        gmap = (self._shown or {}).get("gmap") or {}
        if hits[0] in gmap:                       # inside a collapsed group: open it
            self._pending_select = hits[0]
            self.state.open_group(gmap[hits[0]])
        else:
            self.plot.select(hits[0])
            self.plot.zoom_to(hits[0])
        shown_keys = [h for h in hits if h in self.plot.index][:200]
        self.plot.highlight("line", shown_keys, color="#2ca02c")


def _raise(exc):
    raise exc
