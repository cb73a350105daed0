"""The *Why* tab: one card per source of the shown
gradient call, led by a summary line ("10 of 12 ok"); the cards of a problem are open, the
ok ones folded behind a button; after them the run's notes (a softmax given to a loss as
logits, a BatchNormalization left in inference mode: bugs with finite gradients). A call with
a gradient that is not a useful value (None, zero, NaN, Inf) opens on this tab. *Show on graph* highlights where an explanation points and brings the
graph into view. The card HTML comes from :mod:`tapeviz.ui.render.cards`, shared with the exported
page.
"""
from __future__ import annotations

import panel as pn
import param

from ..render.cards import (any_not_a_value, notes_html, verdict_of, why_card_html,
                            why_summary)
from ..render.html import esc
from .state import Component, html_pane

class WhyCards(Component):
    """The cards of the shown gradient call's sources."""

    label = "Why"
    area = "side"

    def __init__(self, state, plot, **params):
        super().__init__(state, plot, **params)
        self.note = html_pane("<i>No gradient call on this tape yet.</i>")
        self.show_ok = pn.widgets.Toggle(label="show the ok sources", value=False, width=200,
                                         visible=False, css_classes=["tv-why-ok"])
        self.show_ok.param.watch(lambda e: self._fold_ok(), "value")
        # the run's notes (what no gradient's card can show) after the cards
        self.run_notes = html_pane("")
        self.column = pn.Column(self.note, self.show_ok, self.run_notes,
                                sizing_mode="stretch_width", css_classes=["tv-why"])
        self.cards: list = []               # (column, html pane, "Show on graph" button)
        self.origin_buttons: list = []      # "Go to gradient call N" of nan_input cards
        self.results: list = []
        self._key = None

    def body(self) -> list:
        return [self.column]

    def reset(self) -> None:
        self._key = None          # ids of the old run's objects may be reused

    @param.depends("state.call", "state.drawn", watch=True)
    def _on_call(self):
        self.guarded(self._update)

    def _update(self):
        call = self.store.calls.get(self.state.call)
        key = (self.state.call, id((call or {}).get("results")), len(self.store.notes))
        if key == self._key:
            return        # unchanged: keep the cards (no new models for the browser)
        self._key = key
        self.results = []
        self.run_notes.object = notes_html(self.store)
        if call is None or call.get("results") is None:
            self.note.object = ("<i>No gradient call on this tape yet.</i>" if call is None
                                else "<i>This gradient call has not finished.</i>")
            self.show_ok.visible = False
            for col, _, _ in self.cards:
                col.visible = False
            return
        results = call["results"]
        self.note.object = (why_summary(results, len(self.store.notes)) if results else
                            "<i>No sources.</i>")
        while len(self.cards) < len(results):
            self._add_card()
        for k, (col, html, _) in enumerate(self.cards):
            if k < len(results):
                html.object = why_card_html(self.store, results[k])
                origin = results[k].get("origin_call")
                self.origin_buttons[k].visible = isinstance(origin, int)
                self.origin_buttons[k].label = f"Go to gradient call {origin}"
        self.results = list(results)
        n_ok = sum(verdict_of(r) == "value" for r in results)
        self.show_ok.visible = 0 < n_ok < len(results)
        self.show_ok.label = f"show the {n_ok} ok source{'s' if n_ok != 1 else ''}"
        self._fold_ok()
        if any_not_a_value(results):
            self.state.bring_forward(self.label)

    def _add_card(self):
        k = len(self.cards)
        html = html_pane("")
        button = pn.widgets.Button(label="Show on graph", width=120, css_classes=["tv-why-show"])
        button.on_click(lambda e: self.guarded(self.show_cut, k))
        origin = pn.widgets.Button(label="Go to gradient call", width=200, visible=False,
                                   css_classes=["tv-why-origin"])
        origin.on_click(lambda e: self.guarded(self.go_to_origin, k))
        col = pn.Column(html, pn.Row(button, origin), sizing_mode="stretch_width")
        self.cards.append((col, html, button))
        self.origin_buttons.append(origin)
        self.column.insert(len(self.column) - 1, col)       # (before the run's notes)

    def _fold_ok(self):
        """Problem cards open; ok cards shown when all are ok or the toggle asks for them."""
        results = self.results
        all_ok = all(verdict_of(r) == "value" for r in results)
        for k, (col, _, _) in enumerate(self.cards):
            col.visible = k < len(results) and (
                all_ok or self.show_ok.value or verdict_of(results[k]) != "value")

    def show_cut(self, k: int):
        """Highlight on the graph where explanation ``k`` of the shown call points, and bring
        the graph into view."""
        r = self.results[k]
        ref = r.get("tensor") or {}
        g = self.plot.graph or {"nodes": [], "edges": []}
        keys = set()
        src_key = f"t{ref.get('id')}"
        if src_key in self.plot.index:
            keys.add(src_key)
        if f"op{r.get('node')}" in self.plot.index:       # where the problem starts
            keys.add(f"op{r.get('node')}")
        path = {str(p) for p in r.get("path") or []}
        fname, lineno = r.get("filename"), r.get("lineno")
        # a NaN's route from the source to the op that made it, by node: the origin's line may
        # hold other ops of the route's kinds (`h1 @ w3 + b3 + h2 @ wd`) on no route of this one
        route = [f"op{i}" for i in r.get("path_nodes") or ()]
        keys.update(k for k in route if k in self.plot.index)
        for n in () if route else g["nodes"]:
            site = n.get("site") or {}
            at_line = lineno and site.get("line") == lineno and (not fname or site.get("file") == fname)
            if at_line and (n["kind"] in ("skipped", "escaped", "assign", "stop_gradient")
                            or not path or n.get("op") in path):
                keys.add(n["key"])
        edges = [(e["tail"], e["head"]) for e in g["edges"]
                 if (e["cut"] and (e["tail"] in keys or e["head"] in keys))
                 or (route and e["tail"] in keys and e["head"] in keys)]
        if not edges and r.get("verdict") == "none":
            edges = [(e["tail"], e["head"]) for e in g["edges"] if e["cut"]]
        self.plot.highlight("cut", sorted(keys), edges)
        self.plot.reveal()

    def go_to_origin(self, k: int):
        """Show the gradient call whose NaN/Inf an update wrote into explanation ``k``'s
        source (a ``nan_input`` card): where the NaN began, one click away."""
        call = self.results[k].get("origin_call")
        if not self.state.show_call(call):
            self.note.object = (f"<i>Gradient call {esc(str(call))} is not in this "
                                "recording (dropped or not recorded).</i>")
