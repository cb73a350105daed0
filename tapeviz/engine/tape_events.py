"""What a tape's events carry: the payloads of `watched`, `gradient_started` and
`gradient_finished` (built when a subscriber reads the event, see `events.deferred`), and the
health check of a gradient call's answers, which decides what `gradient_finished` explains at
once and what a one-shot tape keeps for `explain`."""
from __future__ import annotations

from math import isfinite

import numpy as np

from .call_site import as_dict
from .refs import ref_dict


def started_payload(call, tape, method, targets, sources, unconnected, site, limit) -> dict:
    return {"call": call, "tape": tape, "method": method,
            "targets": [ref_dict(t, value, node, limit) for t, value, node in targets],
            "sources": [ref_dict(s, value, node, limit) for s, value, node in sources],
            "unconnected_gradients": unconnected, "site": as_dict(site)}


def opened_payload(tape, persistent, watch_accessed, outer, site) -> dict:
    return {"tape": tape, "persistent": persistent, "watch_accessed_variables": watch_accessed,
            "outer_tapes": outer, "site": as_dict(site)}


def closed_payload(tape, site) -> dict:
    return {"tape": tape, "site": as_dict(site)}


def watched_payload(tape, t, value, node, how, site, limit) -> dict:
    return {"tape": tape, "tensor": ref_dict(t, value, node, limit), "how": how,
            "site": as_dict(site)}


#: variable id -> the gradient call that returned a NaN/Inf gradient for it while its own
#: value was finite: an update that then writes NaN/Inf into it got it from that call
NONFINITE_GRADIENT: dict = {}
#: variable id -> (site of the update that made it non-finite, that gradient call): what a
#: `nan_input` explanation names for a variable that already held NaN/Inf
NONFINITE_SINCE: dict = {}


def note_nonfinite(call, sources, results) -> None:
    """Remember which finite variables got a NaN/Inf gradient from this call (rare: only
    after the health check said "nonfinite"). A variable that already held NaN gets NaN
    gradients because of it, so those are not where its NaN came from."""
    for source, r in zip(sources, results):
        if r is not None and not _finite(r._value) and _finite(source._value):
            NONFINITE_GRADIENT[source._id] = call


def note_assigned(var_id, value, site) -> None:
    """An update of a variable that had a NaN/Inf gradient: stamp where it went non-finite."""
    if _finite(value):
        NONFINITE_SINCE.pop(var_id, None)
        NONFINITE_GRADIENT.pop(var_id, None)
    elif var_id not in NONFINITE_SINCE:
        NONFINITE_SINCE[var_id] = (site, NONFINITE_GRADIENT[var_id])


def _finite(value) -> bool:
    return value.dtype.kind != "f" or bool(np.isfinite(value).all())


# A finite gradient whose sum of squares overflows float32 is summarised by
# verdict_and_norm; numpy's overflow warning would only point users at this file.
@np.errstate(over="ignore")
def gradient_health(results, verdicts=None) -> str:
    """"healthy": every gradient a float array with a finite norm of at least 1e-6;
    "nonfinite": some gradient is NaN/Inf; "broken": some gradient is None, zero or vanishing
    (in both cases the tape keeps its values for `explain`); "mixed": neither (an integer
    gradient beside healthy ones).

    One BLAS dot per gradient, shared by both questions: NaN/Inf make it non-finite and
    all-zero makes it 0 (an overflow or underflow only keeps the values once more than
    needed). Given a list, ``verdicts`` gets each gradient's ``(verdict, norm)`` from the
    same dot (see :func:`verdict_and_norm`): what `gradient_finished` says before its
    payload is built."""
    healthy = True
    broken = False
    nonfinite = False
    for r in results:
        if r is None:
            broken = True
            if verdicts is not None:
                verdicts.append(("none", None))
            continue
        v = r._value
        if v.dtype.kind != "f":
            healthy = False
            if verdicts is not None:
                verdicts.append(verdict_and_norm(v, None))
            continue
        flat = v.reshape(-1)
        d = flat.dot(flat)       # (the method: np.dot adds its dispatcher's Python call)
        if verdicts is not None:
            verdicts.append(verdict_and_norm(flat, d))
        if not isfinite(d):      # NaN/Inf (or a norm that overflows: checked as if NaN)
            if verdicts is None:
                return "nonfinite"
            nonfinite = True
        elif d < 1e-12:          # zero or vanishing (norm < 1e-6)
            broken = True
    if nonfinite:
        return "nonfinite"
    return "broken" if broken else "healthy" if healthy else "mixed"


def verdict_and_norm(flat, dot) -> tuple:
    """``(verdict, norm)`` of one gradient, as its explanation and summary would say:
    ``"nan"``/``"inf"`` when any element is, ``"zero"`` when all are 0, else ``"value"``; the
    L2 norm over the finite elements (None when there are none). ``dot``: the gradient's
    sum of squares when already known (float arrays), which makes the usual case a square
    root; the rare ones (NaN, Inf, an overflowing dot, other dtypes) are summarised."""
    if dot is not None and isfinite(dot):
        if dot == 0 and not flat.any():
            return "zero", 0.0
        return "value", float(dot) ** 0.5
    from ..events import summarize
    s = summarize(flat, 0)
    norm = s.get("norm")
    norm = norm if type(norm) is float else None
    if s.get("nan"):
        return "nan", norm
    if s.get("inf"):
        return "inf", norm
    return ("zero" if s.get("zeros") == s.get("size") else "value"), norm


def result_payload(source, result, explanation, value_limit=None, value=None,
                    node=None, ref_limit=None) -> dict:
    from ..events import summarize
    out = {"tensor": ref_dict(source, value, node, ref_limit), "grad": None, "norm": None}
    if result is not None:
        out["grad"] = summarize(result._value, value_limit)
        out["norm"] = out["grad"].get("norm")
    out.update(explanation.as_dict() if explanation is not None else {})
    return out


def explain_later(sources, results, tape, targets, entries, names, unconnected,
                  prefix="tv") -> list:
    """`explain_flat` for finite results, from what `_finish` kept: `tape` is the tape itself
    when every result is healthy (its state is not read), a `TapeState` copy otherwise."""
    from ..explain.context import _Context, _lineage
    from ..explain.explanation import _explain_one
    ctx = _Context.__new__(_Context)
    ctx.tape, ctx.targets, ctx.entries = tape, targets, entries
    ctx.nodes = [e[0] for e in entries]
    ctx.lineage = _lineage(targets)
    ctx.prefix = prefix
    return [_explain_one(ctx, s, r, unconnected, names.get(id(s)))
            for s, r in zip(sources, results)]


def verdict_rows(sources, pairs) -> list:
    """``gradient_finished``'s ``verdicts``: each source's verdict and norm, from the
    ``(verdict, norm)`` pairs :func:`gradient_health` filled in."""
    return [{"id": s._id, "name": s.name, "verdict": v, "norm": n}
            for s, (v, n) in zip(sources, pairs)]


def finished_payload(call, tape, sources, results, explanations, ref_limit,
                      grad_limit, later=None, verdicts=()) -> dict:
    if explanations is None:
        explanations = explain_later([s for s, _, _ in sources], results, *later)
    return {"call": call, "tape": tape, "verdicts": list(verdicts),
            "results": [result_payload(s, r, e, grad_limit, value, node, ref_limit)
                        for (s, value, node), r, e in zip(sources, results, explanations)]}
