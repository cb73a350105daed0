"""The HTML of the compare view: the first divergence (op and source line on both sides), the
colour legend, and the inspector's section for one node (both values and their difference).
Read from a :class:`~tapeviz.ui.store.compare_store.CompareStore` only; every name and line of
code goes through ``esc``.
"""
from __future__ import annotations

import math

from ..store.compare_store import AGREE, FIRST, MODES, ONE_RUN, SCALE, UNCOMPARED
from .html import code_block, esc, place, table
from ..store.summaries import summary_text


def rel_text(rel) -> str:
    if rel is None:
        return "-"
    return "inf" if math.isinf(rel) else f"{rel:.3g}"


def _site_line(site) -> str:
    if not site:
        return '<span class="tv-small">(no source line)</span>'
    code = site.get("code") or ""
    return (f'<span class="tv-mono">{esc(place(site))}</span>'
            + (f' <code class="tv-mono">{esc(code)}</code>' if code else ""))


def first_html(store) -> str:
    """Where the runs first part: the op, the reason and the source line of each side, and
    the first backward step whose gradients differ; or that the runs agree."""
    d = store.result
    names = f'<b>a</b> = {esc(_name(d.a))}, <b>b</b> = {esc(_name(d.b))}'
    if not d.differ:
        return (f'<div class="tv-compare-first tv-agree">{names}: <b>the runs agree</b> '
                f'(tolerance rtol={d.rtol:g}, atol={d.atol:g}).</div>')
    parts = [f'<div class="tv-compare-first">{names}']
    first = d.first_divergence
    if first is not None:
        what = first.op_b if first.op_a is None else first.op_a
        if first.matched_by == "changed":
            what = f"{first.op_a} (a) → {first.op_b} (b)"
        why = first.why or ("values differ" if first.forward_differs else "")
        parts.append(f'<div><b>First divergence:</b> <span class="tv-first-op">{esc(what)}</span>'
                     f': {esc(why)}'
                     + (f' (relative difference {rel_text(first.forward_rel)})'
                        if first.forward_rel else "") + "</div>")
        for side, op, site in (("a", first.op_a, first.site_a), ("b", first.op_b, first.site_b)):
            line = (f'{esc(op)} at {_site_line(site)}' if op is not None else
                    '<span class="tv-small">no such op in this run</span>')
            parts.append(f'<div class="tv-first-{side}"><b>{side}:</b> {line}</div>')
        if store.focus_key and store.focus_key not in (f"op{first.node_a}",
                                                       f"b{first.node_b}"):
            parts.append(f'<div class="tv-small">It ran on no tape, so it is not on a graph: '
                         f'tape {esc(store.focus_tape)} opens at the first op there that '
                         'differs after it (outlined).</div>')
        if first.inputs_differ:
            parts.append('<div class="tv-small">inputs that differ: ' + esc(", ".join(
                i["name"] for i in first.inputs_differ[:4])) + "</div>")
        elif first.inputs_differ == []:
            parts.append('<div class="tv-small">its inputs agree: the op itself computes '
                         'differently here</div>')
    step = d.first_backward
    if step is not None:
        parts.append(f'<div class="tv-first-backward"><b>First backward step whose gradient '
                     f'differs:</b> {esc(step.op)} at {_site_line(step.site_a or step.site_b)}'
                     f' ({esc(step.why)}, relative difference {rel_text(step.rel)})</div>')
    if store.unplaced:
        parts.append(f'<div class="tv-small">{store.unplaced:,} op(s) of run b only ran on no '
                     'tape of run a (another tape, or none): the report lists them '
                     '(tapeviz diff).</div>')
    return "".join(parts) + "</div>"


def _name(path) -> str:
    import os
    return os.path.basename(str(path))


def legend_html(mode: str) -> str:
    """The colours of the graph in the compare view."""
    def swatch(color, text, dashed=False):
        border = "1px dashed #555" if dashed else "1px solid #999"
        return (f'<span class="tv-swatch" style="display:inline-block;width:14px;height:12px;'
                f'background:{color};border:{border};vertical-align:middle"></span> '
                f'<span class="tv-small">{esc(text)}</span> ')
    scale = "".join(f'<span style="display:inline-block;width:12px;height:12px;'
                    f'background:{c};vertical-align:middle"></span>' for c in SCALE)
    return (f'<div class="tv-compare-key"><span class="tv-small">colour: relative difference '
            f'of <b>{esc(MODES[mode])}</b> · </span>' + swatch(AGREE, "agree") +
            f'{scale} <span class="tv-small">differ: 1e-7 … ≥ 1</span> ' +
            swatch(ONE_RUN, "in one run only", dashed=True) +
            swatch(UNCOMPARED, "not compared") +
            f'<span style="display:inline-block;width:12px;height:12px;border:3px solid {FIRST};'
            'vertical-align:middle"></span> <span class="tv-small">first divergence</span></div>')


