"""The tabs of :class:`~tapeviz.ui.dashboard.Dashboard` that follow the selected node and the
shown gradient call: the inspector, the variables table, the backward player with its
breakpoints, and the why cards. (The training and Jacobian tabs are :mod:`tapeviz.ui.charts`.)
Their HTML comes from :mod:`tapeviz.ui.cards` and :mod:`tapeviz.ui.steps`, shared with the
exported page.
"""
from __future__ import annotations

import panel as pn

from .cards import gradient_html, node_html, why_card_html
from .html import CSS
from .steps import breakpoint_step, step_html, step_keys


def html_pane(text="", **kw):
    """An HTML pane with tapeviz's stylesheet, as wide as its container."""
    return pn.pane.HTML(text, stylesheets=[CSS], sizing_mode="stretch_width", **kw)


class SelectionTabs:
    """Mixed into :class:`~tapeviz.ui.dashboard.Dashboard` (which has ``store``, ``graph``,
    ``call``, ``step``, ``_guards`` and the widgets of ``_build``)."""

    # ---- selection -> inspector ------------------------------------------------------------
    def _on_select(self, event):
        key = event.new
        self._guards["inspector"](self._inspect, key)
        if key:
            if self.side.active != 1:      # stay on the player: the click jumps to the step
                self.side.active = 0
            # jump the player to the step of that op, if the shown call visits it
            node = self.graph.node(key)
            if node and node.get("node") is not None and self.call is not None:
                idx = self.store.call_for_node(self.call, node["node"])
                if idx is not None:
                    self.player.value = idx
            self._select_variable_row(node)

    def _inspect(self, key):
        node = self.graph.node(key) if key else None
        self.expand_button.visible = bool(node and node.get("group"))
        if node is None:
            self.inspector.object = "<i>Click a node of the graph to inspect it.</i>"
            return
        grad = gradient_html(self.store, self.store.calls.get(self.call), node)
        self.inspector.object = node_html(self.store, node, gradient=grad)

    # ---- variables table -------------------------------------------------------------------
    def _variables_frame(self):
        import pandas as pd
        rows = self.store.variables_rows() if hasattr(self, "store") else []
        cols = ["name", "shape", "dtype", "trainable", "watched by", "value", "gradient", "norm",
                "verdict", "cause"]
        frame = pd.DataFrame(rows, columns=["id"] + cols)
        self._var_ids = list(frame["id"])
        return frame[cols]

    def _update_variables(self):
        frame = self._variables_frame()
        if not frame.equals(self.variables.value):
            self.variables.value = frame

    def _on_variable_row(self, event):
        if not event.new:
            return
        i = event.new[0]
        if i < len(self._var_ids):
            key = f"t{self._var_ids[i]}"
            if key != self.graph.selected:
                self.graph.select(key)

    def _select_variable_row(self, node):
        if node is None or node.get("node") is not None:
            return
        tid = node.get("tensor")
        if tid in getattr(self, "_var_ids", []):
            i = self._var_ids.index(tid)
            if self.variables.selection != [i]:
                self.variables.selection = [i]

    # ---- backward player -------------------------------------------------------------------
    def _on_call_changed(self):
        call = self.store.calls.get(self.call)
        n = len(call["steps"]) if call else 0
        self.player.end = max(n - 1, 1)
        self.player.disabled = n == 0
        if self.player.value > max(n - 1, 0):
            self.player.value = 0
        self._guards["backward"](self._show_step)
        self._guards["why"](self._update_why)
        self._guards["inspector"](self._inspect, self.graph.selected)
        self._guards["jacobian"](self.jacobian.update)

    def _show_step(self):
        call = self.store.calls.get(self.call)
        # Not on a graph about to be replaced: a column set now and the whole data replaced
        # later in the same held message reach BokehJS as the new column on the old rows
        # ("Size mismatch"); drawing the new graph shows the step again.
        on_graph = self._drawn_graph is not None and (
            self.tape is None or self._drawn_graph is self.store.graph(self.tape))
        if call is None or not call["steps"]:
            self.step_view.object = ("<i>No backward steps for this call.</i>" if call else
                                     "<i>No gradient call on this tape yet.</i>")
            if on_graph:
                self.graph.clear_highlight("current")
                self.graph.set_states([])
            return
        i = min(self.step, len(call["steps"]) - 1)
        if on_graph:
            key, visited, up = step_keys(call, i, self.graph.edge_rows)
            self.graph.set_states(visited)
            self.graph.highlight("current", [key], up)
        self.step_view.object = step_html(self.store, call, i)

    def _breakpoint(self, kind):
        call = self.store.calls.get(self.call)
        if call is None:
            return
        node = self.graph.node(self.graph.selected) if kind == "node" else None
        i = breakpoint_step(call, kind, (node or {}).get("node"))
        if i is None:
            self.step_view.object = (self.step_view.object.split('<div class="tv-err bp">')[0] +
                                     '<div class="tv-err bp">breakpoint not reached in this call</div>')
            return
        self.side.active = 1
        self.player.value = i

    # ---- why cards -------------------------------------------------------------------------
    def _update_why(self):
        call = self.store.calls.get(self.call)
        key = (self.call, id((call or {}).get("results")))
        if key == self._why_key:
            return        # unchanged: keep the cards (no new models for the browser)
        self._why_key = key
        self._why_results = []
        if call is None or call.get("results") is None:
            self.why_note.object = ("<i>No gradient call on this tape yet.</i>" if call is None
                                    else "<i>This gradient call has not finished.</i>")
            self.why_note.visible = True
            for col, _, _ in self._cards:
                col.visible = False
            return
        results = call["results"]
        self.why_note.visible = not results
        self.why_note.object = "<i>No sources.</i>"
        while len(self._cards) < len(results):
            k = len(self._cards)
            html = html_pane("")
            button = pn.widgets.Button(label="Show on graph", width=120, css_classes=["tv-why-show"])
            button.on_click(lambda e, k=k: self.show_cut(k))
            col = pn.Column(html, button, sizing_mode="stretch_width")
            self._cards.append((col, html, button))
            self.why.append(col)
        for k, (col, html, _) in enumerate(self._cards):
            col.visible = k < len(results)
            if k < len(results):
                html.object = why_card_html(self.store, results[k])
        self._why_results = list(results)

    def show_cut(self, k: int):
        """Highlight on the graph where explanation ``k`` of the shown call points."""
        r = self._why_results[k]
        ref = r.get("tensor") or {}
        g = self.graph.graph or {"nodes": [], "edges": []}
        keys = set()
        src_key = f"t{ref.get('id')}"
        if src_key in self.graph.index:
            keys.add(src_key)
        path = {str(p) for p in r.get("path") or []}
        fname, lineno = r.get("filename"), r.get("lineno")
        for n in g["nodes"]:
            site = n.get("site") or {}
            at_line = lineno and site.get("line") == lineno and (not fname or site.get("file") == fname)
            if at_line and (n["kind"] in ("skipped", "escaped", "assign", "stop_gradient")
                            or not path or n.get("op") in path):
                keys.add(n["key"])
        edges = [(e["tail"], e["head"]) for e in g["edges"]
                 if e["cut"] and (e["tail"] in keys or e["head"] in keys)]
        if not edges and r.get("verdict") == "none":
            edges = [(e["tail"], e["head"]) for e in g["edges"] if e["cut"]]
        self.graph.highlight("cut", sorted(keys), edges)
        self._cut_source = k
