"""The Variables tab: every variable of the run, its value, the gradient the last call gave
it and its verdict; a row click selects the variable on the graph, and selecting it on the
graph selects its row."""
from __future__ import annotations

from .node_table import NodeTable

COLUMNS = ["name", "shape", "dtype", "trainable", "watched by", "value", "gradient", "norm",
           "verdict", "cause"]


class VariablesTable(NodeTable):
    """A table of the store's variables, each row standing for its variable's node."""

    label = "Variables"
    columns = COLUMNS
    css_class = "tv-variables"

    def rows(self) -> list:
        rows = self.store.variables_rows() if self.store is not None else []
        return [dict(r, keys=[f"t{r['id']}"]) for r in rows]
