"""The Variables tab: every variable of the run as it was at the gradient call shown (its
value when the call ran, the gradient that call gave it, its verdict and cause), so the table
agrees with the Why tab of that call; the latest state when no call is shown. Its title says
which. A row click selects the variable on the graph, and selecting it on the graph selects
its row."""
from __future__ import annotations

import panel as pn
import param

from ..render.html import esc
from ..store.summaries import summary_text
from .node_table import NodeTable

# what tells a broken variable from a healthy one first: on a narrow page the wide text
# columns (its value, which tapes watch it) would push verdict and cause out of sight
COLUMNS = ["name", "verdict", "cause", "norm", "gradient", "value", "shape", "dtype",
           "trainable", "watched by"]
HEIGHT = 420             # about 12 rows before it scrolls


class VariablesTable(NodeTable):
    """A table of the store's variables, each row standing for its variable's node."""

    label = "Variables"
    columns = COLUMNS
    css_class = "tv-variables"

    title = None

    def __init__(self, state, plot, **params):
        super().__init__(state, plot, **params)       # (its first rows() set _title_html)
        self.title = pn.pane.HTML(self._title_html, sizing_mode="stretch_width",
                                  css_classes=["tv-vars-title"])
        self.table.height = HEIGHT

    def body(self) -> list:
        return [self.title, self.table]

    def shown_call(self):
        """The gradient call shown (or the last one of the tape shown), or None."""
        store = self.store
        if store is None:
            return None
        if self.state.call in store.calls:
            return self.state.call
        calls = store.calls_for(self.state.tape) if self.state.tape is not None else []
        return calls[-1] if calls else None

    def rows(self) -> list:
        store = self.store
        rows = store.variables_rows() if store is not None else []
        cid = self.shown_call()
        if cid is not None:
            rows = at_call(rows, store.calls[cid])
            title = (f"Variables at gradient call {cid} (tape {store.calls[cid]['tape']}): each "
                     "value as that call read it, the gradient it gave, its verdict and cause")
        else:
            title = "Variables: their latest state (no gradient call shown)"
        self._title_html = f'<div class="tv-small"><b>{esc(title)}</b></div>'
        if self.title is not None and self.title.object != self._title_html:
            self.title.object = self._title_html
        return [dict(r, keys=[f"t{r['id']}"]) for r in rows]

    @param.depends("state.call", "state.tape", watch=True)
    def _on_call(self):
        self.guarded(self.refresh)


def at_call(rows: list, call: dict) -> list:
    """``rows`` (the store's latest state per variable) with the state at ``call``: a source
    of the call takes the value the call read and the result it gave; any other variable
    has no gradient there, and its value of a later time is not shown as if it were then."""
    sources = {s.get("id"): s for s in call.get("sources") or [] if isinstance(s, dict)}
    results = {}
    for r in call.get("results") or []:
        ref = r.get("tensor") if isinstance(r, dict) else None
        if isinstance(ref, dict):
            results[ref.get("id")] = r
    out = []
    for row in rows:
        vid, row = row["id"], dict(row)
        src, res = sources.get(vid), results.get(vid)
        if src is None and res is None:
            row.update(value="", gradient="", norm=None, verdict="",
                       cause=f"not a source of call {call.get('id')}")
        else:
            summary = (src or {}).get("summary") or ((res or {}).get("tensor") or {}).get("summary")
            row.update(value=summary_text(summary) if summary else "",
                       gradient=summary_text(res.get("grad")) if res else "",
                       norm=res.get("norm") if res else None,
                       verdict=(res or {}).get("verdict") or "",
                       cause=(res or {}).get("cause") or "")
        out.append(row)
    return out