def detail_html(store, node: dict | None, tape) -> str:
    """The inspector's comparison of one node: both runs' values and their difference, or
    that it is in one run only; the source line on each side."""
    body = _detail(store, node, tape)
    return f'<div class="tv-compare-node">{body}</div>' if body else ""


def _detail(store, node, tape) -> str:
    if node is None:
        return ""
    head = '<div class="tv-h tv-compare-title">run a vs run b</div>'
    if node.get("ghost_of") is not None:
        row = store.ghost_rows.get(node["ghost_of"])
        site = row.site_b if row else node.get("site")
        return (head + f'<div class="tv-compare-only"><b>{esc(node.get("op"))}</b>: this op '
                'ran in run b only.</div>'
                + table([["b value", _values(row.outputs_b if row else [])]])
                + _sources(store, None, site))
    if node.get("node") is not None:
        row = store.rows.get(node["node"])
        if row is None:
            return head + '<div class="tv-small">not compared (no aligned op).</div>'
        if row.op_b is None:
            return (head + f'<div class="tv-compare-only"><b>{esc(row.op_a)}</b>: this op ran '
                    'in run a only.</div>' + _sources(store, row.site_a, None))
        rows = [["op", f"{esc(row.op_a)}", f"{esc(row.op_b)}"],
                ["dtype", _dtypes(row.outputs_a), _dtypes(row.outputs_b)],
                ["value", _values(row.outputs_a), _values(row.outputs_b)]]
        out = head + table(rows, ["", "a", "b"])
        out += ('<div class="tv-compare-rel">forward: '
                + ("<b>differs</b>" if row.forward_differs else "agrees")
                + f", relative difference {rel_text(row.forward_rel)}"
                + (f" ({esc(row.why)})" if row.why else "")
                + f" · by {esc(row.compared_by or '-')}</div>")
        out += ('<div class="tv-compare-rel">gradient: '
                + ("not compared" if row.grad_rel is None else
                   ("<b>differs</b>" if row.grad_differs else "agrees")
                   + f", relative difference {rel_text(row.grad_rel)}") + "</div>")
        out += f'<div class="tv-small">aligned by {esc(row.matched_by)}</div>'
        return out + _sources(store, row.site_a, row.site_b)
    if node.get("shape") != "ellipse":
        return ""
    leaf = store.leaves.get((tape, node.get("tensor")))
    grad = store.gradients.get((tape, node.get("tensor")))
    if leaf is None and grad is None:
        return head + '<div class="tv-small">not compared (no aligned op reads it).</div>'
    rows = []
    if leaf is not None:
        rows.append(["value", _mono(summary_text(leaf["a"])), _mono(summary_text(leaf["b"]))])
    if grad is not None:
        rows.append(["gradient", esc(f"{grad.verdict_a} (norm {rel_text(grad.norm_a)})"),
                     esc(f"{grad.verdict_b} (norm {rel_text(grad.norm_b)})")])
    out = head + table(rows, ["", "a", "b"])
    if leaf is not None:
        out += ('<div class="tv-compare-rel">value: ' + ("<b>differs</b>" if leaf["differs"]
                                                         else "agrees")
                + f", relative difference {rel_text(leaf['rel'])}</div>")
    if grad is not None:
        out += ('<div class="tv-compare-rel">gradient: ' + ("<b>differs</b>" if grad.differs
                                                            else "agrees")
                + f", relative difference {rel_text(grad.rel)}"
                + (f" ({esc(grad.why)})" if grad.why else "") + "</div>")
    return out


def _mono(text) -> str:
    return f'<span class="tv-mono">{esc(text)}</span>'


def _dtypes(summaries) -> str:
    return esc(" ".join(str((s or {}).get("dtype") or "?") for s in summaries[:2])) or "-"


def _values(summaries) -> str:
    return "<br>".join(_mono(summary_text(s)) for s in summaries[:2]) or "-"


def _sources(store, site_a, site_b) -> str:
    out = []
    for side, site, lines in (("a", site_a, store.sources.get), ("b", site_b,
                                                                  store.sources_b.get)):
        if site:
            out.append(f'<div class="tv-h">source in run {side}</div>'
                       f'<div class="tv-compare-source-{side}">'
                       f'{code_block(site, context=1, lines_of=lines)}</div>')
    return "".join(out)
