"""The tabs of :class:`~tapeviz.ui.dashboard.dashboard.Dashboard` that follow the selected node and the
shown gradient call: the inspector, the variables table, the backward player with its
breakpoints. (The why cards are :mod:`tapeviz.ui.dashboard.why`, the training and Jacobian tabs are :mod:`tapeviz.ui.dashboard.charts`.)
Their HTML comes from :mod:`tapeviz.ui.render.cards` and :mod:`tapeviz.ui.render.steps`, shared with the
exported page.
"""
from __future__ import annotations

import panel as pn

from ..render.cards import gradient_html, node_html
from ..render.html import CSS
from ..render.steps import breakpoint_step, step_html, step_keys


def html_pane(text="", **kw):
    """An HTML pane with tapeviz's stylesheet, as wide as its container."""
    return pn.pane.HTML(text, stylesheets=[CSS], sizing_mode="stretch_width", **kw)


class SelectionTabs:
    """Mixed into :class:`~tapeviz.ui.dashboard.dashboard.Dashboard` (which has ``store``, ``graph``,
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
