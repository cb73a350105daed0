"""The op graph of one tape, drawn with Bokeh from a Graphviz layout.

Nodes are boxes (ops, ghosts) and ellipses (tensors that enter the tape), filled by kind (see
:data:`tapeviz.ui.store.tape_graph.KINDS` and the legend). Edges are Graphviz splines with arrowheads,
labelled with the shape of the tensor they carry; edges where a gradient path is cut are red
and dashed. Highlights (the selected node, the current backward step, the cut an explanation
points at) are drawn by small overlay sources, so an update sends a few rows, never the graph.

Names never touch HTML here: Bokeh tooltips escape ``@field`` values and canvas labels are text.
"""
from __future__ import annotations

import math
from contextlib import contextmanager

import param
from bokeh.models import (BoxZoomTool, CDSView, ColumnDataSource, CustomJS, GroupFilter,
                          HoverTool, LabelSet, Legend, LegendItem, PanTool, ResetTool, TapTool,
                          WheelZoomTool, SaveTool)
from bokeh.plotting import figure

from . import dot_layout as _layout
from ...private_apis import hold_sending_last
from .columns import (CLUSTER_FIELDS, DASHED, EDGE_FIELDS, FILL, FLAG_COLORS, FONTS,
                      cluster_columns, edge_columns, empty_node_columns, node_columns)
from .plot_js import FIT_JS, LABELS_JS, REVEAL_JS, ZOOM_JS
from ..store.tape_graph import FLAGS, KINDS

STATE_COLORS = ["#555555", "#1f77b4"]          # 0 normal outline, 1 visited by the backward pass
# the node's hover card: an HTML template (the fields are escaped; the problem row is HTML made
# by `columns.problem_row`, empty when the node has no problem)
TOOLTIP = ('<div class="tv-tip"><div><b>@label</b></div>'
           + "".join(f'<div class="tv-tip-row"><span class="tv-tip-key">{k}:</span> @{c}</div>'
                     for k, c in (("op", "op"), ("name", "name"), ("shape", "shapes"),
                                  ("dtype", "dtypes"), ("value", "summary")))
           + "@problem_row{safe}</div>")
HIGHLIGHT = {"selected": "#d62728", "current": "#ff7f0e", "cut": "#e7298a", "line": "#2ca02c"}
ZOOM_TO = 1.0            # pixels per point a found node is shown at (its label readable)
LABEL_LIMIT = 300        # above this many nodes in view, labels are hidden (speed, legibility)


