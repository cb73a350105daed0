"""The HTML of the inspector (one graph node) and of the why cards (one explained gradient),
from the store alone: the served dashboard and the exported page both show these, so they are
written once, here. Every value that came from user code goes through ``esc``.
"""
from __future__ import annotations

from .html import code_block, esc, heatmap, ref_row, table
from ..store.summaries import summary_text
from ..store.tape_graph import KINDS

#: verdicts of a gradient that is not a useful value (None, zero: a dead layer learns nothing,
#: NaN, Inf): the Why tab opens on them (served and exported pages alike)
NOT_A_VALUE = ("none", "zero", "nan", "inf")
#: why a ghost op was not recorded (its ``skipped`` reason), as the inspector says it
SKIPPED = {
    "outside_tape": "it ran outside the tape's `with` block (before it opened or after it "
                    "closed); compute it inside the block",
    "paused": "it ran inside `tape.stop_recording()`",
    "untracked": "it reads an integer (or a value made from one), which no tape tracks; "
                 "keep the path in floats",
}

VERDICT_TEXT = {"value": "has a gradient", "none": "gradient is None", "zero": "gradient is zero",
                "nan": "gradient has NaN", "inf": "gradient has Inf"}


def verdict_of(r: dict) -> str:
    """The verdict of an explained gradient; a result recorded without one is "value" when it
    carries a gradient, else "none"."""
    return str(r.get("verdict") or ("value" if r.get("grad") is not None else "none"))


def any_not_a_value(results) -> bool:
    """Whether any gradient of ``results`` is None, zero, NaN or Inf (the Why tab opens
    first)."""
    return any(verdict_of(r) in NOT_A_VALUE for r in results or ())


def node_html(store, node: dict, gradient: str = "", heatmaps: bool = True,
              context: int = 3) -> str:
    """A graph node: op and formulas, inputs and outputs (or the tensor's shape, dtype and
    value), ``gradient`` (see :func:`gradient_html`), and its source line with ``context``
    lines around it. ``heatmaps=False`` leaves out the value heatmaps (the exported page
    embeds this for every node)."""
    parts = [f'<div class="tv-h tv-node-title">{esc(node.get("op"))}'
             f'<span class="tv-badge">{esc(KINDS.get(node["kind"], node["kind"]))}</span></div>']
    if node.get("name"):
        parts.append(f'<div class="tv-mono tv-node-name">{esc(node["name"])}</div>')
    if node.get("members"):
        parts.append(f'<div class="tv-small">{esc(node["members"])} nodes in this group: '
                     'press “Expand group” to open it.</div>')
    op = store.ops.get(node.get("node")) if node.get("node") is not None else None
    if op is not None:
        d = store.op_defs.get(op["op"], {})
        if d.get("formula"):
            parts.append(f'<div class="tv-mono tv-formula">{esc(d["formula"])}</div>')
        for gf in d.get("grad_formulas") or []:
            parts.append(f'<div class="tv-mono tv-small">{esc(gf)}</div>')
        if op.get("skipped"):
            why = SKIPPED.get(op["skipped"], f'({op["skipped"]})')
            parts.append(f'<div class="tv-err">Not recorded by the tape: {esc(why)}. No '
                         'gradient flows through it.</div>')
        for title, refs, named in (("inputs", op["inputs"], True), ("outputs", op["outputs"], False)):
            rows = [ref_row(r, store.tensor_name(r.get("id"), r.get("name")) if named else None)
                    for r in refs]
            parts.append(f'<div class="tv-h">{title}</div>' +
                         table(rows, ["name", "shape", "dtype", "value"]))
            if heatmaps:
                parts.extend(heatmap(r.get("summary")) for r in refs)
        if op.get("attrs"):
            parts.append('<div class="tv-small">attrs: ' +
                         esc(", ".join(f"{k}={v}" for k, v in op["attrs"].items())) + "</div>")
    else:
        rows = [[esc("shape"), esc(node.get("shapes"))], [esc("dtype"), esc(node.get("dtypes"))],
                [esc("value"), f'<span class="tv-mono">{esc(node.get("summary"))}</span>']]
        if node.get("how"):
            rows.append([esc("watched"), esc("automatically (trainable Variable read)"
                                             if node["how"] == "auto" else "tape.watch()")])
        parts.append(table(rows))
        if heatmaps:
            t = store.tensors.get(node.get("tensor")) or {}
            var = store.variables.get(node.get("tensor")) or {}
            parts.append(heatmap(var.get("summary") or t.get("summary")))
    if gradient:
        parts.append(f'<div class="tv-h">gradient that reached it</div>{gradient}')
    if node.get("site"):
        parts.append(f'<div class="tv-h">source</div>'
                     f'{code_block(node["site"], context=context, lines_of=store.sources.get)}')
    return "".join(parts)


def gradient_html(store, call: dict | None, node: dict) -> str:
    """What gradient call ``call`` sent to ``node``: the upstream gradient of an op, or the
    result (or running total) for a tensor."""
    if call is None:
        return ""
    out = []
    if node.get("node") is not None:
        for st in call["steps"]:
            if st["node"] == node["node"]:
                for i, u in enumerate(st["upstream"]):
                    out.append(f'<div class="tv-mono">upstream g{"" if len(st["upstream"]) == 1 else i}'
                               f' = {esc(summary_text(u))}</div>')
                break
    tid = node.get("tensor")
    if node.get("node") is None and tid is not None:
        for r in call.get("results") or []:
            if (r.get("tensor") or {}).get("id") == tid:
                out.append(f'<div class="tv-mono">∂target/∂{esc(node.get("name"))} = '
                           f'{esc(summary_text(r.get("grad")))}</div>')
                out.append(heatmap(r.get("grad")))
        if not out:
            total = None
            for st in call["steps"]:
                for ig in st["input_grads"]:
                    if ig.get("tensor") == tid:
                        total = ig.get("total")
            if total is not None:
                out.append(f'<div class="tv-mono">total = {esc(summary_text(total))}</div>')
    return "".join(out)


