"""A bottom tab's table whose rows stand for nodes of the graph (the Variables and Lines
tabs): a row click selects the row's first node, and selecting one of a row's nodes on the
graph selects that row. Imports: Panel, param, ``state``."""
from __future__ import annotations

import panel as pn
import param

from .state import Component


class NodeTable(Component):
    """A subclass names its ``columns`` and gives its :meth:`rows`."""

    area = "bottom"
    columns: list = []
    css_class = ""

    def __init__(self, state, plot, **params):
        super().__init__(state, plot, **params)
        self._keys: list = []           # per row: the node keys it stands for, first first
        self.table = pn.widgets.Tabulator(
            self._frame(), disabled=True, selectable=1, show_index=False,
            sizing_mode="stretch_width", height=260, layout="fit_data_stretch",
            css_classes=[self.css_class])
        self.table.param.watch(self._on_row, "selection")

    def rows(self) -> list:
        """The table's rows: dicts with the ``columns`` and ``keys``."""
        raise NotImplementedError

    def body(self) -> list:
        return [self.table]

    def reset(self) -> None:
        self.table.selection = []

    def _frame(self):
        import pandas as pd
        rows = self.rows()
        self._keys = [r["keys"] for r in rows]
        return pd.DataFrame(rows, columns=self.columns)

    def refresh(self, force: bool = False) -> None:
        frame = self._frame()
        if not frame.equals(self.table.value):
            self.table.value = frame
            self._on_node()     # the selected node's row, in the rows now shown

    def _on_row(self, event):
        if event.new and event.new[0] < len(self._keys):
            # (with the page's document locked, even when Panel handles the click's change
            # ahead of its event: tapeviz.private_apis.lock_panel_events)
            self.guarded(self._select, self._keys[event.new[0]])

    def _select(self, keys):
        # a row selected because it holds the selected node (`_on_node`) leaves that node
        # selected: only a click on another row moves to that row's first node
        if self.state.node not in keys:
            self.state.node = keys[0]

    @param.depends("state.node", watch=True)
    def _on_node(self):
        rows = [i for i, keys in enumerate(self._keys) if self.state.node in keys]
        if rows and self.table.selection != rows[:1]:
            self.table.selection = rows[:1]
