"""The Variables tab: every variable of the run, its value, the gradient the last call gave
it and its verdict; a row click selects the variable on the graph, and selecting it on the
graph selects its row."""
from __future__ import annotations

import panel as pn
import param

from .state import Component

COLUMNS = ["name", "shape", "dtype", "trainable", "watched by", "value", "gradient", "norm",
           "verdict", "cause"]


class VariablesTable(Component):
    """A table of the store's variables."""

    label = "Variables"
    area = "bottom"

    def __init__(self, state, plot, **params):
        super().__init__(state, plot, **params)
        self.table = pn.widgets.Tabulator(
            self._frame(), disabled=True, selectable=1, show_index=False,
            sizing_mode="stretch_width", height=260, layout="fit_data_stretch",
            css_classes=["tv-variables"])
        self.table.param.watch(self._on_row, "selection")

    def body(self) -> list:
        return [self.table]

    def reset(self) -> None:
        self.table.selection = []

    def _frame(self):
        import pandas as pd
        rows = self.store.variables_rows() if self.store is not None else []
        frame = pd.DataFrame(rows, columns=["id"] + COLUMNS)
        self._ids = list(frame["id"])
        return frame[COLUMNS]

    def refresh(self, force: bool = False) -> None:
        frame = self._frame()
        if not frame.equals(self.table.value):
            self.table.value = frame

    def _on_row(self, event):
        if event.new and event.new[0] < len(self._ids):
            key = f"t{self._ids[event.new[0]]}"
            # (Panel may hand us a click's selection outside the page's document lock, and the
            # graph's Bokeh models may only change under it: see SourceLines._on_row)
            pn.state.execute(lambda: self.guarded(setattr, self.state, "node", key),
                             schedule=True)

    @param.depends("state.node", watch=True)
    def _on_node(self):
        node = self.plot.node(self.state.node) if self.state.node else None
        if node is None or node.get("node") is not None:
            return
        tid = node.get("tensor")
        if tid in self._ids:
            i = self._ids.index(tid)
            if self.table.selection != [i]:
                self.table.selection = [i]
