"""The Lines tab: the lines of the user's code that the shown tape recorded ops from, in the
order they first ran, with the ops each made and the causes the shown gradient call names at
that line. A row click selects the line's first op on the graph; selecting an op on the graph
selects its line."""
from __future__ import annotations

import param

from ..render.html import place
from .node_table import NodeTable

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


class SourceLines(NodeTable):
    """A table of the shown tape's source lines."""

    label = "Lines"
    lazy = True
    columns = COLUMNS
    css_class = "tv-lines"

    def rows(self) -> list:
        return line_rows(self.store, self.state.tape, self.state.call)

    @param.depends("state.tape", "state.call", watch=True)
    def _on_shown(self):
        # hidden, the table waits for its tab (the dashboard refreshes it then): a recording
        # switch or a call picked elsewhere sends no rows nobody sees
        if self.shown():
            self.guarded(self.refresh)
