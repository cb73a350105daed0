"""How a :class:`~tapeviz.ui.store.store.Store` takes in the gradients of a run: the ops'
formulas, gradient calls with their backward steps and results (the variables' gradients,
the training history, the calls kept past the limits where gradients turned NaN/Inf), and
the scalars a script reports.

Each function handles one event kind and is one of the store's methods (``Store._on_<kind>``).
"""
from __future__ import annotations

from collections import deque

from .chart_series import gradient_state
from .limits import MAX_NAME, MAX_NOTES, clip_list, clip_name, clip_refs, clip_result, clip_site, number
from .tape_events import pull_untaped
from .story import TURNED, WHY_RANKS, LEAD_UP, call_rank, raise_rank, victim


def op_defined(store, e):
    store.op_defs[clip_name(e.get("op", ""))] = {
        "formula": clip_name(e.get("formula", ""), 1000),
        "grad_formulas": [clip_name(f, 1000) for f in clip_list(e.get("grad_formulas"))],
        "differentiable": e.get("differentiable", True)}


def gradient_started(store, e):
    cid = e.get("call")
    targets, sources = clip_refs(e.get("targets")), clip_refs(e.get("sources"))
    for r in targets + sources:
        store._note_tensor(r)
        if r.get("kind") == "variable":
            store._variable(r)
    call = {"id": cid, "tape": e.get("tape"), "method": clip_name(e.get("method", "gradient")),
            "targets": targets, "sources": sources,
            "unconnected": clip_name(e.get("unconnected_gradients", "none")),
            "site": clip_site(e.get("site")),
            "steps": [], "results": None, "seq": e.get("seq", 0)}
    store.calls[cid] = call
    tape = store._tape(e.get("tape"))
    tape["calls"].append(cid)
    store._touch(tape["id"])
    if store.untaped:   # a target computed after the tape closed, from variables it read
        pull_untaped(store, [r.get("id") for r in targets], [tape["id"]])
    while len(store.calls) > store.max_calls:     # the story first, then the newest (story.py)
        old = store._drop_call(victim(store.calls, store.call_ranks, store.max_calls))
        if old["tape"] in store.tapes:
            calls = store.tapes[old["tape"]]["calls"]
            if old["id"] in calls:
                calls.remove(old["id"])


def backward_step(store, e):
    call = store.calls.get(e.get("call"))
    if call is None:
        return
    op_name = clip_name(e.get("op", ""))
    if e.get("formula") and op_name not in store.op_defs:
        # no op_defined event (the recording started after the op's first use): keep the
        # gradient formula the step carries, so the inspector still shows it
        store.op_defs[op_name] = {"formula": "",
                                 "grad_formulas": clip_name(e["formula"], 1000).split("; "),
                                     "differentiable": True, "partial": True}
    call["steps"].append({"step": e.get("step", len(call["steps"])), "node": e.get("node"),
                          "op": op_name,
                          "formula": clip_name(e.get("formula", ""), 1000),
                          "upstream": clip_list(e.get("upstream")),
                          "input_grads": [g for g in clip_list(e.get("input_grads"))
                                          if isinstance(g, dict)]})


def gradient_finished(store, e):
    cid = e.get("call")
    call = store.calls.get(cid)
    results = [clip_result(r) for r in clip_list(e.get("results")) if isinstance(r, dict)]
    if call is None:
        call = {"id": cid, "tape": e.get("tape"), "method": "gradient", "targets": [],
                "sources": [r.get("tensor") or {} for r in results], "unconnected": "none",
                "site": None, "steps": [], "results": None, "seq": e.get("seq", 0)}
        store.calls[cid] = call
    call["results"] = results
    rank = call_rank(store, call, results)
    raise_rank(store, cid, rank)
    if rank == TURNED:          # where NaN/Inf began: a page labels its tape so
        store.pinned_calls.add(cid)
    # (a flight recording's history rows come from its summaries, one per call: a
    # lead-up call's events follow its summary)
    summarized = store.flight.first_seen(cid)
    for r in results:
        ref = r.get("tensor") or {}
        store._note_tensor(ref)
        if summarized:
            continue
        name = store.tensor_name(ref.get("id"), ref.get("name", "?"))
        store.history.append({"call": cid, "tape": call["tape"], "name": name,
                             "id": ref.get("id"), "norm": r.get("norm"),
                             "verdict": r.get("verdict", ""),
                             # the norm covers finite elements only: NaN/Inf/None/zero
                             # are told apart here, from the gradient's summary
                             "state": gradient_state(r)})
        if ref.get("kind") == "variable":
            var = store._variable(ref)
            var.update(grad=r.get("grad"), norm=r.get("norm"), verdict=r.get("verdict") or "",
                       cause=r.get("cause") or "", call=cid)
    store._touch(call["tape"])


def scalar(store, e):
    name = clip_name(e.get("name", ""))
    series = store.scalars.get(name)
    if series is None:
        series = store.scalars[name] = deque(maxlen=store.max_history)
    step = e.get("step")
    value = number(e.get("value"))
    if value is None:         # not a number: nothing to draw (a reader warned, or a bug)
        store.unknown += 1
        return
    series.append((len(series) if step is None or type(step) is not int else step, value,
                   e.get("seq", 0)))


def note(store, e):
    """A run note (``events.Note``): kept in order, at most ``limits.MAX_NOTES`` (each code
    and subject is told once per run, so a run has few)."""
    if len(store.notes) >= MAX_NOTES:
        return
    store.notes.append({k: clip_name(e.get(k) or "", 4000 if k in ("message", "fix") else
                                     MAX_NAME) for k in ("code", "subject", "message", "fix")}
                       | {"site": clip_site(e.get("site"))})


def call_summary(store, e):
    """A flight recording's summary of one gradient call: a row of ``flight``, and the
    training charts' norms and scalars (it writes no ``scalar`` events of its own), so
    the charts cover every call, kept in full or not."""
    for scalar in clip_list(e.get("scalars")):
        if isinstance(scalar, dict):
            store._on_scalar(scalar)
    row = store.flight.add(e)
    if row is not None:
        store.summaries_seen += 1
        raise_rank(store, row["call"], WHY_RANKS.get(row["why"], 0))
        for index in clip_list(e.get("lead_up")):
            earlier = store.flight.rows.get(index) if type(index) is int else None
            if earlier is not None:
                raise_rank(store, earlier["call"], LEAD_UP)
    if row is None or (store.history and store.history[-1]["call"] == row["call"]):
        return      # (a kept call: its gradient_finished, just before, wrote its rows)
    for source in row["sources"]:
        store.history.append({"call": row["call"], "tape": row["tape"],
                              "name": source["name"], "id": None, "norm": source["norm"],
                              "verdict": source["verdict"], "state": source["verdict"]})
