"""The Lines tab: the lines of the user's code that the shown tape recorded ops from, in the
order they first ran, with the ops each made and the causes the shown gradient call names at
that line. A row click selects the line's first op on the graph; selecting an op on the graph
selects its line."""
from __future__ import annotations

import panel as pn
import param

from ..render.html import place
from .state import Component

COLUMNS = ["where", "code", "ops", "made", "causes"]
#: op names listed per line before "..." (a line in a loop may run hundreds of ops)
MAX_OP_NAMES = 6


def line_rows(store, tape_id, call_id) -> list:
    """One row per source line of the tape's ops: where, its code, how many ops, which, the
    causes the call's explanations name there, and the node keys of its ops (first first)."""
    tape = store.tapes.get(tape_id) if store is not None else None
    if tape is None:
        return []
    rows: dict = {}
    for node in tape["nodes"]:
        op = store.ops.get(node)
        site = op.get("site") if op is not None else None
        if not site or op.get("backward_of") is not None:
            continue        # (the VJPs' own ops, recorded by an outer tape, are not user code)
        key = (site.get("file"), site.get("line"), site.get("cell"))
        row = rows.get(key)
        if row is None:
            row = rows[key] = {"where": place(site), "code": site.get("code") or "",
                               "ops": 0, "names": [], "causes": [], "keys": [],
                               "file": site.get("file"), "line": site.get("line")}
        row["ops"] += 1
        row["keys"].append(f"op{node}")
        if op["op"] not in row["names"]:
            row["names"].append(op["op"])
    call = store.calls.get(call_id) if call_id is not None else None
    for r in (call or {}).get("results") or []:
        for row in rows.values():
            if r.get("lineno") == row["line"] and r.get("filename") == row["file"] \
                    and r.get("cause") not in (None, "ok"):
                row["causes"].append(f"{r['cause']} ({r.get('source_name', '?')})")
    out = []
    for row in rows.values():
        names = row.pop("names")
        row["made"] = ", ".join(names[:MAX_OP_NAMES]) + (", ..." if len(names) > MAX_OP_NAMES
                                                          else "")
        row["causes"] = "; ".join(row["causes"])
        out.append(row)
    return out


class SourceLines(Component):
    """A table of the shown tape's source lines."""

    label = "Lines"
    area = "bottom"
    lazy = True

    def __init__(self, state, plot, **params):
        super().__init__(state, plot, **params)
        self._keys: list = []
        self.table = pn.widgets.Tabulator(
            self._frame(), disabled=True, selectable=1, show_index=False,
            sizing_mode="stretch_width", height=260, layout="fit_data_stretch",
            css_classes=["tv-lines"])
        self.table.param.watch(self._on_row, "selection")

    def body(self) -> list:
        return [self.table]

    def reset(self) -> None:
        self.table.selection = []

    def _frame(self):
        import pandas as pd
        rows = line_rows(self.store, self.state.tape, self.state.call)
        self._keys = [r["keys"] for r in rows]
        return pd.DataFrame(rows, columns=COLUMNS)

    def refresh(self, force: bool = False) -> None:
        frame = self._frame()
        if not frame.equals(self.table.value):
            self.table.value = frame

    @param.depends("state.tape", "state.call", watch=True)
    def _on_shown(self):
        self.guarded(self.refresh)

    def _on_row(self, event):
        if event.new and event.new[0] < len(self._keys):
            keys = self._keys[event.new[0]]
            # (Panel may hand us a click's selection outside the page's document lock, when
            # it runs the change ahead of the click event, and the graph's Bokeh models may
            # only change under the lock: a served page selects on the next, locked, tick;
            # elsewhere `execute` runs it now)
            pn.state.execute(lambda: self.guarded(self._select, keys), schedule=True)

    def _select(self, keys):
        # a row selected because its line holds the selected node (`_on_node`) leaves that
        # node selected: only a click on another line's row moves to that line's first op
        if self.state.node not in keys:
            self.state.node = keys[0]

    @param.depends("state.node", watch=True)
    def _on_node(self):
        rows = [i for i, keys in enumerate(self._keys) if self.state.node in keys]
        if rows and self.table.selection != rows[:1]:
            self.table.selection = rows[:1]
