"""How a :class:`~tapeviz.ui.store.store.Store` takes in what a tape records: tapes opened
and closed, watched tensors, ops, and the ghosts of what a tape did not record (ops skipped
or paused, variables assigned, values escaped to NumPy), with the eviction of old tapes.

Each function handles one event kind and is one of the store's methods (``Store._on_<kind>``),
so a store that needs more of an event (the run diff's) overrides it as any method.
"""
from __future__ import annotations

from collections import OrderedDict

from .limits import (UNTAPED_CHAIN, UNTAPED_KEPT, clip_name, clip_ref, clip_refs, clip_scope,
                     clip_site)
from .story import victim


def tape_opened(store, e):
    tid = e.get("tape")
    store.tapes[tid] = {"id": tid, "persistent": e.get("persistent", False),
                       "watch_accessed_variables": e.get("watch_accessed_variables", True),
                       "outer_tapes": _ints(e.get("outer_tapes")), "site": clip_site(e.get("site")),
                       "open": True, "nodes": [], "watched": OrderedDict(), "ghosts": [],
                       "ghost_nodes": set(),
                       "calls": [], "inner": [], "seq": e.get("seq", 0)}
    for outer in _ints(e.get("outer_tapes")):
        if outer in store.tapes:
            store.tapes[outer]["inner"].append(tid)
    store.open_tapes.append(tid)
    store.tapes_seen += 1
    while len(store.tapes) > store.max_tapes:    # the story first, then the newest (story.py)
        store._evict_tape(victim(store.tapes, store.tape_ranks, store.max_tapes,
                                 keep=store.open_tapes))


def evict_tape(store, tid):
    tape = store.tapes.pop(tid)
    store.tape_ranks.pop(tid, None)
    for cid in tape["calls"]:        # a call is shown on its tape: without it, nowhere
        store._drop_call(cid)
    ghosts = [g["node"] for g in tape["ghosts"] if g["type"] == "skipped"]
    for n in tape["nodes"] + ghosts:     # an op stays while another kept tape draws it
        left = store._op_tapes.get(n, 1) - 1
        if left > 0:
            store._op_tapes[n] = left
        else:
            store._op_tapes.pop(n, None)
            store.ops.pop(n, None)
    store._graph_cache.pop(tid, None)
    if tid in store.open_tapes:
        store.open_tapes.remove(tid)
    # forget tensors no longer referenced by any kept op, watch or variable: a pass over
    # everything kept, so only every few evictions (a training loop evicts a tape a step)
    store._evictions += 1
    if store._evictions % 16:
        return
    live = set(store.variables)
    for op in store.ops.values():
        live.update(r["id"] for r in op["inputs"])
        live.update(r["id"] for r in op["outputs"])
    for t in store.tapes.values():
        live.update(t["watched"])
    for c in store.calls.values():
        live.update(r.get("id") for r in c["sources"] + c["targets"])
    for k in [k for k in store.tensors if k not in live]:
        del store.tensors[k]


def tape_closed(store, e):
    tid = e.get("tape")
    if tid in store.tapes:
        store.tapes[tid]["open"] = False
    if tid in store.open_tapes:
        store.open_tapes.remove(tid)
    store.paused.discard(tid)


def watched(store, e):
    tape = store._tape(e.get("tape"))
    ref = clip_ref(e.get("tensor")) or {}
    store._note_tensor(ref)
    tape["watched"][ref.get("id")] = {"how": clip_name(e.get("how", "watch")),
                                      "site": clip_site(e.get("site"))}
    if ref.get("kind") == "variable":
        var = store._variable(ref)
        if tape["id"] not in var["watched_by"]:
            var["tapes_watching"] += 1
        var["watched_by"][tape["id"]] = clip_name(e.get("how", "watch"))
        if len(var["watched_by"]) > 20:
            var["watched_by"].pop(next(iter(var["watched_by"])))
    store._touch(tape["id"])


def op_recorded(store, e):
    tapes = _ints(e.get("tapes"))
    skipped = e.get("skipped")
    if not tapes and not skipped:
        if e.get("backward_of") is None and any(t in store.paused for t in store.open_tapes):
            skipped = "paused"     # ran inside stop_recording: a ghost on the paused tape
        else:
            _remember_untaped(store, e)
            return
    targets = tapes
    op = _slim(e, tapes, skipped)
    if skipped:
        # (a variable outlives its tape: an op that reads only variables of a closed tape,
        # a regulariser before the next tape opens, belongs to the tape that reads its output)
        ins = {r["id"] for r in op["inputs"]
               if skipped != "outside_tape" or r.get("kind") != "variable"}
        if skipped == "paused":      # every op of a stop_recording block is worth a ghost
            targets = [t for t in store.open_tapes if t in store.paused]
            targets = targets or [t for t in store.open_tapes if store._uses(store.tapes[t], ins)]
        else:
            targets = [t for t in list(store.tapes)[-5:] if store._uses(store.tapes[t], ins)]
        if not targets:
            if op["backward_of"] is None and _reads_trainable(store, op["inputs"]):
                _keep_untaped(store, op)
            return
    for r in op["inputs"] + op["outputs"]:
        store._note_tensor(r)
    store.ops[op["node"]] = op
    for tid in tapes:
        store._tape(tid)["nodes"].append(op["node"])
        store._op_tapes[op["node"]] = store._op_tapes.get(op["node"], 0) + 1
        store._touch(tid)
    if skipped:
        for tid in targets:
            _add_ghost(store, tid, op)
    if store.untaped:
        pull_untaped(store, [r["id"] for r in op["inputs"]], targets)


