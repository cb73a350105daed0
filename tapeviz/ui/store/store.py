"""The dashboard's store: events in, tables out.

A :class:`Store` ingests tape events incrementally (as :class:`tapeviz.events.Event` objects or
their JSON dicts) and keeps what the views draw: tapes, ops, tensors, variables, gradient
calls with their backward steps and explanations, training scalars. A tape's graph (nodes and
edges) is derived from these tables in :mod:`tapeviz.ui.store.tape_graph`, and the value summaries
read as text in :mod:`tapeviz.ui.store.summaries`. Each event kind has one handler, in
:mod:`~tapeviz.ui.store.tape_events` (tapes, ops, ghosts) or
:mod:`~tapeviz.ui.store.gradient_events` (gradient calls, results, scalars). It reads only
events (never the engine) and keeps memory bounded: at most ``max_tapes`` tapes (by
default ``limits.KEEP_TAPES``; ``tapeviz serve/export --keep-tapes`` pass another) and
``max_calls`` gradient calls are kept in full; past them the tapes that tell the run's story
(where gradients turned NaN/Inf, where a verdict changed, the first calls, jumps and their
lead-up) are kept before the newest, and later repeats of an anomaly go first
(:mod:`~tapeviz.ui.store.story`). A dropped call's norms stay in the training history, itself
capped at ``max_history`` rows.

>>> s = Store()
>>> s.ingest([{"kind": "tape_opened", "tape": 1, "seq": 1}])
>>> s.tape_ids()
[1]
"""
from __future__ import annotations

from collections import OrderedDict, deque

import param

from . import gradient_events, tape_events
from .flight_calls import FlightCalls
from . import limits
from .summaries import shape_str, summary_text
from .tape_graph import build_graph


def _d(event) -> dict:
    return event if isinstance(event, dict) else event.to_dict()


class Store(param.Parameterized):
    """Events in, tables out. Views watch ``version`` (bumped once per ingested batch).

    Events are only read, never changed: sessions of one server share a parsed recording."""

    version = param.Integer(default=0, doc="bumped after each ingested batch")
    ended = param.Boolean(default=False, doc="the event source has ended")
    n_events = param.Integer(default=0)
    max_tapes = param.Integer(default=limits.KEEP_TAPES, bounds=(1, None),
                              doc="tapes kept (None: limits.KEEP_TAPES)")
    max_calls = param.Integer(default=200, bounds=(1, None))
    max_history = param.Integer(default=50_000, bounds=(1, None))

    def __init__(self, **params):
        if params.get("max_tapes") is None:     # callers pass None for "the default"
            params["max_tapes"] = limits.KEEP_TAPES
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
        self.notes: list = []                   # run notes (gradient_events.note), in order
        self.flight = FlightCalls(self.max_history)   # a flight recording's call summaries
        self.open_tapes: list = []
        self.paused: set = set()
        self.untaped: OrderedDict = OrderedDict()   # tensor id -> the untaped op that made it
        self.unknown = 0
        self.warnings: list = []                # the reader's, for a loaded file: shown once
        self._graph_cache: dict = {}
        self._op_tapes: dict = {}               # op node id -> how many kept tapes hold it
        # what is kept past the limits (story.py): each kept call's and tape's rank, the
        # calls where gradients turned NaN/Inf (a page labels their tapes), the verdict each
        # source had last, and how many tapes, finished calls and summaries came in all
        self.call_ranks: dict = {}
        self.tape_ranks: dict = {}
        self.pinned_calls: set = set()
        self._verdicts: dict = {}
        self._last_nonfinite = False
        self.tapes_seen = self.calls_seen = self.summaries_seen = 0
        self._evictions = 0

    # ---- ingestion -------------------------------------------------------------------------
    def ingest(self, events) -> None:
        """Apply a batch of events, then bump ``version`` once."""
        n = 0
        for ev in events:
            try:
                self._take(_d(ev))
            except Exception:        # a malformed event must not stop the others
                self.unknown += 1
            n += 1
        if n:
            self.param.update(n_events=self.n_events + n, version=self.version + 1)

    def _take(self, e: dict) -> None:
        """One event of :meth:`ingest`: a subclass that keeps some kinds its own way
        overrides this, and the loop (its counting, its bad events) stays the one above."""
        self._apply(e)

    # one handler per event kind (a subclass overrides one as any method)
    _on_tape_opened = tape_events.tape_opened
    _on_tape_closed = tape_events.tape_closed
    _on_watched = tape_events.watched
    _on_op_recorded = tape_events.op_recorded
    _on_recording_paused = tape_events.recording_paused
    _on_recording_resumed = tape_events.recording_resumed
    _on_variable_assigned = tape_events.variable_assigned
    _on_escaped = tape_events.escaped
    _on_op_defined = gradient_events.op_defined
    _on_gradient_started = gradient_events.gradient_started
    _on_backward_step = gradient_events.backward_step
    _on_gradient_finished = gradient_events.gradient_finished
    _on_scalar = gradient_events.scalar
    _on_note = gradient_events.note
    _on_call_summary = gradient_events.call_summary
    _evict_tape = tape_events.evict_tape
    _uses = tape_events.uses

    def _apply(self, e: dict) -> None:
        handler = getattr(self, "_on_" + str(e.get("kind", "")), None)
        if handler is None:
            self.unknown += 1
            return
        handler(e)

    def _drop_call(self, call_id):
        """Forget call ``call_id`` (its tape keeps its id in ``calls``: ``calls_for`` skips
        it); returns it, or None."""
        self.call_ranks.pop(call_id, None)
        self.pinned_calls.discard(call_id)
        return self.calls.pop(call_id, None)

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

    def _tape(self, tid) -> dict:
        if tid not in self.tapes:      # a recording that starts mid-run: invent the tape
            self._on_tape_opened({"tape": tid})
            self.open_tapes.remove(tid)
            self.tapes[tid]["open"] = False
        return self.tapes[tid]

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

    # ---- queries ---------------------------------------------------------------------------
    def tape_ids(self) -> list:
        return list(self.tapes)

    def counts_text(self) -> str:
        """What the view holds, against what the run had: "50 of 76 tapes held · 50 of 141
        gradient calls held (76 recorded in full)"; a count alone when all are held."""
        tapes = len(self.tapes)
        seen = max(self.tapes_seen, tapes)
        text = f"{tapes:,} of {seen:,} tapes held" if seen > tapes else f"{tapes:,} tape(s)"
        calls = len(self.calls)
        full = max(self.calls_seen, calls)
        total = max(self.summaries_seen, full)
        if total > calls:
            text += f" · {calls:,} of {total:,} gradient calls held"
            if self.summaries_seen and full < total:
                text += f" ({full:,} recorded in full)"
        else:
            text += f" · {calls:,} gradient call(s)"
        return text

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
        """The call a view opens on: a flight recording's first call with a NaN/Inf gradient,
        else its first anomalous call, while its events are kept (None otherwise: the latest
        tape)."""
        cid = self.flight.open_on
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
