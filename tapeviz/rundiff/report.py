"""The text report of a :class:`~.result.RunDiff`: short, first divergences first.

Every name, path and line of code comes from a recording: control characters are shown
escaped, so a crafted recording cannot move a terminal's cursor or retitle its window.
"""
from __future__ import annotations

import math

from ..ui.store.summaries import summary_text

LIST_LIMIT = 8          # rows of a list (structural differences, gradients) before "... and N more"


def report(d) -> str:
    lines = [f"tapeviz diff: {_clean(d.a)} vs {_clean(d.b)}: "
             + ("the runs differ" if d.differ else "the runs agree")]
    by_how = {}
    for r in d.pairs:
        by_how[r.matched_by] = by_how.get(r.matched_by, 0) + 1
    how = ", ".join(f"{n:,} by {k}" for k, n in sorted(by_how.items()))
    lines.append(f"  ops: {len(d.pairs):,} aligned ({how or 'none'}), {len(d.only_a):,} in a "
                 f"only, {len(d.only_b):,} in b only; gradient calls: {len(d.calls):,} pairs; "
                 f"tolerance rtol={d.rtol:g} atol={d.atol:g}")
    first = d.first_divergence
    if first is not None:
        lines += ["", "First divergence (execution order): " + _what(first)]
        lines += _op_lines(first)
    if d.first_forward is not None and d.first_forward is not first:
        lines += ["", "First aligned op whose outputs differ: " + _what(d.first_forward)]
        lines += _op_lines(d.first_forward)
    if d.first_backward is not None:
        s = d.first_backward
        lines += ["", f"First backward step whose gradient differs: {_clean(s.op)}, step "
                      f"{_opt(s.step_a)} of call {_opt(s.call_a)} (a) / step {_opt(s.step_b)} "
                      f"of call {_opt(s.call_b)} (b): {_clean(s.why) or 'gradients differ'}"
                      f"{_rel(s.rel)}"]
        lines += [f"  a: {_site(s.site_a)}", f"  b: {_site(s.site_b)}"]
        for side, grads in (("a", s.grads_a), ("b", s.grads_b)):
            for g in grads[:2]:
                lines.append(f"     {side} gradient: {_clean(summary_text(g))}")
    if d.gradients:
        lines += ["", "Gradients (calls a/b, source, relative difference; "
                      "verdict and norm of a | of b):"]
        width = min(24, max(len(_clean(g.name)) for g in d.gradients))
        rows = sorted(d.gradients, key=lambda g: not g.differs)
        for g in rows[:LIST_LIMIT]:
            mark = "!=" if g.differs else "=="
            rel = "-" if g.rel is None else _num(g.rel)
            lines.append(f"  {mark} call {_opt(g.call_a)}/{_opt(g.call_b)} "
                         f"{_clean(g.name):<{width}} {rel:>9}   "
                         f"{_verdict(g.verdict_a, g.cause_a, g.norm_a)} | "
                         f"{_verdict(g.verdict_b, g.cause_b, g.norm_b)}")
        if len(rows) > LIST_LIMIT:
            lines.append(f"  ... and {len(rows) - LIST_LIMIT:,} more")
    structural = [r for r in d.pairs if r.matched_by == "changed"] + d.only_a + d.only_b
    structural.sort(key=lambda r: r.position)
    unpaired = [c for c in d.calls if c[0] is None or c[1] is None]
    if structural or unpaired:
        lines += ["", "Structural differences:"]
        grouped: dict = {}          # a loop repeats a difference each step: once, counted
        for r in structural:
            text = "  " + _what(r) + "  " + (_site(r.site_a) if r.op_a else _site(r.site_b))
            grouped[text] = grouped.get(text, 0) + 1
        for text, n in list(grouped.items())[:LIST_LIMIT]:
            lines.append(text if n == 1 else f"{text}  ({n:,} times)")
        if len(grouped) > LIST_LIMIT:
            lines.append(f"  ... and {len(grouped) - LIST_LIMIT:,} more")
        for ca, cb in unpaired:
            lines.append(f"  gradient call {ca if ca is not None else cb} in run "
                         f"{'a' if cb is None else 'b'} only")
    for w in d.warnings[:3]:
        lines.append(f"warning: {_clean(w)}")
    return "\n".join(lines)


def _what(r) -> str:
    if r.op_b is None:
        return f"{_clean(r.op_a)} in run a only"
    if r.op_a is None:
        return f"{_clean(r.op_b)} in run b only"
    if r.matched_by == "changed":
        return f"the line changed: {_clean(r.op_a)} (a) -> {_clean(r.op_b)} (b)"
    return f"{_clean(r.op_a)}: {_clean(r.why) or 'differs'}{_rel(r.forward_rel)}"


def _op_lines(r) -> list:
    out = []
    for side, op, site, outputs in (("a", r.op_a, r.site_a, r.outputs_a),
                                    ("b", r.op_b, r.site_b, r.outputs_b)):
        if op is None:
            continue
        scope = f" in {_clean(r.scope)}" if r.scope else ""
        out.append(f"  {side}: {_clean(op)}{scope} at {_site(site)}")
        for s in outputs[:2]:
            out.append(f"     {side} value: {_clean(summary_text(s))}")
    if r.inputs_differ == []:
        out.append("  its inputs agree: the op itself computes differently here")
    elif r.inputs_differ:
        names = ", ".join(f"{_clean(i['name'], 60)}" + (f" ({_clean(i['kind'])})" if i["kind"]
                                                          else "") + _rel(i["rel"])
                          for i in r.inputs_differ[:4])
        out.append(f"  inputs that differ: {names}")
    return out


def _site(site) -> str:
    if not site:
        return "(no source line)"
    code = site.get("code") or ""
    return f"{_clean(site.get('file'))}:{site.get('line')}" + (f"  {_clean(code)}" if code else "")


def _verdict(verdict, cause, norm) -> str:
    if verdict is None:
        return "absent"
    text = str(verdict) + (f" ({cause})" if cause and cause != "ok" else "")
    return text + (f" {_num(norm)}" if isinstance(norm, (int, float)) else "")


def _rel(rel) -> str:
    return "" if rel is None or rel == 0 else f" (relative difference {_num(rel)})"


def _num(x) -> str:
    if x is None:
        return "-"
    return "inf" if x == math.inf else f"{x:.3g}"


def _opt(x) -> str:
    return "-" if x is None else str(x)


def _clean(text, limit: int = 200) -> str:
    text = "" if text is None else str(text)
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[:limit - 3] + "..."