def _slim(e, tapes, skipped) -> dict:
    return {"node": e.get("node"), "op": clip_name(e.get("op", "")), "tapes": tapes,
            "inputs": clip_refs(e.get("inputs")), "outputs": clip_refs(e.get("outputs")),
            "attrs": e.get("attrs") if isinstance(e.get("attrs"), dict) else {},
            "site": clip_site(e.get("site")), "skipped": skipped,
            "backward_of": e.get("backward_of"), "scope": clip_scope(e.get("scope")),
            "seq": e.get("seq", 0)}


def _add_ghost(store, tid, op) -> None:
    """``op`` drawn on tape ``tid`` as an op the tape did not record (once); it stays in
    ``store.ops`` while a kept tape draws it (as a recorded op does)."""
    tape = store.tapes[tid]
    if op["node"] in tape["ghost_nodes"]:
        return
    tape["ghost_nodes"].add(op["node"])
    tape["ghosts"].append({"type": "skipped", "node": op["node"], "seq": op["seq"]})
    store._op_tapes[op["node"]] = store._op_tapes.get(op["node"], 0) + 1
    store._touch(tid)


def _reads_trainable(store, refs) -> bool:
    return any(isinstance(r, dict) and ((r.get("kind") == "variable" and r.get("trainable"))
                                        or r.get("id") in store.untaped) for r in refs)


def _remember_untaped(store, e) -> None:
    """An op that ran outside every tape on a trainable variable (or on what such an op
    made): a regulariser computed before the tape opens. Kept a while (at most
    ``limits.UNTAPED_KEPT`` outputs), to be drawn as a ghost if a tape's op reads it. Ops on
    data alone (preparing a batch, an optimizer's step) are not: no gradient was lost."""
    inputs = e.get("inputs")
    if e.get("backward_of") is not None or not isinstance(inputs, list):
        return
    if _reads_trainable(store, inputs):
        _keep_untaped(store, _slim(e, [], "outside_tape"))


def _keep_untaped(store, op) -> None:
    for r in op["outputs"]:
        store.untaped[r["id"]] = op
        store.untaped.move_to_end(r["id"])
    while len(store.untaped) > UNTAPED_KEPT:
        store.untaped.popitem(last=False)


def pull_untaped(store, ids, tids) -> None:
    """The untaped ops that made the tensors ``ids`` (an op's inputs, a gradient call's
    targets), and those that made theirs, up to ``UNTAPED_CHAIN``, as ghosts of the tapes
    ``tids``: the graph draws them, cut off from the tape's ops."""
    stack, seen = list(ids), set()
    while stack and len(seen) < UNTAPED_CHAIN:
        made = store.untaped.get(stack.pop())
        if made is None or made["node"] in seen:
            continue
        seen.add(made["node"])
        stack.extend(r["id"] for r in made["inputs"])
        for r in made["inputs"] + made["outputs"]:
            store._note_tensor(r)
        store.ops.setdefault(made["node"], made)
        for tid in tids:
            _add_ghost(store, tid, made)


def uses(store, tape, ids) -> bool:
    if ids & set(tape["watched"]):
        return True
    for n in tape["nodes"][-2000:]:
        op = store.ops.get(n)
        if op and any(r["id"] in ids for r in op["outputs"]):
            return True
    return any(g.get("node") in store.ops and
               any(r["id"] in ids for r in store.ops[g["node"]]["outputs"])
               for g in tape["ghosts"] if g["type"] == "skipped")


def recording_paused(store, e):
    store.paused.add(e.get("tape"))


def recording_resumed(store, e):
    store.paused.discard(e.get("tape"))


def variable_assigned(store, e):
    ref = clip_ref(e.get("variable")) or {}
    store._note_tensor(ref)
    var = store._variable(ref)
    var["assigns"] += 1
    if ref.get("summary") is not None:
        var["summary"] = ref["summary"]
    for tid in store.open_tapes:
        tape = store.tapes[tid]
        if ref.get("id") in tape["watched"] or store._uses(tape, {ref.get("id")}):
            tape["ghosts"].append({"type": "assign", "tensor": ref.get("id"),
                                   "label": clip_name(e.get("method", "assign")),
                                   "site": clip_site(e.get("site")),
                                   "value": (clip_ref(e.get("value")) or {}).get("summary"),
                                   "seq": e.get("seq", 0)})
            store._touch(tid)


def escaped(store, e):
    ref = clip_ref(e.get("tensor")) or {}
    store._note_tensor(ref)
    # a trainable Variable read out (b.numpy(), float(b)) is a cut even before any op of
    # the tape uses it: a tape that watches what it reads would have watched it
    readable = ref.get("kind") == "variable" and ref.get("trainable")
    for tid in store.open_tapes:
        tape = store.tapes[tid]
        if (store._uses(tape, {ref.get("id")}) or
                (readable and tape["watch_accessed_variables"] and tid not in store.paused)):
            tape["ghosts"].append({"type": "escaped", "tensor": ref.get("id"),
                                   "label": clip_name(e.get("via", "") or "NumPy"),
                                   "site": clip_site(e.get("site")),
                                   "seq": e.get("seq", 0)})
            store._touch(tid)


def _ints(value) -> list:
    """A list of ints from an event field (anything else is dropped)."""
    if not isinstance(value, (list, tuple)):
        return []
    return [v for v in value if isinstance(v, int) and not isinstance(v, bool)]
