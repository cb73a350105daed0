"""Comparing two runs: where they first part ways, forward and backward.

``tv.diff(a, b)`` and ``tapeviz diff a.tvz b.tvz``: see ``docs/diff.md``. Reading is
:mod:`.runs`, aligning the ops :mod:`.align`, comparing values :mod:`.compare`, the data
returned :mod:`.result` and its text :mod:`.report`.
"""
from __future__ import annotations

import contextlib
import gc
import math
import os

from .align import align, match_by_key
from .compare import compare_refs, compare_summaries
from .result import GradientDiff, OpDiff, RunDiff, StepDiff
from .runs import Run, site_file

__all__ = ["diff", "compare_runs", "Run", "RunDiff", "OpDiff", "StepDiff", "GradientDiff"]


def diff(a, b, *, tape_a=None, tape_b=None, call_a=None, call_b=None,
         rtol: float = 1e-5, atol: float = 1e-8) -> RunDiff:
    """Compare two runs: recordings (paths, or what :func:`tapeviz.load_recording` returned),
    or two tapes (``tape_a``/``tape_b``) or gradient calls (``call_a``/``call_b``) of them
    (pass the same recording twice to compare within one run). Values within
    ``|a - b| <= atol + rtol * |b|`` agree. Raises ``ValueError`` for bad options or a tape or
    call a run does not have, and what :func:`tapeviz.load_recording` raises for a file."""
    return compare_runs(a, b, tape_a=tape_a, tape_b=tape_b, call_a=call_a, call_b=call_b,
                        rtol=rtol, atol=atol)[0]


def compare_runs(a, b, *, tape_a=None, tape_b=None, call_a=None, call_b=None,
                 rtol: float = 1e-5, atol: float = 1e-8) -> tuple:
    """As :func:`diff`, and the two :class:`Run` sides it read: ``(RunDiff, run_a, run_b)``.
    A view of the comparison draws the ops of one run only from the other's store."""
    for name, value in (("rtol", rtol), ("atol", atol)):
        if not isinstance(value, (int, float)) or isinstance(value, bool) or \
                not value >= 0 or value == math.inf:
            raise ValueError(f"tv.diff: {name} must be a finite number >= 0, got {value!r}")
    if (tape_a is None) != (tape_b is None) and (call_a is None) == (call_b is None):
        raise ValueError("tv.diff: give a tape on each side (tape_a and tape_b; "
                         "--tape-a and --tape-b)")
    if (call_a is None) != (call_b is None):
        raise ValueError("tv.diff: give a gradient call on each side (call_a and call_b; "
                         "--call-a and --call-b)")
    if tape_a is not None and call_a is not None:
        raise ValueError("tv.diff: pick tapes or gradient calls, not both (a call implies "
                         "its tape)")
    with _collector_paused():
        run_a = Run(_load(a), _label(a, "a"), tape=tape_a, call=call_a)
        run_b = Run(_load(b), _label(b, "b"), tape=tape_b, call=call_b)
        return _compare(run_a, run_b, float(rtol), float(atol)), run_a, run_b


