"""The compare view's data: run a's store, with run b's differences laid over its graphs.

:func:`comparison_for` reads two recordings (once per process, as :func:`.source.store_for`
reads one), compares them with :func:`tapeviz.rundiff.compare_runs` and returns a
:class:`CompareStore`. The alignment and every number are the diff's own: nothing is aligned
or compared again here, except a leaf's value against the input the aligned op of run b read
in its place (with the diff's comparison). Each node of a tape's graph gets two fills, one
per colouring (``fill_forward``, ``fill_gradient``), and the ops of run b only are added as
ghost nodes, dashed, wired to the aligned ops around them.
"""
from __future__ import annotations

import math
import os
import threading
from collections import Counter, OrderedDict

from .limits import clip_name, clip_refs, clip_scope, clip_site
from .store import Store
from .summaries import shape_str, summary_text

AGREE = "#e5f5e0"            # within tolerance
UNCOMPARED = "#f0f0f0"       # nothing to compare (no gradient reached it, no partner)
ONE_RUN = "#e2d4f0"          # an op of one run only (dashed)
# beyond tolerance, by the relative difference's decade: 1e-7 or less ... 1 or more
SCALE = ("#fee8c8", "#fdd49e", "#fdbb84", "#fc8d59", "#ef6548")
FIRST = "#c51b8a"            # the outline of the first divergence
# how much a fill says differs: a collapsed group takes its most different member's fill
RANK = {UNCOMPARED: 0, AGREE: 1, ONE_RUN: 2, **{c: 3 + i for i, c in enumerate(SCALE)}}
MODES = {"forward": "forward values", "gradient": "gradients"}

_CACHE: "OrderedDict[tuple, CompareStore]" = OrderedDict()
_CACHE_LOCK = threading.Lock()
_KEPT = 4


def difference_fill(rel, differs: bool) -> str:
    """The fill of a relative difference: the agreeing colour within tolerance, else a
    step of SCALE by decade (1e-7 and below the lightest, 1 and above, or inf, the darkest)."""
    if not differs:
        return AGREE if rel is not None else UNCOMPARED
    if rel is None or rel <= 0:
        return SCALE[0]
    if math.isinf(rel) or math.isnan(rel):
        return SCALE[-1]
    step = (math.log10(rel) + 7) / 7 * (len(SCALE) - 1)
    return SCALE[min(max(int(round(step)), 0), len(SCALE) - 1)]


class CompareStore(Store):
    """A :class:`Store` of run a (read as the dashboard reads it) that knows the diff:
    ``result`` (the :class:`~tapeviz.rundiff.RunDiff`), ``rows`` (node id of a -> its
    :class:`~tapeviz.rundiff.OpDiff`), ``leaves`` ((tape, tensor id) of a leaf -> its values
    in both runs) and ``ghosts`` (tape of a -> run b's own ops placed there). Finished: one
    store serves every session, and each session picks its colouring."""

    def __init__(self, result, run_a, run_b, **params):
        super().__init__(**params)
        self.result = result
        self.sources_b = dict(run_b.sources or {})
        self.rows = {r.node_a: r for r in result.pairs + result.only_a if r.node_a is not None}
        self.ghost_rows = {r.node_b: r for r in result.only_b if r.node_b is not None}
        self.leaves = _leaf_values(result, run_a, run_b)
        self.gradients = _gradients_by_tape(result, run_a)
        self.ghosts, self.unplaced = _place_ghosts(result, run_a, run_b)
        self.focus_tape, self.focus_key = _focus(result, run_a, run_b, self.ghosts)
        self.history_b = list(run_b.store.history)      # for the Training tab's overlay
        self.scalars_b = {name: list(series) for name, series in run_b.store.scalars.items()}

    # ---- what the dashboard reads ------------------------------------------------------------
    def latest_tape(self):
        """The tape where the runs first part (the dashboard opens on it), else as a run's."""
        if self.focus_tape in self.tapes:
            return self.focus_tape
        return super().latest_tape()

    def graph(self, tape_id) -> dict:
        """The tape's graph with both fills on every node and run b's own ops as ghosts
        (laid over once: the store's cache keeps the result)."""
        graph = super().graph(tape_id)
        if "compared" not in graph:
            self._overlay(graph, tape_id)
            graph["compared"] = True
        return graph

    def _overlay(self, graph, tape_id) -> None:
        for n in graph["nodes"]:
            for mode in MODES:
                fill = self.fill(n, mode, tape_id)
                if fill:
                    n[f"fill_{mode}"], n[f"rank_{mode}"] = fill, RANK[fill]
            row = self.rows.get(n.get("node"))
            if row is not None and row.op_b is None:
                n["dash"] = "dashed"
        placed = self.ghosts.get(tape_id)
        if not placed:
            return
        nodes, edges = placed
        graph["nodes"].extend(dict(n) for n in nodes)
        keys = {n["key"] for n in graph["nodes"]}
        graph["edges"].extend(dict(e) for e in edges if e["tail"] in keys and e["head"] in keys)

    def fill(self, node, mode: str, tape_id) -> str | None:
        """A node's fill in one colouring (None: its kind's own, e.g. a ghost of run a)."""
        if node.get("ghost_of") is not None:
            return ONE_RUN
        if node.get("node") is not None:
            row = self.rows.get(node["node"])
            if row is None:
                return UNCOMPARED
            if row.op_b is None:
                return ONE_RUN
            if mode == "forward":
                return difference_fill(row.forward_rel, row.forward_differs or
                                       row.matched_by == "changed")
            return difference_fill(row.grad_rel, row.grad_differs)
        if node.get("shape") != "ellipse":
            return None
        if mode == "forward":
            leaf = self.leaves.get((tape_id, node.get("tensor")))
            return difference_fill(leaf["rel"], leaf["differs"]) if leaf else UNCOMPARED
        grad = self.gradients.get((tape_id, node.get("tensor")))
        return difference_fill(grad.rel, grad.differs) if grad else UNCOMPARED

    def first_keys(self) -> dict:
        """The graph keys to mark: ``forward`` (the first divergence), ``gradient`` (the
        first backward step whose gradients differ), where they are nodes of run a or
        ghosts of run b."""
        out = {"forward": self.focus_key}
        step = self.result.first_backward
        if step is not None:
            out["gradient"] = (f"op{step.node_a}" if step.node_a is not None else
                               f"b{step.node_b}" if step.node_b is not None else None)
        return out