class GraphView(param.Parameterized):
    """A Bokeh figure with the tape's graph; ``selected`` holds the key of the selected node."""

    selected = param.String(default="", doc="key of the selected node ('' for none)")
    box_clicked = param.String(default="", doc="key of the cluster box last clicked")

    def __init__(self, height=520, python_callbacks: bool = True, **params):
        super().__init__(**params)
        self.keys: list = []
        self.index: dict = {}
        self.graph: dict | None = None
        self.layout: _layout.Layout | None = None
        self.edge_rows: list = []
        self.nodes = ColumnDataSource(empty_node_columns(), name="nodes")
        self.edges = ColumnDataSource({k: [] for k in EDGE_FIELDS}, name="edges")
        self.arrows = ColumnDataSource({"xs": [], "ys": [], "color": []}, name="arrows")
        self.elabels = ColumnDataSource({"x": [], "y": [], "text": []}, name="edge_labels")
        self.clusters = ColumnDataSource({k: [] for k in CLUSTER_FIELDS}, name="clusters")
        self.hl_nodes = ColumnDataSource({"x": [], "y": [], "w": [], "h": [], "color": [], "role": []},
                                         name="highlight_nodes")
        self.hl_edges = ColumnDataSource({"xs": [], "ys": [], "color": [], "role": []},
                                         name="highlight_edges")
        self.figure = self._figure(height)
        if python_callbacks:          # False for standalone HTML (export): JS callbacks only
            self.nodes.selected.on_change("indices", self._on_tap)
            # a click on a layer's box (off every node) closes it; not in a notebook, where an
            # event subscription on the figure keeps the kernel from seeing the node
            # selections the same taps make (tests/ui/test_notebook.py clicks a node there)
            if not _in_notebook():
                self.figure.on_event("tap", self._on_plot_tap)
        self._highlights: dict = {}    # role -> (node keys, edge indices, color)
        self.lasting: set = set()      # roles whose highlight outlives a redraw (same keys)
        self.fill_field = "fill"       # the node field that overrides the fill of its kind

    # ---- drawing ---------------------------------------------------------------------------
    def _figure(self, height):
        fig = figure(name="dag", height=height, sizing_mode="stretch_width", match_aspect=True,
                     tools=[], toolbar_location="above", output_backend="canvas")
        fig.axis.visible = False
        fig.grid.visible = False
        fig.outline_line_color = None
        quads = fig.quad(left="left", right="right", top="top", bottom="bottom", source=self.clusters,
                 fill_color="#f3f6fa", fill_alpha=0.6, line_color="#9aa9bb", line_dash="dotted",
                 name="cluster_boxes")
        self.cluster_labels = fig.text(x="lx", y="ly", text="text", source=self.clusters,
                                       text_font_size="10px", text_color="#5a6b7d",
                                       text_align="left", text_baseline="top",
                                       name="cluster_labels")
        fig.multi_line(xs="xs", ys="ys", source=self.hl_edges, line_color="color", line_width=7,
                       line_alpha=0.55, name="hl_edge_glyphs")
        fig.multi_line(xs="xs", ys="ys", source=self.edges, line_color="color",
                       line_dash="dash", line_width="width", name="edge_glyphs")
        fig.patches(xs="xs", ys="ys", source=self.arrows, fill_color="color", line_color="color",
                    name="arrow_glyphs")
        edge_labels = fig.text(x="x", y="y", text="text", source=self.elabels, text_font_size="8px",
                               text_color="#6b6b6b", text_align="left", text_baseline="middle",
                               x_offset=3, name="edge_label_glyphs")
        # a problem's outline: a thick border under the node (its outer half shows), drawn
        # from the nodes' own rows so it changes in the same message as the graph
        fig.rect(x="x", y="y", width="w", height="h", source=self.nodes,
                 view=CDSView(filter=~GroupFilter(column_name="flag", group="")),
                 fill_alpha=0, line_color="flag_color", line_width=9, name="flag_glyphs",
                 nonselection_line_alpha=1.0)
        fig.rect(x="x", y="y", width="w", height="h", source=self.hl_nodes, fill_alpha=0,
                 line_color="color", line_width=5, name="hl_node_glyphs")
        from bokeh.transform import linear_cmap
        line = linear_cmap("state", STATE_COLORS, -0.5, len(STATE_COLORS) - 0.5)
        box = fig.rect(x="x", y="y", width="w", height="h", source=self.nodes,
                       view=CDSView(filter=GroupFilter(column_name="shape", group="box")),
                       fill_color="fill", line_color=line, line_dash="dash", line_width=1.5,
                       name="node_boxes", nonselection_fill_alpha=1.0, nonselection_line_alpha=1.0,
                       selection_line_color=HIGHLIGHT["selected"], selection_line_width=3)
        ell = fig.ellipse(x="x", y="y", width="w", height="h", source=self.nodes,
                          view=CDSView(filter=GroupFilter(column_name="shape", group="ellipse")),
                          fill_color="fill", line_color=line, line_width=1.5,
                          name="node_ellipses", nonselection_fill_alpha=1.0,
                          nonselection_line_alpha=1.0, selection_line_color=HIGHLIGHT["selected"],
                          selection_line_width=3)
        self.labels = LabelSet(x="x", y="y", text="label", source=self.nodes, text_font_size="10px",
                               text_align="center", text_baseline="middle", name="node_labels")
        fig.add_layout(self.labels)
        hover = HoverTool(renderers=[box, ell], tooltips=TOOLTIP)
        wheel = WheelZoomTool()
        fig.add_tools(PanTool(), wheel, BoxZoomTool(), ResetTool(), SaveTool(),
                      TapTool(renderers=[box, ell]), hover)
        fig.toolbar.active_scroll = wheel
        # legend: one renderer with one off-screen (NaN) row per kind, items by index
        kinds = list(KINDS)
        nan = [math.nan] * len(kinds)
        lsrc = ColumnDataSource({"x": nan, "y": nan, "fill": [FILL[k] for k in kinds],
                                 "dash": ["dashed" if k in DASHED else "solid" for k in kinds]})
        r = fig.scatter("x", "y", source=lsrc, marker="square", size=12, fill_color="fill",
                        line_color="#555555", line_dash="dash")
        items = [LegendItem(label=KINDS[k], renderers=[r], index=i) for i, k in enumerate(kinds)]
        esrc = ColumnDataSource({"xs": [[math.nan, math.nan]] * 2, "ys": [[math.nan, math.nan]] * 2,
                                 "color": ["#9e9e9e", "#d62728"], "dash": ["solid", "dashed"]})
        r = fig.multi_line("xs", "ys", source=esrc, line_color="color", line_dash="dash", line_width=2)
        items.append(LegendItem(label="tensor (labelled with its shape)", renderers=[r], index=0))
        items.append(LegendItem(label="gradient path cut here", renderers=[r], index=1))
        fsrc = ColumnDataSource({"x": [math.nan] * len(FLAGS), "y": [math.nan] * len(FLAGS),
                                 "color": [FLAG_COLORS[f] for f in FLAGS]})
        r = fig.scatter("x", "y", source=fsrc, marker="square", size=12, fill_color="color",
                        fill_alpha=0.25, line_color="color", line_width=3)
        items.extend(LegendItem(label=text, renderers=[r], index=i)
                     for i, text in enumerate(FLAGS.values()))
        legend = Legend(items=items, location="top_left", label_text_font_size="8pt",
                        glyph_height=12, glyph_width=14, spacing=0, padding=4, margin=4,
                        background_fill_alpha=0.85, click_policy="none", name="legend")
        fig.add_layout(legend, "right")
        fig.x_range.renderers = [box, ell, quads]
        fig.y_range.renderers = [box, ell, quads]
        fig.x_range.range_padding = fig.y_range.range_padding = 0.04
        # labels scaled with the zoom, only where they can be read (see graph_js.LABELS_JS)
        js = CustomJS(args=dict(src=self.nodes, labels=self.labels, xr=fig.x_range, yr=fig.y_range,
                                fig=fig, edge_labels=edge_labels, limit=LABEL_LIMIT,
                                cluster_labels=self.cluster_labels, fonts=FONTS), code=LABELS_JS)
        fig.x_range.js_on_change("end", js)
        fig.y_range.js_on_change("end", js)
        # scroll the page to the graph (a *Show on graph* or a *Find* below the fold)
        self.reveal_trigger = ColumnDataSource({"n": [0]}, name="reveal_trigger")
        self.reveal_trigger.js_on_change("data", CustomJS(args=dict(fig=fig), code=REVEAL_JS))
        # centre on a found node at a readable zoom (at least ZOOM_TO pixels per point)
        self.zoom_trigger = ColumnDataSource({"x": [], "y": []}, name="zoom_trigger")
        self.zoom_trigger.js_on_change("data", CustomJS(args=dict(
            fig=fig, xr=fig.x_range, yr=fig.y_range, src=self.zoom_trigger, zoom=ZOOM_TO), code=ZOOM_JS))
        # fit to view in the browser, where the frame's real size is known (keeps the aspect)
        self.fit_trigger = ColumnDataSource({"n": [0]}, name="fit_trigger")
        # (the triggers are arguments too, so they are part of the document and reach BokehJS)
        self.fit_js = CustomJS(args=dict(src=self.nodes, cl=self.clusters, fig=fig, xr=fig.x_range,
                                         yr=fig.y_range, trigger=self.fit_trigger, ed=self.edges,
                                         reveal=self.reveal_trigger, zoom=self.zoom_trigger,
                                         fonts=FONTS),
                               code=FIT_JS)
        self.fit_trigger.js_on_change("data", self.fit_js)
        self.nodes.js_on_change("data", self.fit_js)
        return fig

    def show(self, graph: dict, lay: _layout.Layout) -> None:
        """Replace the drawn graph (one message per source)."""
        self.graph, self.layout = graph, lay
        cols = node_columns(graph, lay, self._fill_of)
        ecols, acols, lcols, self.edge_rows = edge_columns(graph, lay)
        self.keys = cols["key"]
        self.index = {k: i for i, k in enumerate(self.keys)}
        self.nodes.selected.indices = []
        self.nodes.data = cols
        self.edges.data = ecols
        self.arrows.data = acols
        self.elabels.data = lcols
        self.clusters.data = cluster_columns(graph, lay)
        self.labels.visible = len(cols["key"]) <= LABEL_LIMIT
        self._highlights = {r: h for r, h in self._highlights.items() if r in self.lasting}
        self._redraw_highlights()
        if self.selected and self.selected in self.index:
            self.nodes.selected.indices = [self.index[self.selected]]

    # ---- selection and highlights ----------------------------------------------------------
    def _on_tap(self, attr, old, new):
        key = self.keys[new[0]] if new and new[0] < len(self.keys) else ""
        if key != self.selected:
            self.selected = key

    def _on_plot_tap(self, event):
        """A click off every node, inside cluster boxes: the innermost box was clicked."""
        x, y = event.x, event.y
        d = self.nodes.data
        if x is None or any(abs(x - nx) <= w / 2 and abs(y - ny) <= h / 2
                            for nx, ny, w, h in zip(d["x"], d["y"], d["w"], d["h"])):
            return
        c = self.clusters.data
        hits = [i for i in range(len(c["key"]))
                if c["left"][i] <= x <= c["right"][i] and c["bottom"][i] <= y <= c["top"][i]]
        if hits:
            inner = min(hits, key=lambda i: (c["right"][i] - c["left"][i]) * (c["top"][i] - c["bottom"][i]))
            self.box_clicked = ""
            self.box_clicked = c["key"][inner]

    def fit(self) -> None:
        """Fit the graph to the view (runs in the browser, which knows the plot's size)."""
        self.fit_trigger.data = {"n": [self.fit_trigger.data["n"][0] + 1]}

    def reveal(self) -> None:
        """Scroll the page until the graph is in view (runs in the browser)."""
        self.reveal_trigger.data = {"n": [self.reveal_trigger.data["n"][0] + 1]}

    def zoom_to(self, key: str) -> None:
        """Centre the view on node ``key``, zoomed in until its label can be read."""
        i = self.index.get(key)
        if i is not None:
            self.zoom_trigger.data = {"x": [self.nodes.data["x"][i]], "y": [self.nodes.data["y"][i]]}

    def select(self, key: str) -> None:
        """Select a node from Python (a table row, a search): the same as clicking it."""
        idx = self.index.get(key)
        self.nodes.selected.indices = [] if idx is None else [idx]
        self.selected = key if idx is not None else ""

    def _fill_of(self, node) -> str:
        return node.get(self.fill_field) or FILL.get(node["kind"], "#ffffff")

    def use_fill(self, field: str) -> None:
        """Fill nodes from their ``field`` (their kind's colour where they have none), now
        and at every redraw: one column is sent (the compare view's colouring toggle)."""
        self.fill_field = field
        if self.graph and self.keys:
            by_key = {n["key"]: n for n in self.graph["nodes"]}
            self.nodes.data["fill"] = [self._fill_of(by_key[k]) if k in by_key else
                                       self.nodes.data["fill"][i]
                                       for i, k in enumerate(self.keys)]

    def set_states(self, visited_keys) -> None:
        """Outline the nodes already visited by the backward pass (one int8 column)."""
        import numpy as np
        state = np.zeros(len(self.keys), dtype=np.int8)
        for k in visited_keys:
            i = self.index.get(k)
            if i is not None:
                state[i] = 1
        self.nodes.data["state"] = state

    def highlight(self, role: str, keys=(), edges=(), color: str | None = None) -> None:
        """Draw a highlight ``role`` (replacing the previous one of that role): node keys and
        (tail, head) edges."""
        self._highlights[role] = (list(keys), list(edges), color or HIGHLIGHT.get(role, "#ff7f0e"))
        self._redraw_highlights()

    @contextmanager
    def held(self):
        """Hold the page's document meanwhile and send what changed as one message, with
        this graph's data at its end. BokehJS sets new glyph data asynchronously, while a
        widget change (a text, a visibility) lays the page out and paints at once: after the
        graph's data in the same message, that paint meets half-updated glyphs ("Out of
        bounds" on a smaller graph, and the rest of the message is lost). Without a
        session (a notebook comm, tests) it just runs the body."""
        import panel as pn
        doc = pn.state.curdoc
        if doc is None or getattr(doc, "session_context", None) is None:
            yield
            return
        with hold_sending_last(doc, self._models()):
            yield

    def _models(self):
        sources = [self.nodes, self.edges, self.arrows, self.elabels, self.clusters,
                   self.hl_nodes, self.hl_edges, self.fit_trigger, self.reveal_trigger,
                   self.zoom_trigger]
        return sources + [s.selected for s in sources] + [self.labels]

    def clear(self) -> None:
        """Draw nothing (a run without tapes replaced the one shown)."""
        self.show({"nodes": [], "edges": [], "clusters": {}}, _layout.Layout())

    def clear_highlights(self) -> None:
        if self._highlights:
            self._highlights = {}
            self._redraw_highlights()

    def clear_highlight(self, role: str) -> None:
        if self._highlights.pop(role, None) is not None:
            self._redraw_highlights()

    def _redraw_highlights(self):
        n = {"x": [], "y": [], "w": [], "h": [], "color": [], "role": []}
        e = {"xs": [], "ys": [], "color": [], "role": []}
        data = self.nodes.data
        edata = self.edges.data
        erow = {pair: i for i, pair in enumerate(self.edge_rows)}
        for role, (keys, edges, color) in self._highlights.items():
            for k in keys:
                i = self.index.get(k)
                if i is None:
                    continue
                n["x"].append(data["x"][i]); n["y"].append(data["y"][i])
                n["w"].append(data["w"][i] + 8); n["h"].append(data["h"][i] + 8)
                n["color"].append(color); n["role"].append(role)
            for pair in edges:
                j = erow.get(tuple(pair))
                if j is None:
                    continue
                e["xs"].append(edata["xs"][j]); e["ys"].append(edata["ys"][j])
                e["color"].append(color); e["role"].append(role)
        self.hl_nodes.data = n
        self.hl_edges.data = e

    def node(self, key: str) -> dict | None:
        if not self.graph:
            return None
        for n in self.graph["nodes"]:
            if n["key"] == key:
                return n
        return None


def _in_notebook() -> bool:
    """Inside an IPython kernel or shell (a notebook's output), not a served page."""
    from ...config import _interactive
    return _interactive()