@contextlib.contextmanager
def _collector_paused():
    """Two recordings make hundreds of thousands of small dicts and lists, with no reference
    cycles among them. The cyclic collector's passes over them, while the second run is read
    and again when it is turned back on, took about a third of a diff's time (130 ms against
    100 ms for two 1,000-op recordings). So it is paused for the diff, and what the diff made
    then joins the oldest generation without a pass over it: ``gc.freeze()`` sets every
    tracked object aside and ``gc.unfreeze()`` puts them there, both without traversing them
    (skipped when the program froze objects itself, which unfreeze would release)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def _load(source):
    if isinstance(source, (str, os.PathLike)):
        from ..recording import load_recording
        return load_recording(source)
    return source


def _label(source, default: str) -> str:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return getattr(source, "path", None) or default


def _compare(run_a: Run, run_b: Run, rtol: float, atol: float) -> RunDiff:
    ops_a, ops_b = run_a.timeline, run_b.timeline
    matched, only_a_idx, only_b_idx = align(ops_a, ops_b)
    rows, node_b = _op_rows(ops_a, ops_b, matched, only_a_idx, only_b_idx, rtol, atol)
    by_node_a = {r.node_a: r for r in rows if r.node_a is not None}
    call_pairs = _pair_calls(run_a, run_b)
    gradients, first_backward = [], None
    for ca, cb in call_pairs:
        if ca is None or cb is None:
            continue
        step = _compare_steps(run_a, run_b, ca, cb, node_b, by_node_a, rtol, atol)
        first_backward = first_backward or step
        gradients += _compare_results(run_a.store.calls[ca], run_b.store.calls[cb], rtol, atol)
    rows.sort(key=lambda r: r.position)
    first = next((r for r in rows if r.structural or r.forward_differs), None)
    first_forward = next((r for r in rows if r.op_a is not None and r.op_b is not None
                          and r.forward_differs), None)
    for row in (first, first_forward):
        if row is not None and row.op_a is not None and row.op_b is not None:
            row.inputs_differ = _inputs_differ(run_a, run_b, row, rtol, atol)
    return RunDiff(
        a=run_a.label, b=run_b.label, rtol=rtol, atol=atol,
        pairs=[r for r in rows if r.op_a is not None and r.op_b is not None],
        only_a=[r for r in rows if r.op_b is None], only_b=[r for r in rows if r.op_a is None],
        first_divergence=first,
        first_forward=first_forward,
        first_backward=first_backward, gradients=gradients,
        calls=[[ca, cb] for ca, cb in call_pairs],
        warnings=[f"{run.label}: {w}" for run in (run_a, run_b) for w in run.warnings[:5]])


def _op_rows(ops_a, ops_b, matched, only_a_idx, only_b_idx, rtol, atol):
    """An OpDiff per aligned pair and per unmatched op, positioned in one execution order:
    A's, with B's own ops placed after the last op of A aligned before them."""
    partner_of_b = {j: i for i, j, _ in matched}
    position_b, last = {}, -1
    for j in range(len(ops_b)):
        if j in partner_of_b:
            last = partner_of_b[j]
        position_b[j] = last
    rows, node_b = [], {}
    for i, j, how in matched:
        oa, ob = ops_a[i], ops_b[j]
        d = compare_refs(oa["outputs"], ob["outputs"], rtol, atol)
        why = d.why
        if how == "changed":
            why = f"op {oa['op']} vs {ob['op']}" + (f", {why}" if why else "")
        rows.append(OpDiff(oa["node"], ob["node"], oa["op"], ob["op"], oa["scope"],
                           oa["site"], ob["site"], how, 2 * i, d.rel, d.differs, why, d.by,
                           outputs_a=_summaries(oa), outputs_b=_summaries(ob)))
        if oa["node"] is not None:
            node_b[oa["node"]] = ob["node"]
    for i in only_a_idx:
        op = ops_a[i]
        rows.append(OpDiff(op["node"], None, op["op"], None, op["scope"], op["site"], None,
                           "", 2 * i, why="in run a only", outputs_a=_summaries(op)))
    for j in only_b_idx:
        op = ops_b[j]
        rows.append(OpDiff(None, op["node"], None, op["op"], op["scope"], None, op["site"],
                           "", 2 * position_b[j] + 1, why="in run b only",
                           outputs_b=_summaries(op)))
    return rows, node_b


def _inputs_differ(run_a, run_b, row, rtol, atol) -> list:
    """Which inputs of an aligned pair differ: none means the op itself computed otherwise
    (an edited line, another attribute, another dtype rule)."""
    op_a, op_b = run_a.op(row.node_a), run_b.op(row.node_b)
    if op_a is None or op_b is None:            # an assignment: its value is its input
        return []
    out = []
    for k, (ra, rb) in enumerate(zip(op_a["inputs"], op_b["inputs"])):
        d = compare_summaries(ra.get("summary"), rb.get("summary"), rtol, atol)
        if d.differs:
            out.append({"index": k, "name": str(ra.get("name") or f"input {k}"),
                        "kind": str(ra.get("kind") or ""), "rel": d.rel, "why": d.why})
    return out


def _summaries(op) -> list:
    return [r.get("summary") for r in op["outputs"]]


def _pair_calls(run_a: Run, run_b: Run) -> list:
    """Gradient calls paired by method, line and occurrence, then the rest in order; a
    call of one run only is paired with None."""
    calls_a = [run_a.store.calls[c] for c in run_a.calls]
    calls_b = [run_b.store.calls[c] for c in run_b.calls]
    if len(calls_a) == 1 and len(calls_b) == 1:       # picked by hand, or the only ones
        return [(calls_a[0]["id"], calls_b[0]["id"])]

    def key(call):
        site = call["site"] or {}
        return call["method"], site_file(site), site.get("line")
    partner, taken = {}, set()
    match_by_key(calls_a, calls_b, key, key, partner, taken, "line")
    match_by_key(calls_a, calls_b, lambda c: c["method"], lambda c: c["method"],
                 partner, taken, "order")
    pairs = [(calls_a[i]["id"], calls_b[j]["id"]) for i, (j, _) in sorted(partner.items())]
    pairs += [(c["id"], None) for i, c in enumerate(calls_a) if i not in partner]
    pairs += [(None, c["id"]) for j, c in enumerate(calls_b) if j not in taken]
    return pairs


def _compare_steps(run_a, run_b, ca, cb, node_b, by_node_a, rtol, atol):
    """Annotate the op rows with the gradient reaching them; the first step (in A's order)
    whose input gradients differ or that B's call did not run, else B's first extra step."""
    steps_a = run_a.store.calls[ca]["steps"]
    steps_b = run_b.store.calls[cb]["steps"]
    b_by_node = {s["node"]: s for s in steps_b}
    seen_b, first = set(), None
    for sa in steps_a:
        sb = b_by_node.get(node_b.get(sa["node"], ("unaligned",)))
        if sb is None:
            d_why, rel = "ran in call a only", math.inf
            differs = True
        else:
            seen_b.add(sb["node"])
            d = _compare_grads(sa, sb, rtol, atol)
            d_why, rel, differs = d.why, d.rel, d.differs
        row = by_node_a.get(sa["node"])
        if row is not None and sb is not None:      # a persistent tape's op: its worst call
            row.grad_rel = rel if row.grad_rel is None else max(row.grad_rel, rel)
            row.grad_differs = row.grad_differs or differs
        if differs and first is None:
            first = _step(run_a, run_b, ca, cb, sa, sb, rel, d_why)
    if first is None:
        extra = next((s for s in steps_b if s["node"] not in seen_b), None)
        if extra is not None:
            first = _step(run_a, run_b, ca, cb, None, extra, math.inf, "ran in call b only")
    return first


def _compare_grads(sa, sb, rtol, atol):
    grads_a, grads_b = sa["input_grads"], sb["input_grads"]
    if len(grads_a) == 1 == len(grads_b) and grads_a[0].get("index") == grads_b[0].get("index"):
        return compare_summaries(grads_a[0].get("grad"), grads_b[0].get("grad"), rtol, atol)
    ga = {g.get("index"): g.get("grad") for g in sa["input_grads"]}
    gb = {g.get("index"): g.get("grad") for g in sb["input_grads"]}
    worst = None
    for index in sorted(set(ga) | set(gb), key=str):
        d = compare_summaries(ga.get(index), gb.get(index), rtol, atol)
        if worst is None or (d.differs, d.rel) > (worst.differs, worst.rel):
            worst = d
    return worst or compare_summaries(None, None, rtol, atol)


def _step(run_a, run_b, ca, cb, sa, sb, rel, why) -> StepDiff:
    op_a = run_a.op(sa["node"]) if sa else None
    op_b = run_b.op(sb["node"]) if sb else None
    return StepDiff(ca, cb, sa and sa["step"], sb and sb["step"], sa and sa["node"],
                    sb and sb["node"], (sa or sb)["op"], (op_a or {}).get("site"),
                    (op_b or {}).get("site"), rel, why,
                    grads_a=[g.get("grad") for g in (sa or {}).get("input_grads", [])],
                    grads_b=[g.get("grad") for g in (sb or {}).get("input_grads", [])])


def _compare_results(call_a, call_b, rtol, atol) -> list:
    """A GradientDiff per source, paired by name (then position) across the two calls."""
    res_a, res_b = call_a["results"] or [], call_b["results"] or []
    names_b = {}
    for j, r in enumerate(res_b):
        names_b.setdefault(source_name(r), j)
    out, used = [], set()
    for i, ra in enumerate(res_a):
        j = names_b.get(source_name(ra))
        if j is None or j in used:
            j = i if i < len(res_b) and i not in used else None
        rb = res_b[j] if j is not None else None
        if j is not None:
            used.add(j)
        out.append(_gradient(source_name(ra), call_a["id"], call_b["id"], ra, rb, rtol, atol))
    for j, rb in enumerate(res_b):
        if j not in used:
            out.append(_gradient(source_name(rb), call_a["id"], call_b["id"], None, rb,
                                 rtol, atol))
    return out


def source_name(result) -> str:
    """The name a gradient call's result is reported and paired under."""
    return str(result.get("source_name") or (result.get("tensor") or {}).get("name") or "?")


def _gradient(name, ca, cb, ra, rb, rtol, atol) -> GradientDiff:
    ra_, rb_ = ra or {}, rb or {}
    if ra is None or rb is None:
        rel, differs, why = math.inf, True, f"in call {'a' if rb is None else 'b'} only"
    elif ra_.get("grad") is None and rb_.get("grad") is None:
        rel, differs, why = None, ra_.get("verdict") != rb_.get("verdict"), ""
    else:
        d = compare_summaries(ra_.get("grad"), rb_.get("grad"), rtol, atol)
        rel, differs, why = d.rel, d.differs, d.why
    if ra is not None and rb is not None and ra_.get("verdict") != rb_.get("verdict"):
        differs = True
        why = why or "verdicts differ"
    return GradientDiff(name, ca, cb, rel, differs, why, ra_.get("verdict"), rb_.get("verdict"),
                        ra_.get("cause"), rb_.get("cause"), ra_.get("norm"), rb_.get("norm"))
