"""The graph pane of :class:`~tapeviz.ui.dashboard.dashboard.Dashboard`: drawing the shown tape's graph,
finding nodes by name or op, opening and closing groups, highlighting the nodes of a line.

A large graph without a cached layout is laid out by Graphviz in a thread when served, and
drawn back on the session's event loop; while events stream, re-layout is debounced.
"""
from __future__ import annotations

import threading
import time
from functools import partial

import panel as pn

from ..graph import piecewise_layout
from ..render.html import place

THREAD_LAYOUT_ABOVE = 150      # nodes: larger uncached layouts run in a thread (served apps)


class GraphPane:
    """Mixed into :class:`~tapeviz.ui.dashboard.dashboard.Dashboard` (which has ``store``, ``graph``,
    ``tape``, the widgets of ``_build`` and the tabs' ``_on_call_changed``)."""

    def _update_graph(self, force=False):
        if self.tape is None:
            return
        graph = self.store.graph(self.tape)
        if graph is self._drawn_graph and not force:
            return
        live = not self._source_done()
        if live and not force and time.monotonic() - self._last_draw < self._redraw_spacing():
            return      # debounce re-layout while events stream in
        if graph is self._drawn_graph:
            return
        self._guards["graph"](self._draw, graph)

    def _draw(self, graph):
        from ..graph.group import collapse
        shown = collapse(graph, self.expanded, closed=self.closed)
        units = shown.get("units")
        self._drawn_graph = graph
        self._last_draw = time.monotonic()
        try:
            lay = piecewise_layout.layout_graph(shown, units, cached_only=True)
        except piecewise_layout.NotCached:
            lay = None
        doc = pn.state.curdoc
        # (while live, every new layout: the server answers clicks meanwhile)
        threaded = (lay is None and doc is not None
                    and getattr(doc, "session_context", None) is not None
                    and (len(shown["nodes"]) > THREAD_LAYOUT_ABOVE or not self._source_done()))
        if not threaded:
            start = time.monotonic()
            lay = lay or piecewise_layout.layout_graph(shown, units)
            self._layout_took = time.monotonic() - start
            self._apply_layout(graph, shown, lay)
            return
        # layout off the event loop: Graphviz runs in a thread, the drawing hops back
        token = self._layout_token = object()
        self.layout_busy = True
        self._layout_for_user = not self._view_updates     # a click waits for this one
        self._update_status()
        start = time.monotonic()

        def work():
            try:
                result = piecewise_layout.layout_graph(shown, units)
            except Exception as exc:       # keep the message for the graph view
                result = exc
            self._layout_took = time.monotonic() - start
            doc.add_next_tick_callback(partial(self._layout_done, token, graph, shown, result))
        threading.Thread(target=work, daemon=True, name="tapeviz-layout").start()

    def _layout_done(self, token, graph, shown, result):
        if token is not self._layout_token:
            return          # a newer layout was requested meanwhile
        self.layout_busy = False
        with self._updating_views():
            if isinstance(result, Exception):
                self._guards["graph"](lambda: (_ for _ in ()).throw(result))
            else:
                with self.graph.held():
                    self._guards["graph"](self._apply_layout, graph, shown, result)
            self._update_status()

    def _apply_layout(self, graph, shown, lay):
        self._shown = shown
        self.graph.show(shown, lay)
        names = {str(n.get("name")) for n in graph["nodes"] if n.get("name")}
        ops = {str(n.get("op")) for n in graph["nodes"] if n.get("op")}
        self.search.options = sorted(names | ops)[:5000]
        lines = {}
        for n in graph["nodes"]:
            site = n.get("site") or {}
            if site.get("line"):
                label = f'{place(site)}  {site.get("code", "")}'
                lines.setdefault(label[:90], (site.get("file"), site["line"]))
        self._lines = lines
        self.line_select.options = [""] + sorted(lines, key=lambda k: (lines[k][0] or "", lines[k][1]))
        # (the note is for a large graph; a small one's boxes were closed by a click)
        collapsed = bool(shown.get("collapsed")) and not shown.get("closed_by_user")
        self.collapse_button.visible = bool(self.expanded)
        self.expand_note.visible = collapsed
        self.expand_note.object = (f'<span class="tv-small">{len(graph["nodes"])} nodes: grouped by '
                                   'name scope (or blocks of ops). Select a group and press '
                                   '<b>Expand</b> to open it.</span>') if collapsed else ""
        self._on_call_changed()
        if self._pending_select:
            self.graph.select(self._pending_select)
            self.graph.zoom_to(self._pending_select)
            self._pending_select = None

    def _fit(self, event=None):
        self.graph.fit()

    def _on_search(self, event):
        text = (event.new or "").strip().lower()
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
            self.expand(gmap[hits[0]], select=hits[0])
        else:
            self.graph.select(hits[0])
            self.graph.zoom_to(hits[0])
        shown_keys = [h for h in hits if h in self.graph.index][:200]
        self.graph.highlight("line", shown_keys, color="#2ca02c")

    def expand(self, group: str, select: str | None = None):
        """Open a collapsed group in place (the rest keeps its cached layout)."""
        if group in self.closed:
            self.closed = self.closed - {group}
        else:
            self.expanded = self.expanded | {group}
        self._pending_select = select
        self._redraw()

    def close_group(self, group: str):
        """Close an open group into one box (any named scope or Keras layer)."""
        inside = {g for g in self.expanded if g == group or g.startswith(group + "/")}
        if inside:
            self.expanded = self.expanded - inside
        else:
            self.closed = self.closed | {group}
        self._redraw()

    def _on_group_clicked(self, event):
        """A click on a box the user closed opens it again."""
        node = self.graph.node(event.new) if event.new else None
        if node and node.get("group") in self.closed:
            self.expand(node["group"])

    def _on_box_clicked(self, event):
        """A click on a cluster's box: a name scope (a Keras layer) closes into one box."""
        key = event.new or ""
        _, _, scope = key.rpartition("|scope:")
        if scope:
            self.close_group("scope:" + scope)

    def collapse_all(self, event=None):
        self.expanded = frozenset()
        self._redraw()

    def _redraw(self):
        graph = self._drawn_graph
        if graph is not None:
            self._drawn_graph = None
            self._guards["graph"](self._draw, graph)

    def _on_line(self, event):
        spot = self._lines.get(event.new or "")
        if not spot or not self.graph.graph:
            self.graph.clear_highlight("line")
            return
        keys = [n["key"] for n in self.graph.graph["nodes"]
                if (n.get("site") or {}).get("line") == spot[1]
                and (n.get("site") or {}).get("file") == spot[0]]
        self.graph.highlight("line", keys, color="#2ca02c")

    def _expand_selected(self):
        node = self.graph.node(self.graph.selected)
        if node and node.get("group"):
            self.expand(node["group"])