#: ops of an explanation's path shown at each end; the middle of a longer one is counted
PATH_ENDS = 4


def path_text(path) -> str:
    """"MatMul → AddV2 → Relu": the ops from the source to where the explanation points; a
    path through a recurrent layer's hundreds of ops keeps its ends and counts the rest."""
    ops = [str(p) for p in path]
    if len(ops) > 2 * PATH_ENDS + 1:
        ops = ops[:PATH_ENDS] + [f"… {len(ops) - 2 * PATH_ENDS} ops …"] + ops[-PATH_ENDS:]
    return " → ".join(ops)


def why_card_html(store, r: dict, heatmaps: bool = False) -> str:
    """One explained gradient: source, verdict, cause, message, fix and the code line."""
    ref = r.get("tensor") or {}
    name = r.get("source_name") or store.tensor_name(ref.get("id"), ref.get("name", "?"))
    verdict = verdict_of(r)
    head = (f'<div class="tv-card {esc(verdict)}"><b class="tv-why-name">{esc(name)}</b>'
            f'<span class="tv-badge">{esc(VERDICT_TEXT.get(verdict, verdict))}</span>'
            f'<span class="tv-badge">{esc(r.get("cause", ""))}</span>')
    body = []
    if r.get("grad") is not None:
        body.append(f'<div class="tv-mono">gradient: {esc(summary_text(r["grad"]))}</div>')
        if heatmaps:
            body.append(heatmap(r.get("grad")))
    if r.get("message"):
        body.append(f'<div class="tv-why-message">{esc(r["message"])}</div>')
    if r.get("fix"):
        body.append(f'<div class="tv-why-fix"><b>Fix:</b> {esc(r["fix"])}</div>')
    if r.get("lineno"):
        # explanations name a line, not a function; the lines shown are those the run
        # carries (never the viewer's disk), else the code recorded at that line
        site = {"file": r.get("filename"), "line": r.get("lineno"), "func": "",
                "code": _line_code(store, r.get("filename"), r.get("lineno")),
                "cell": r.get("cell")}
        body.append(code_block(site, context=1, lines_of=store.sources.get))
    if r.get("path"):
        body.append(f'<div class="tv-small">path: {esc(path_text(r["path"]))}</div>')
    return head + "".join(body) + "</div>"


def _line_code(store, fname, lineno) -> str:
    for op in store.ops.values():
        site = op.get("site") or {}
        if site.get("file") == fname and site.get("line") == lineno:
            return site.get("code", "")
    return ""


def notes_html(store) -> str:
    """The run's notes (``store.notes``): what most likely is a bug though every gradient is
    a finite value (no card above can show it), each with its fix and line."""
    if not store.notes:
        return ""
    cards = []
    for n in store.notes:
        site = n.get("site")
        cards.append(f'<div class="tv-note"><b class="tv-note-name">{esc(n["subject"])}'
                     f'</b><span class="tv-badge">{esc(n["code"])}</span>'
                     f'<div class="tv-why-message">{esc(n["message"])}</div>'
                     f'<div class="tv-why-fix"><b>Fix:</b> {esc(n["fix"])}</div>'
                     + (code_block(site, context=1, lines_of=store.sources.get) if site else "")
                     + "</div>")
    return (f'<div class="tv-notes"><div class="tv-h">Notes on this run: {len(cards)} '
            "(gradients can be finite and still wrong)</div>" + "".join(cards) + "</div>")


#: how the summary line counts each verdict that is not a value
COUNTED = {"none": "None", "zero": "zero", "nan": "with NaN", "inf": "with Inf"}


def why_summary(results: list, notes: int = 0) -> str:
    """"10 of 12 ok · 1 None · 1 zero · 1 run note below" (HTML): an ok source may still be
    wrong for a reason a run note tells (a loss term lost to NumPy), so the line says there
    are notes after the cards."""
    counts: dict = {}
    for r in results:
        v = verdict_of(r)
        if v != "value":
            counts[v] = counts.get(v, 0) + 1
    ok = len(results) - sum(counts.values())
    parts = [f"<b>{ok} of {len(results)} ok</b>"]
    parts += [f"{n} {esc(COUNTED.get(v, v))}" for v, n in counts.items()]
    if notes:
        parts.append(f"{notes} run note{'s' if notes != 1 else ''} below")
    return f'<div class="tv-why-summary">{" · ".join(parts)}</div>'


def why_cards_html(store, results: list, heatmaps: bool = False) -> str:
    """The Why tab's cards of one call as static HTML (the exported page): the summary line,
    the problem cards open, the ok ones folded behind *show the N ok sources* (as the served
    tab folds them), all open when every source is ok."""
    problems = [r for r in results if verdict_of(r) != "value"]
    ok = [r for r in results if verdict_of(r) == "value"]
    cards = "".join(why_card_html(store, r, heatmaps=heatmaps) for r in problems)
    ok_cards = "".join(why_card_html(store, r, heatmaps=heatmaps) for r in ok)
    if problems and ok:
        ok_cards = (f'<details class="tv-ok-fold"><summary>show the {len(ok)} ok '
                    f'source{"s" if len(ok) != 1 else ""}</summary>{ok_cards}</details>')
    return why_summary(results, len(store.notes)) + cards + ok_cards
