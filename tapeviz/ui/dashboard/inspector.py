"""The Inspector tab: what the selected node of the graph is (its op, formula, values, the
gradient the shown call gave it, where it was created), an *Expand group* button for a
group, and a picker of the source lines that created nodes (their nodes light up on the
graph). The HTML comes from :mod:`tapeviz.ui.render.cards`, shared with the exported page."""
from __future__ import annotations

import panel as pn
import param

from ..render.cards import gradient_html, node_html
from ..render.html import place
from .state import Component, html_pane

EMPTY = "<i>Click a node of the graph to inspect it.</i>"
#: the line picker's first entry, so it never looks like an empty box
PICK = "Choose a line of your code: its nodes light up"


class Inspector(Component):
    """The selected node, and the nodes of a source line."""

    label = "Inspector"
    area = "side"

    def __init__(self, state, plot, **params):
        super().__init__(state, plot, **params)
        self.html = html_pane(EMPTY, css_classes=["tv-inspector"])
        self.expand_button = pn.widgets.Button(label="Expand group", width=120, visible=False)
        self.line_select = pn.widgets.Select(label="Nodes created by line", options={PICK: ""},
                                             sizing_mode="stretch_width")
        self.expand_button.on_click(lambda e: self._expand_selected())
        self.line_select.param.watch(lambda e: self.guarded(self._show_line), "value")
        self._lines: dict = {}

    def body(self) -> list:
        return [self.expand_button, self.html, self.line_select]

    def reset(self) -> None:
        self.html.object = EMPTY
        self.line_select.value = ""

    @param.depends("state.node", "state.call", "state.drawn", watch=True)
    def _on_change(self):
        self.guarded(self._inspect)

    def _inspect(self):
        key = self.state.node
        node = self.plot.node(key) if key else None
        self.expand_button.visible = bool(node and node.get("group"))
        if node is None:
            self.html.object = EMPTY
            return
        grad = gradient_html(self.store, self.store.calls.get(self.state.call), node)
        self.html.object = node_html(self.store, node, gradient=grad)

    def _expand_selected(self):
        node = self.plot.node(self.state.node)
        if node and node.get("group"):
            self.state.open_group(node["group"])

    # ---- nodes by source line ----------------------------------------------------------------
    @param.depends("state.drawn", watch=True)
    def _on_drawn(self):
        self.guarded(self._list_lines)

    def _list_lines(self):
        lines = {}
        for n in (self.state.graph or {"nodes": []})["nodes"]:
            site = n.get("site") or {}
            if site.get("line"):
                label = f'{place(site)}  {site.get("code", "")}'
                lines.setdefault(label[:90], (site.get("file"), site["line"]))
        self._lines = lines
        ordered = sorted(lines, key=lambda k: (lines[k][0] or "", lines[k][1]))
        self.line_select.options = {PICK if lines else "No line of your code on this tape": "",
                                    **{label: label for label in ordered}}

    def _show_line(self):
        spot = self._lines.get(self.line_select.value or "")
        if not spot or not self.plot.graph:
            self.plot.clear_highlight("line")
            return
        keys = [n["key"] for n in self.plot.graph["nodes"]
                if (n.get("site") or {}).get("line") == spot[1]
                and (n.get("site") or {}).get("file") == spot[0]]
        self.plot.highlight("line", keys, color="#2ca02c")
