"""One side of a diff: a recording read through the dashboard's store, as a timeline.

The store (:class:`tapeviz.ui.store.store.Store`) already groups a recording's events into tapes,
ops and gradient calls; a diff reads them the same way and keeps two things the dashboard
has no use for: the forward ops that ran on no tape (an optimizer's update, ``lr * g``) and
the variables' assignments, since a changed learning rate first shows there. Backward ops
(the VJPs a gradient call runs) are left out: a diff compares their results through the
calls' backward steps instead.
"""
from __future__ import annotations

import functools
import os

from ..ui.store.limits import clip_list, clip_ref, clip_refs, clip_scope, clip_site
from ..ui.store.store import Store

#: kept in full for a diff: a training loop opens a tape a step and every one is compared
_UNBOUNDED = 10 ** 9


class DiffStore(Store):
    """A :class:`Store` that forgets nothing and also keeps untaped ops and assignments."""

    def __init__(self, **params):
        super().__init__(max_tapes=_UNBOUNDED, max_calls=_UNBOUNDED,
                         max_history=_UNBOUNDED, **params)
        self.loose: dict = {}        # node id -> op dict, forward ops on no tape
        self.assigns: list = []      # variable_assigned, as timeline entries

    def _take(self, e: dict) -> None:
        """The two kinds that make up most of a run (forward ops, backward steps) are kept
        in a leaner form: a diff reads two files, and this keeps it within twice the time of
        opening one."""
        if not self._fast(e):
            self._apply(e)

    def _fast(self, e: dict) -> bool:
        """Apply an ordinary op or backward step and say so; False for anything else. Refs
        are only checked to be dicts: a diff reads their summaries, not their names."""
        kind = e.get("kind")
        if kind == "backward_step":
            call = self.calls.get(e.get("call"))
            if call is not None:
                call["steps"].append({"step": e.get("step"), "node": e.get("node"),
                                      "op": str(e.get("op", "")),
                                      "upstream": clip_list(e.get("upstream")),
                                      "input_grads": [g for g in clip_list(e.get("input_grads"))
                                                      if type(g) is dict]})
            return True
        if kind != "op_recorded" or e.get("skipped") or self.paused:
            return False
        if e.get("backward_of") is not None:
            return True
        op = {"node": e.get("node"), "op": str(e.get("op", "")),
              "tapes": [t for t in clip_list(e.get("tapes")) if type(t) is int],
              "inputs": _dicts(e.get("inputs")), "outputs": _dicts(e.get("outputs")),
              "site": clip_site(e.get("site")), "skipped": None, "backward_of": None,
              "scope": clip_scope(e.get("scope")), "seq": e.get("seq", 0)}
        if not op["tapes"]:
            self.loose[op["node"]] = op
            return True
        self.ops[op["node"]] = op
        for tid in op["tapes"]:
            self._tape(tid)["nodes"].append(op["node"])
        return True

    def _note_tensor(self, ref) -> None:
        """Not kept: a diff reads ops, calls and results, never the tensors table."""

    def _on_op_recorded(self, e):
        if e.get("backward_of") is not None:
            return
        super()._on_op_recorded(e)
        node = e.get("node")
        if node not in self.ops:
            self.loose[node] = {"node": node, "op": str(e.get("op", "")), "tapes": [],
                                "inputs": clip_refs(e.get("inputs")),
                                "outputs": clip_refs(e.get("outputs")),
                                "site": clip_site(e.get("site")), "skipped": e.get("skipped"),
                                "backward_of": None, "scope": clip_scope(e.get("scope")),
                                "seq": e.get("seq", 0)}

    def _on_variable_assigned(self, e):
        super()._on_variable_assigned(e)
        var, value = clip_ref(e.get("variable")), clip_ref(e.get("value"))
        method = str(e.get("method", "assign"))
        self.assigns.append({"node": None, "op": method, "tapes": [],
                             "inputs": [value] if value else [],
                             "outputs": [var] if var else [],
                             "site": clip_site(e.get("site")), "skipped": None,
                             "backward_of": None, "scope": "", "seq": e.get("seq", 0)})


class Run:
    """One side of a diff: its store, forward timeline (ops and assignments in execution
    order) and gradient calls (ids in order), cut to one tape or one call when asked."""

    def __init__(self, recording, label: str, tape=None, call=None):
        self.label = label
        self.store = store = DiffStore()
        store.ingest(recording)
        self.sources = getattr(recording, "sources", {}) or {}
        self.warnings = list(getattr(recording, "warnings", []) or [])
        if call is not None:
            if call not in store.calls:
                raise ValueError(f"{label} has no gradient call {call}; it has "
                                 f"{_listing(store.calls)}")
            tape = store.calls[call]["tape"]
            self.calls = [call]
        else:
            self.calls = [c for c in store.calls if tape is None or store.calls[c]["tape"] == tape]
        if tape is not None:
            if tape not in store.tapes:
                raise ValueError(f"{label} has no tape {tape}; it has {_listing(store.tapes)}")
            ops = [store.ops[n] for n in store.tapes[tape]["nodes"] if n in store.ops]
        else:
            ops = list(store.ops.values()) + list(store.loose.values()) + store.assigns
        self.timeline = sorted(ops, key=lambda op: op["seq"])

    def op(self, node):
        return self.store.ops.get(node) or self.store.loose.get(node)


def _listing(ids) -> str:
    ids = list(ids)
    if not ids:
        return "none"
    shown = ", ".join(map(str, ids[:10]))
    return shown + (f" ... ({len(ids)} in all)" if len(ids) > 10 else "")


def _dicts(value) -> list:
    return [r for r in value if type(r) is dict] if type(value) is list else []


def site_file(site) -> str:
    """The file name of a site, without its folder (two checkouts of one script agree)."""
    return _basename((site or {}).get("file") or "")


@functools.lru_cache(maxsize=1024)      # a run's ops come from a few files: each split once
def _basename(path: str) -> str:
    return os.path.basename(path)