def _ops(run) -> dict:
    return {**run.store.loose, **run.store.ops}


def _leaf_values(result, run_a, run_b) -> dict:
    """(tape of a, leaf tensor id of a) -> the leaf's value in run a and, from the aligned op
    of run b that read it in the same place, in run b: ``{"a", "b", "rel", "differs"}``
    (the diff's comparison of summaries). Only leaves: tensors no op of run a made."""
    from ...rundiff.compare import compare_summaries
    ops_a, ops_b = _ops(run_a), _ops(run_b)
    made = {r.get("id") for op in ops_a.values() for r in op["outputs"]}
    out = {}
    for row in result.pairs:
        oa, ob = ops_a.get(row.node_a), ops_b.get(row.node_b)
        if oa is None or ob is None or not oa["tapes"]:
            continue
        for ra, rb in zip(oa["inputs"], ob["inputs"]):
            key = (oa["tapes"][0], ra.get("id"))
            if ra.get("id") in made or key in out:
                continue
            d = compare_summaries(ra.get("summary"), rb.get("summary"), result.rtol, result.atol)
            out[key] = {"a": ra.get("summary"), "b": rb.get("summary"), "rel": d.rel,
                        "differs": d.differs, "why": d.why}
    return out


def _gradients_by_tape(result, run_a) -> dict:
    """(tape of a, source tensor id of a) -> the :class:`~tapeviz.rundiff.GradientDiff` of
    that tape's call (the worst, for a persistent tape's several calls)."""
    from ...rundiff import source_name
    out = {}
    for g in result.gradients:
        call = run_a.store.calls.get(g.call_a) or {}
        ids = [(r.get("tensor") or {}).get("id") for r in call.get("results") or []
               if source_name(r) == g.name]
        key = (call.get("tape"), ids[0] if ids else None)
        old = out.get(key)
        if old is None or (g.differs, g.rel or 0) > (old.differs, old.rel or 0):
            out[key] = g
    return out


def _tape_map(result, run_a, run_b) -> dict:
    """Tape of b -> the tape of a most of its aligned ops are on."""
    ops_a, ops_b = run_a.store.ops, run_b.store.ops
    votes = Counter()
    for row in result.pairs:
        oa, ob = ops_a.get(row.node_a), ops_b.get(row.node_b)
        if oa and ob and oa["tapes"] and ob["tapes"]:
            votes[(ob["tapes"][0], oa["tapes"][0])] += 1
    mapping = {}
    for (tb, ta), _ in votes.most_common():
        mapping.setdefault(tb, ta)
    return mapping


