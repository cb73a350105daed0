"""The dashboard's store: events in, tables out.

A :class:`Store` ingests tape events incrementally (as :class:`tapeviz.events.Event` objects or
their JSON dicts) and keeps what the views draw: tapes, ops, tensors, variables, gradient
calls with their backward steps and explanations, training scalars. A tape's graph (nodes and
edges) is derived from these tables in :mod:`tapeviz.ui.store.tape_graph`, and the value summaries
read as text in :mod:`tapeviz.ui.store.summaries`. It reads only
events (never the engine) and keeps memory bounded: the last ``max_tapes`` tapes and
``max_calls`` gradient calls are kept in full, older ones are dropped (their norms stay in the
training history, itself capped at ``max_history`` rows), except the calls where gradients
first turned NaN/Inf (at most ``MAX_PINNED``) and their tapes, which a later card points to.

>>> s = Store()
>>> s.ingest([{"kind": "tape_opened", "tape": 1, "seq": 1}])
>>> s.tape_ids()
[1]
"""
from __future__ import annotations

from collections import OrderedDict, deque

import param

from .chart_series import gradient_state
from .flight_calls import FlightCalls
from .limits import (clip_list, clip_name, clip_ref, clip_refs, clip_result, clip_scope,
                     clip_site, number)
from .summaries import shape_str, summary_text
from .tape_graph import build_graph


MAX_PINNED = 8      # calls where gradients turned non-finite, kept with their tapes (at most
                    # half of max_calls and max_tapes: the newest always have room)


def _oldest_unpinned(kept: dict, pinned: set):
    """The key to drop first: the oldest one not pinned."""
    return next((k for k in kept if k not in pinned), next(iter(kept)))


