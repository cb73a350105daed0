"""The Backward tab: the backward pass of the shown gradient call, one step at a time, on the
graph (the step's node highlighted, the nodes already visited outlined), with breakpoints
(the first NaN/Inf, the first all-zero gradient, the selected node). It owns
``state.step``; a click on a node the call visits moves it there. The step's HTML comes
from :mod:`tapeviz.ui.render.steps`, shared with the exported page."""
from __future__ import annotations

import panel as pn
import param

from ..render.steps import breakpoint_step, step_html, step_keys
from .player_buttons import player_buttons
from .state import Component, html_pane

NO_CALL = "<i>No gradient call on this tape yet.</i>"


class BackwardPlayer(Component):
    """The player, its labelled buttons, the breakpoints and the step's card."""

    label = "Backward"
    area = "side"

    def __init__(self, state, plot, **params):
        super().__init__(state, plot, **params)
        self.player = pn.widgets.Player(start=0, end=1, value=0, interval=700,
                                        loop_policy="once", show_loop_controls=False,
                                        width=330, visible=True, visible_buttons=[],
                                        css_classes=["tv-player"])
        self.buttons = player_buttons(self.player)
        self.player.param.watch(lambda e: setattr(self.state, "step", int(e.new)), "value")
        self.bp_nan = pn.widgets.Button(label="▶ first NaN/Inf", width=125,
                                        description="run to the first step with a NaN or Inf")
        self.bp_zero = pn.widgets.Button(label="▶ first zero grad", width=135,
                                         description="run to the first all-zero gradient")
        self.bp_node = pn.widgets.Button(label="▶ selected node", width=130,
                                         description="run to the step of the selected node")
        self.bp_nan.on_click(lambda e: self.run_to("nan"))
        self.bp_zero.on_click(lambda e: self.run_to("zero"))
        self.bp_node.on_click(lambda e: self.run_to("node"))
        self.step_view = html_pane(NO_CALL, css_classes=["tv-step"])

    def body(self) -> list:
        return [self.player, self.buttons, pn.Row(self.bp_nan, self.bp_zero, self.bp_node),
                self.step_view]

    def reset(self) -> None:
        self.player.value = 0

    @param.depends("state.call", "state.drawn", watch=True)
    def _on_call(self):
        call = self.store.calls.get(self.state.call)
        n = len(call["steps"]) if call else 0
        self.player.end = max(n - 1, 1)
        self.player.disabled = n == 0
        if self.player.value > max(n - 1, 0):
            self.player.value = 0
        self.guarded(self._show_step)

    @param.depends("state.step", watch=True)
    def _on_step(self):
        self.guarded(self._show_step)

    @param.depends("state.node", watch=True)
    def _on_node(self):
        """A click on a node the shown call visits moves the player to its step."""
        node = self.plot.node(self.state.node) if self.state.node else None
        if node and node.get("node") is not None and self.state.call is not None:
            i = self.store.call_for_node(self.state.call, node["node"])
            if i is not None:
                self.player.value = i

    def _show_step(self):
        call = self.store.calls.get(self.state.call)
        on_graph = self.state.on_graph()
        if call is None or not call["steps"]:
            self.step_view.object = ("<i>No backward steps for this call.</i>" if call else
                                     NO_CALL)
            if on_graph:
                self.plot.clear_highlight("current")
                self.plot.set_states([])
            return
        i = min(self.state.step, len(call["steps"]) - 1)
        if on_graph:
            key, visited, up = step_keys(call, i, self.plot.edge_rows)
            self.plot.set_states(visited)
            self.plot.highlight("current", [key], up)
        self.step_view.object = step_html(self.store, call, i)

    def run_to(self, kind: str) -> None:
        """Move to the first step with a NaN/Inf (``"nan"``), an all-zero gradient
        (``"zero"``) or the selected node (``"node"``), or say it is not reached."""
        call = self.store.calls.get(self.state.call)
        if call is None:
            return
        node = self.plot.node(self.state.node) if kind == "node" else None
        i = breakpoint_step(call, kind, (node or {}).get("node"))
        if i is None:
            self.step_view.object = (self.step_view.object.split('<div class="tv-err bp">')[0] +
                                     '<div class="tv-err bp">breakpoint not reached in this call</div>')
            return
        self.state.bring_forward(self.label)
        self.player.value = i
