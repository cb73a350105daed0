"""One backward step of a gradient call, as the player shows it: pure functions of the store.

The served dashboard (:mod:`tapeviz.ui.dashboard.dashboard`) calls them on each step; the exported page
(:mod:`tapeviz.ui.export`) calls them once per step and embeds the result, so both show the
same text. Nothing here touches Panel or Bokeh.
"""
from __future__ import annotations

from .html import esc, table
from ..store.store import Store
from ..store.summaries import is_bad, is_zero, summary_text

BREAKPOINTS = ("nan", "zero")     # plus "node": the step of a chosen node


def step_keys(call: dict, i: int, edge_rows) -> tuple:
    """Graph keys for step ``i``: the current op, the ops visited before it, and the edges
    from the current op to a visited one (where its upstream gradient came from; all its
    outgoing edges when none is visited yet)."""
    st = call["steps"][i]
    key = f"op{st['node']}"
    visited = [f"op{s['node']}" for s in call["steps"][:i]]
    seen = set(visited)
    out_edges = [(t, h) for (t, h) in edge_rows if t == key]
    up = [(t, h) for (t, h) in out_edges if h in seen] or out_edges
    return key, visited, up


def step_html(store: Store, call: dict, i: int) -> str:
    """Step ``i`` of ``call``: its op, forward and gradient formulas, the upstream gradient,
    each input's local gradient and the running sum of a tensor fed by several consumers."""
    st = call["steps"][i]
    parts = [f'<div class="tv-h tv-step-title">step {i + 1} of {len(call["steps"])}: '
             f'{esc(st["op"])}</div>']
    d = store.op_defs.get(st["op"], {})
    if d.get("formula"):
        parts.append(f'<div class="tv-mono tv-small">forward: {esc(d["formula"])}</div>')
    if st.get("formula"):
        parts.append(f'<div class="tv-mono tv-step-formula">{esc(st["formula"])}</div>')
    for j, u in enumerate(st["upstream"]):
        label = "upstream gradient g" + ("" if len(st["upstream"]) == 1 else str(j))
        parts.append(f'<div class="tv-mono tv-upstream">{esc(label)} = {esc(summary_text(u))}</div>')
    op = store.ops.get(st["node"])
    rows = []
    for ig in st["input_grads"]:
        idx = ig.get("index", 0)
        name = ""
        if op and idx < len(op["inputs"]):
            r = op["inputs"][idx]
            name = store.tensor_name(r.get("id"), r.get("name", ""))
        name = name or store.tensor_name(ig.get("tensor"), f"input {idx}")
        total = ""
        if ig.get("accumulated"):
            total = f'running sum = {esc(summary_text(ig.get("total")))}'
        flag = ' <span class="tv-err">non-finite</span>' if is_bad(ig.get("grad")) else ""
        rows.append([esc(f"∂{name}"),
                     f'<span class="tv-mono">{esc(summary_text(ig.get("grad")))}</span>{flag}',
                     f'<span class="tv-mono">{total}</span>'])
    if rows:
        parts.append('<div class="tv-h">local gradient of each input</div>' +
                     table(rows, ["input", "gradient", "accumulated"]))
    else:
        parts.append('<div class="tv-small">no differentiable input</div>')
    return "".join(parts)


def breakpoint_step(call: dict, kind: str, node=None):
    """The first step of ``call`` where breakpoint ``kind`` holds, or None: ``"nan"`` (a NaN
    or Inf in an upstream or local gradient), ``"zero"`` (an all-zero one), ``"node"`` (the
    step of op node id ``node``)."""
    for i, st in enumerate(call["steps"]):
        grads = [ig.get("grad") for ig in st["input_grads"]]
        if kind == "nan" and (any(is_bad(u) for u in st["upstream"]) or any(is_bad(g) for g in grads)):
            return i
        if kind == "zero" and (any(is_zero(g) for g in grads) or any(is_zero(u) for u in st["upstream"])):
            return i
        if kind == "node" and node is not None and st["node"] == node:
            return i
    return None