def _place_ghosts(result, run_a, run_b):
    """``({tape of a: (ghost nodes, edges)}, ops of b only on no tape of a)``. A ghost is
    wired to what it reads and what reads it in run b, where those are aligned ops (drawn
    as their partners in a), other ghosts, or a Variable of the same name."""
    mapping = _tape_map(result, run_a, run_b)
    partner = {r.node_b: r.node_a for r in result.pairs}
    ops_b = run_b.store.ops
    made_by, readers = {}, {}
    for nb, op in ops_b.items():
        for r in op["outputs"]:
            made_by[r.get("id")] = nb
        for r in op["inputs"]:
            readers.setdefault(r.get("id"), []).append(nb)
    var_a = {}
    for vid, v in run_a.store.variables.items():
        var_a.setdefault(str(v.get("name")), vid)

    b_only = {r.node_b for r in result.only_b}

    def key_of(nb):
        if partner.get(nb) is not None:
            return f"op{partner[nb]}"
        return f"b{nb}" if nb in b_only else None
    placed, unplaced = {}, 0
    for row in result.only_b:
        op = ops_b.get(row.node_b)
        tape = mapping.get(op["tapes"][0]) if op and op["tapes"] else None
        if tape is None:
            unplaced += 1
            continue
        nodes, edges = placed.setdefault(tape, ([], []))
        key = f"b{row.node_b}"
        outs = clip_refs(op["outputs"])
        nodes.append({"key": key, "kind": "op", "shape": "box",
                      "label": _short("+" + clip_name(op["op"])),
                      "name": ", ".join(str(o.get("name") or "") for o in outs),
                      "op": f"{clip_name(op['op'])} (run b only)", "node": None,
                      "tensor": None, "ghost_of": row.node_b,
                      "shapes": " ".join(shape_str(o.get("shape")) for o in outs),
                      "dtypes": " ".join(str(o.get("dtype") or "?") for o in outs),
                      "summary": summary_text(outs[0].get("summary")) if outs else "",
                      "site": clip_site(op["site"]), "scope": clip_scope(op["scope"]),
                      "cluster": None, "how": None, "dash": "dashed",
                      **{f"fill_{mode}": ONE_RUN for mode in MODES},
                      **{f"rank_{mode}": RANK[ONE_RUN] for mode in MODES}})
        for i, r in enumerate(clip_refs(op["inputs"])):
            tail = key_of(made_by.get(r.get("id")))
            if tail is None and r.get("kind") == "variable" and str(r.get("name")) in var_a:
                tail = f"t{var_a[str(r.get('name'))]}"
            if tail is not None:
                edges.append(_edge(tail, key, r, i))
        for r in clip_refs(op["outputs"]):
            for reader in readers.get(r.get("id"), []):
                head = key_of(reader)
                if head is not None and not head.startswith("b"):
                    edges.append(_edge(key, head, r, 0))
    return placed, unplaced


def _edge(tail, head, ref, index) -> dict:
    shape = ref.get("shape")
    label = "scalar" if shape == [] else shape_str(shape)
    return {"tail": tail, "head": head, "tensor": None, "label": label, "cut": False,
            "ghost": True, "index": index}


def _focus(result, run_a, run_b, ghosts):
    """The tape to open on and the graph key of the first divergence on it: where the
    first divergence is drawn (an op of a, or a ghost of b), else the first op on a tape
    that differs after it (a changed learning rate first shows in an update on no tape)."""
    first = result.first_divergence
    if first is None:
        return None, None
    ops_a = run_a.store.ops
    if first.node_a in ops_a and ops_a[first.node_a]["tapes"]:
        return ops_a[first.node_a]["tapes"][0], f"op{first.node_a}"
    for tape, (nodes, _) in ghosts.items():
        if any(n["ghost_of"] == first.node_b for n in nodes if first.node_b is not None):
            return tape, f"b{first.node_b}"
    for row in result.pairs:
        if row.position > first.position and row.forward_differs and row.node_a in ops_a \
                and ops_a[row.node_a]["tapes"]:
            return ops_a[row.node_a]["tapes"][0], f"op{row.node_a}"
    return None, None


def _short(text: str, n: int = 22) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def comparison_for(path_a, path_b, *, tape_a=None, tape_b=None, call_a=None, call_b=None,
                   rtol: float = 1e-5, atol: float = 1e-8, max_tapes: int = 50,
                   max_calls: int = 200) -> CompareStore:
    """A :class:`CompareStore` of two finished recordings, made once per process for the
    last few pairs (every tab shares it; nothing writes to it after it is made). Each file
    is parsed once: the diff and the store of run a read the same events. Raises what
    :func:`tapeviz.diff` raises (``ValueError`` for a tape or call a run does not have)."""
    from ...recording import load_recording
    from ...rundiff import compare_runs
    options = dict(tape_a=tape_a, tape_b=tape_b, call_a=call_a, call_b=call_b, rtol=rtol,
                   atol=atol)
    paths = [os.path.abspath(p) for p in (path_a, path_b)]
    stats = [os.stat(p) for p in paths]
    key = (*((p, s.st_mtime_ns, s.st_size) for p, s in zip(paths, stats)),
           tuple(sorted(options.items())), max_tapes, max_calls)
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit
    rec_a = load_recording(paths[0])
    rec_b = rec_a if paths[1] == paths[0] else load_recording(paths[1])
    result, run_a, run_b = compare_runs(rec_a, rec_b, **options)
    store = CompareStore(result, run_a, run_b, max_tapes=max_tapes, max_calls=max_calls)
    store.ingest(rec_a)
    store.warnings = [f"a: {w}" for w in rec_a.warnings] + [f"b: {w}" for w in rec_b.warnings]
    store.sources = rec_a.sources
    with _CACHE_LOCK:
        _CACHE[key] = store
        while len(_CACHE) > _KEPT:
            _CACHE.popitem(last=False)
    return store