class Store(param.Parameterized):
    """Events in, tables out. Views watch ``version`` (bumped once per ingested batch).

    Events are only read, never changed: sessions of one server share a parsed recording."""

    version = param.Integer(default=0, doc="bumped after each ingested batch")
    ended = param.Boolean(default=False, doc="the event source has ended")
    n_events = param.Integer(default=0)
    max_tapes = param.Integer(default=50, bounds=(1, None))
    max_calls = param.Integer(default=200, bounds=(1, None))
    max_history = param.Integer(default=50_000, bounds=(1, None))

    def __init__(self, **params):
        super().__init__(**params)
        self.op_defs: dict = {}                 # op name -> {"formula", "grad_formulas", ...}
        self.sources: dict = {}                 # file -> {line: text}: the source the run carries
        self.tapes: "OrderedDict[int, dict]" = OrderedDict()
        self.ops: dict = {}                     # op node id -> op_recorded dict (slim)
        self.tensors: dict = {}                 # tensor id -> best-known ref (no summary)
        self.variables: "OrderedDict[int, dict]" = OrderedDict()
        self.calls: "OrderedDict[int, dict]" = OrderedDict()
        self.history: deque = deque(maxlen=self.max_history)   # per-call, per-source norms
        self.scalars: dict = {}                 # name -> deque of (step, value)
        self.flight = FlightCalls(self.max_history)   # a flight recording's call summaries
        self.open_tapes: list = []
        self.paused: set = set()
        self.unknown = 0
        self.warnings: list = []                # the reader's, for a loaded file: shown once
        self._graph_cache: dict = {}
        self._op_tapes: dict = {}               # op node id -> how many kept tapes hold it
        # the calls (and their tapes) where gradients turned NaN/Inf after finite ones: kept
        # past max_tapes/max_calls, since a later nan_input card sends the user there
        self.pinned_calls: set = set()
        self.pinned_tapes: set = set()
        self._last_nonfinite = False
        self._evictions = 0

    # ---- ingestion -------------------------------------------------------------------------
    def ingest(self, events) -> None:
        """Apply a batch of events, then bump ``version`` once."""
        n = 0
        for ev in events:
            try:
                self._take(ev if isinstance(ev, dict) else ev.to_dict())
            except Exception:        # a malformed event must not stop the others
                self.unknown += 1
            n += 1
        if n:
            self.param.update(n_events=self.n_events + n, version=self.version + 1)

    def _take(self, e: dict) -> None:
        """One event of :meth:`ingest`: a subclass that keeps some kinds its own way
        overrides this, and the loop (its counting, its bad events) stays the one above."""
        self._apply(e)

    def _apply(self, e: dict) -> None:
        handler = getattr(self, "_on_" + str(e.get("kind", "")), None)
        if handler is None:
            self.unknown += 1
            return
        handler(e)

    def _touch(self, tape_id) -> None:
        self._graph_cache.pop(tape_id, None)

    def _note_tensor(self, ref) -> None:
        """``ref`` as :func:`.limits.clip_ref` gives it (name, shape and dtype bounded)."""
        if not isinstance(ref, dict) or "id" not in ref:
            return
        tid = ref["id"]
        old = self.tensors.get(tid)
        slim = {k: ref.get(k) for k in ("id", "name", "shape", "dtype", "kind", "trainable", "node")}
        slim["summary"] = ref.get("summary")
        if old is None:
            self.tensors[tid] = slim
            return
        # a variable's authoritative name/trainable come from refs that carry `trainable`
        if ref.get("kind") == "variable" and ref.get("trainable") is None and old.get("trainable") is not None:
            old["summary"] = ref.get("summary") or old.get("summary")
            return
        old.update({k: v for k, v in slim.items() if v is not None})

    def _on_op_defined(self, e):
        self.op_defs[clip_name(e.get("op", ""))] = {
            "formula": clip_name(e.get("formula", ""), 1000),
            "grad_formulas": [clip_name(f, 1000) for f in clip_list(e.get("grad_formulas"))],
            "differentiable": e.get("differentiable", True)}

    def _on_tape_opened(self, e):
        tid = e.get("tape")
        self.tapes[tid] = {"id": tid, "persistent": e.get("persistent", False),
                           "watch_accessed_variables": e.get("watch_accessed_variables", True),
                           "outer_tapes": _ints(e.get("outer_tapes")), "site": clip_site(e.get("site")),
                           "open": True, "nodes": [], "watched": OrderedDict(), "ghosts": [],
                           "calls": [], "inner": [], "seq": e.get("seq", 0)}
        for outer in _ints(e.get("outer_tapes")):
            if outer in self.tapes:
                self.tapes[outer]["inner"].append(tid)
        self.open_tapes.append(tid)
        while len(self.tapes) > self.max_tapes:
            self._evict_tape(_oldest_unpinned(self.tapes, self.pinned_tapes))

    def _tape(self, tid) -> dict:
        if tid not in self.tapes:      # a recording that starts mid-run: invent the tape
            self._on_tape_opened({"tape": tid})
            self.open_tapes.remove(tid)
            self.tapes[tid]["open"] = False
        return self.tapes[tid]

    def _evict_tape(self, tid):
        tape = self.tapes.pop(tid)
        for n in tape["nodes"]:          # an op stays while another kept tape recorded it
            left = self._op_tapes.get(n, 1) - 1
            if left > 0:
                self._op_tapes[n] = left
            else:
                self._op_tapes.pop(n, None)
                self.ops.pop(n, None)
        self._graph_cache.pop(tid, None)
        if tid in self.open_tapes:
            self.open_tapes.remove(tid)
        # forget tensors no longer referenced by any kept op, watch or variable: a pass over
        # everything kept, so only every few evictions (a training loop evicts a tape a step)
        self._evictions += 1
        if self._evictions % 16:
            return
        live = set(self.variables)
        for op in self.ops.values():
            live.update(r["id"] for r in op["inputs"])
            live.update(r["id"] for r in op["outputs"])
        for t in self.tapes.values():
            live.update(t["watched"])
        for c in self.calls.values():
            live.update(r.get("id") for r in c["sources"] + c["targets"])
        for k in [k for k in self.tensors if k not in live]:
            del self.tensors[k]

    def _on_tape_closed(self, e):
        tid = e.get("tape")
        if tid in self.tapes:
            self.tapes[tid]["open"] = False
        if tid in self.open_tapes:
            self.open_tapes.remove(tid)
        self.paused.discard(tid)

    def _on_watched(self, e):
        tape = self._tape(e.get("tape"))
        ref = clip_ref(e.get("tensor")) or {}
        self._note_tensor(ref)
        tape["watched"][ref.get("id")] = {"how": clip_name(e.get("how", "watch")),
                                          "site": clip_site(e.get("site"))}
        if ref.get("kind") == "variable":
            var = self._variable(ref)
            if tape["id"] not in var["watched_by"]:
                var["tapes_watching"] += 1
            var["watched_by"][tape["id"]] = clip_name(e.get("how", "watch"))
            if len(var["watched_by"]) > 20:
                var["watched_by"].pop(next(iter(var["watched_by"])))
        self._touch(tape["id"])

    def _variable(self, ref) -> dict:
        vid = ref.get("id")
        var = self.variables.get(vid)
        if var is None:
            var = self.variables[vid] = {"id": vid, "name": ref.get("name", ""),
                                         "shape": ref.get("shape"), "dtype": ref.get("dtype"),
                                         "trainable": ref.get("trainable"),
                                         "summary": ref.get("summary"), "watched_by": OrderedDict(),
                                         "grad": None, "norm": None, "verdict": "", "cause": "",
                                         "call": None, "assigns": 0, "tapes_watching": 0}
        elif ref.get("trainable") is not None:
            var.update(name=ref.get("name", var["name"]), trainable=ref.get("trainable"),
                       shape=ref.get("shape"), dtype=ref.get("dtype"))
        if ref.get("summary") is not None and (ref.get("trainable") is not None or var["summary"] is None):
            var["summary"] = ref.get("summary")
        return var

    def _on_op_recorded(self, e):
        tapes = _ints(e.get("tapes"))
        skipped = e.get("skipped")
        if not tapes and not skipped:
            if e.get("backward_of") is None and any(t in self.paused for t in self.open_tapes):
                skipped = "paused"     # ran inside stop_recording: a ghost on the paused tape
            else:
                return      # ran outside every tape and touched none: nothing to draw
        op = {"node": e.get("node"), "op": clip_name(e.get("op", "")), "tapes": tapes,
              "inputs": clip_refs(e.get("inputs")), "outputs": clip_refs(e.get("outputs")),
              "attrs": e.get("attrs") if isinstance(e.get("attrs"), dict) else {},
              "site": clip_site(e.get("site")), "skipped": skipped,
              "backward_of": e.get("backward_of"), "scope": clip_scope(e.get("scope")),
              "seq": e.get("seq", 0)}
        for r in op["inputs"] + op["outputs"]:
            self._note_tensor(r)
        self.ops[op["node"]] = op
        for tid in tapes:
            self._tape(tid)["nodes"].append(op["node"])
            self._op_tapes[op["node"]] = self._op_tapes.get(op["node"], 0) + 1
            self._touch(tid)
        if skipped:
            ins = {r["id"] for r in op["inputs"]}
            if skipped == "paused":      # every op of a stop_recording block is worth a ghost
                targets = [t for t in self.open_tapes if t in self.paused]
                targets = targets or [t for t in self.open_tapes if self._uses(self.tapes[t], ins)]
            else:
                targets = [t for t in list(self.tapes)[-5:] if self._uses(self.tapes[t], ins)]
            for tid in targets:
                self.tapes[tid]["ghosts"].append({"type": "skipped", "node": op["node"],
                                                  "seq": op["seq"]})
                self._touch(tid)

    def _uses(self, tape, ids) -> bool:
        if ids & set(tape["watched"]):
            return True
        for n in tape["nodes"][-2000:]:
            op = self.ops.get(n)
            if op and any(r["id"] in ids for r in op["outputs"]):
                return True
        return any(g.get("node") in self.ops and
                   any(r["id"] in ids for r in self.ops[g["node"]]["outputs"])
                   for g in tape["ghosts"] if g["type"] == "skipped")

    def _on_recording_paused(self, e):
        self.paused.add(e.get("tape"))

    def _on_recording_resumed(self, e):
        self.paused.discard(e.get("tape"))

    def _on_variable_assigned(self, e):
        ref = clip_ref(e.get("variable")) or {}
        self._note_tensor(ref)
        var = self._variable(ref)
        var["assigns"] += 1
        if ref.get("summary") is not None:
            var["summary"] = ref["summary"]
        for tid in self.open_tapes:
            tape = self.tapes[tid]
            if ref.get("id") in tape["watched"] or self._uses(tape, {ref.get("id")}):
                tape["ghosts"].append({"type": "assign", "tensor": ref.get("id"),
                                       "label": clip_name(e.get("method", "assign")),
                                       "site": clip_site(e.get("site")),
                                       "value": (clip_ref(e.get("value")) or {}).get("summary"),
                                       "seq": e.get("seq", 0)})
                self._touch(tid)

    def _on_escaped(self, e):
        ref = clip_ref(e.get("tensor")) or {}
        self._note_tensor(ref)
        # a trainable Variable read out (b.numpy(), float(b)) is a cut even before any op of
        # the tape uses it: a tape that watches what it reads would have watched it
        readable = ref.get("kind") == "variable" and ref.get("trainable")
        for tid in self.open_tapes:
            tape = self.tapes[tid]
            if (self._uses(tape, {ref.get("id")}) or
                    (readable and tape["watch_accessed_variables"] and tid not in self.paused)):
                tape["ghosts"].append({"type": "escaped", "tensor": ref.get("id"),
                                       "label": clip_name(e.get("via", "") or "NumPy"),
                                       "site": clip_site(e.get("site")),
                                       "seq": e.get("seq", 0)})
                self._touch(tid)

    def _on_gradient_started(self, e):
        cid = e.get("call")
        targets, sources = clip_refs(e.get("targets")), clip_refs(e.get("sources"))
        for r in targets + sources:
            self._note_tensor(r)
            if r.get("kind") == "variable":
                self._variable(r)
        call = {"id": cid, "tape": e.get("tape"), "method": clip_name(e.get("method", "gradient")),
                "targets": targets, "sources": sources,
                "unconnected": clip_name(e.get("unconnected_gradients", "none")),
                "site": clip_site(e.get("site")),
                "steps": [], "results": None, "seq": e.get("seq", 0)}
        self.calls[cid] = call
        tape = self._tape(e.get("tape"))
        tape["calls"].append(cid)
        self._touch(tape["id"])
        while len(self.calls) > self.max_calls:
            old = self.calls.pop(_oldest_unpinned(self.calls, self.pinned_calls))
            if old["tape"] in self.tapes:
                calls = self.tapes[old["tape"]]["calls"]
                if old["id"] in calls:
                    calls.remove(old["id"])

    def _on_backward_step(self, e):
        call = self.calls.get(e.get("call"))
        if call is None:
            return
        op_name = clip_name(e.get("op", ""))
        if e.get("formula") and op_name not in self.op_defs:
            # no op_defined event (the recording started after the op's first use): keep the
            # gradient formula the step carries, so the inspector still shows it
            self.op_defs[op_name] = {"formula": "",
                                     "grad_formulas": clip_name(e["formula"], 1000).split("; "),
                                         "differentiable": True, "partial": True}
        call["steps"].append({"step": e.get("step", len(call["steps"])), "node": e.get("node"),
                              "op": op_name,
                              "formula": clip_name(e.get("formula", ""), 1000),
                              "upstream": clip_list(e.get("upstream")),
                              "input_grads": [g for g in clip_list(e.get("input_grads"))
                                              if isinstance(g, dict)]})

    def _on_gradient_finished(self, e):
        cid = e.get("call")
        call = self.calls.get(cid)
        results = [clip_result(r) for r in clip_list(e.get("results")) if isinstance(r, dict)]
        if call is None:
            call = {"id": cid, "tape": e.get("tape"), "method": "gradient", "targets": [],
                    "sources": [r.get("tensor") or {} for r in results], "unconnected": "none",
                    "site": None, "steps": [], "results": None, "seq": e.get("seq", 0)}
            self.calls[cid] = call
        call["results"] = results
        nonfinite = any(r.get("verdict") in ("nan", "inf") for r in results)
        room = min(MAX_PINNED, self.max_calls // 2, self.max_tapes // 2)   # the rest: newest
        if nonfinite and not self._last_nonfinite and len(self.pinned_calls) < room:
            self.pinned_calls.add(cid)
            self.pinned_tapes.add(call["tape"])
        self._last_nonfinite = nonfinite
        # (a flight recording's history rows come from its summaries, one per call: a
        # lead-up call's events follow its summary)
        summarized = self.flight.first_seen(cid)
        for r in results:
            ref = r.get("tensor") or {}
            self._note_tensor(ref)
            if summarized:
                continue
            name = self.tensor_name(ref.get("id"), ref.get("name", "?"))
            self.history.append({"call": cid, "tape": call["tape"], "name": name,
                                 "id": ref.get("id"), "norm": r.get("norm"),
                                 "verdict": r.get("verdict", ""),
                                 # the norm covers finite elements only: NaN/Inf/None/zero
                                 # are told apart here, from the gradient's summary
                                 "state": gradient_state(r)})
            if ref.get("kind") == "variable":
                var = self._variable(ref)
                var.update(grad=r.get("grad"), norm=r.get("norm"), verdict=r.get("verdict") or "",
                           cause=r.get("cause") or "", call=cid)
        self._touch(call["tape"])

    def _on_scalar(self, e):
        name = clip_name(e.get("name", ""))
        series = self.scalars.get(name)
        if series is None:
            series = self.scalars[name] = deque(maxlen=self.max_history)
        step = e.get("step")
        value = number(e.get("value"))
        if value is None:         # not a number: nothing to draw (a reader warned, or a bug)
            self.unknown += 1
            return
        series.append((len(series) if step is None or type(step) is not int else step, value,
                       e.get("seq", 0)))

    def _on_call_summary(self, e):
        """A flight recording's summary of one gradient call: a row of ``flight``, and the
        training charts' norms and scalars (it writes no ``scalar`` events of its own), so
        the charts cover every call, kept in full or not."""
        for scalar in clip_list(e.get("scalars")):
            if isinstance(scalar, dict):
                self._on_scalar(scalar)
        row = self.flight.add(e)
        if row is None or (self.history and self.history[-1]["call"] == row["call"]):
            return      # (a kept call: its gradient_finished, just before, wrote its rows)
        for source in row["sources"]:
            self.history.append({"call": row["call"], "tape": row["tape"],
                                 "name": source["name"], "id": None, "norm": source["norm"],
                                 "verdict": source["verdict"], "state": source["verdict"]})

    # ---- queries ---------------------------------------------------------------------------
    def tape_ids(self) -> list:
        return list(self.tapes)

    def tensor_name(self, tid, default: str = "") -> str:
        """Always a string: a ref may come without a name (lineage-only refs, other writers)."""
        if tid in self.variables and self.variables[tid].get("name"):
            return str(self.variables[tid]["name"])
        t = self.tensors.get(tid)
        return str((t or {}).get("name") or default or (f"tensor {tid}" if tid is not None else ""))

    def calls_for(self, tape_id) -> list:
        tape = self.tapes.get(tape_id)
        return [c for c in (tape or {}).get("calls", []) if c in self.calls]

    def opening_call(self):
        """The call a view opens on: a flight recording's first anomalous call while its
        events are kept (None otherwise: the latest tape)."""
        cid = self.flight.first_anomaly
        call = self.calls.get(cid) if cid is not None else None
        return cid if call is not None and call["tape"] in self.tapes else None

    def latest_tape(self):
        """The most interesting tape: the last one that has a gradient call, else the last one."""
        for tid in reversed(self.tapes):
            if self.tapes[tid]["calls"] and not self.tapes[tid]["outer_tapes"]:
                return tid
        for tid in reversed(self.tapes):
            if self.tapes[tid]["calls"]:
                return tid
        return next(reversed(self.tapes), None)

    def call_for_node(self, call_id, node_id):
        """The step index of ``node_id`` in the call's backward pass, or None."""
        call = self.calls.get(call_id)
        if call is None:
            return None
        for i, s in enumerate(call["steps"]):
            if s["node"] == node_id:
                return i
        return None

    def graph(self, tape_id) -> dict:
        """Nodes, edges and clusters of one tape, cached until that tape changes."""
        hit = self._graph_cache.get(tape_id)
        if hit is None:
            hit = self._graph_cache[tape_id] = build_graph(self, tape_id)
        return hit

    def variables_rows(self) -> list:
        rows = []
        for v in self.variables.values():
            rows.append({"id": v["id"], "name": v["name"], "shape": shape_str(v["shape"]),
                         "dtype": v["dtype"] or "",
                         "trainable": "" if v["trainable"] is None else ("yes" if v["trainable"] else "no"),
                         "watched by": _watched_by(v),
                         "value": summary_text(v["summary"]),
                         "gradient": summary_text(v["grad"]) if v["call"] is not None else "",
                         "norm": v["norm"], "verdict": v["verdict"], "cause": v["cause"]})
        return rows


def _watched_by(var) -> str:
    """The last three tapes that watched a variable, newest last, and how many came before
    (a training loop opens a tape a step: without the count, three tapes read as all)."""
    last = list(var["watched_by"].items())[-3:]
    text = ", ".join(f"tape {t} ({h})" for t, h in last)
    earlier = var["tapes_watching"] - len(last)
    return f"{text} and {earlier:,} earlier" if earlier > 0 else text


def _ints(value) -> list:
    """A list of ints from an event field (anything else is dropped)."""
    if not isinstance(value, (list, tuple)):
        return []
    return [v for v in value if isinstance(v, int) and not isinstance(v, bool)]
