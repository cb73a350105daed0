"""The graph of one tape, derived from the store's tables: op nodes, leaf tensors, ghosts for
what the tape did not see, the edges between them and the clusters (name scopes, inner tapes,
backward passes) they sit in. :meth:`tapeviz.ui.store.Store.graph` builds it once per change
of the tape; the graph view, grouping, layout and the exported page read it.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

from .summaries import shape_str, summary_text

if TYPE_CHECKING:
    from .store import Store

# node kinds: the legend of the graph (order = legend order)
KINDS = {
    "op": "op",
    "output": "output (gradient target)",
    "trainable": "trainable Variable",
    "nontrainable": "non-trainable Variable",
    "watched": "watched tensor",
    "constant": "constant / unwatched tensor",
    "stop_gradient": "stop_gradient",
    "backward": "op of a backward pass",
    "skipped": "not recorded (stop_recording / outside tape)",
    "escaped": "escaped to NumPy / Python",
    "assign": "Variable assignment (cuts history)",
}


def build_graph(store: Store, tape_id) -> dict:
    """``{"nodes": [...], "edges": [...], "clusters": {key: (label, parent)}}`` for a tape.

    Nodes are ops (``op<id>``), leaf tensors (``t<id>``: variables, watched tensors, constants),
    and ghosts for what the tape did not see (``g<seq>``). Each edge carries the tensor that
    flows along it, its shape, and ``cut`` when a gradient cannot pass there.
    """
    tape = store.tapes.get(tape_id)
    if tape is None:
        return {"nodes": [], "edges": [], "clusters": {}}
    nodes: "OrderedDict[str, dict]" = OrderedDict()
    edges: list = []
    clusters: dict = {}
    producer: dict = {}          # tensor id -> node key on this graph
    targets: set = set()
    sources: set = set()
    for cid in tape["calls"]:
        call = store.calls.get(cid)
        if call:
            targets.update(r.get("id") for r in call["targets"])
            sources.update(r.get("id") for r in call["sources"])
    inner = {t: store.tapes[t] for t in tape["inner"] if t in store.tapes}
    inner_of = {}
    for t, itape in inner.items():
        for n in itape["nodes"]:
            inner_of.setdefault(n, t)

    def leaf(tid):
        key = f"t{tid}"
        if key in nodes:
            return key
        info = store.tensors.get(tid) or {"id": tid, "name": f"tensor {tid}"}
        var = store.variables.get(tid)
        watched = tid in tape["watched"]
        if var is not None or info.get("kind") == "variable":
            trainable = (var or info).get("trainable")
            kind = "trainable" if trainable or (trainable is None and watched) else "nontrainable"
            name = (var or info).get("name") or f"Variable {tid}"
        elif watched:
            kind, name = "watched", info.get("name") or f"tensor {tid}"
        else:
            kind, name = "constant", info.get("name") or f"tensor {tid}"
        summary = (var or {}).get("summary") or info.get("summary")
        nodes[key] = {"key": key, "kind": kind, "shape": "ellipse", "label": _short(name),
                      "name": name, "op": "Variable" if kind in ("trainable", "nontrainable") else
                      ("watched tensor" if kind == "watched" else "constant"),
                      "node": None, "tensor": tid,
                      "shapes": shape_str(info.get("shape")), "dtypes": info.get("dtype") or "",
                      "summary": summary_text(summary), "site": (tape["watched"].get(tid) or {}).get("site"),
                      "scope": "", "cluster": None, "how": (tape["watched"].get(tid) or {}).get("how")}
        return key

    def add_op(op, kind):
        key = f"op{op['node']}"
        outs = op["outputs"]
        cluster = None
        if op["backward_of"] is not None:
            cluster = f"bw{op['backward_of']}"
            if cluster not in clusters:
                call = store.calls.get(op["backward_of"])
                label = f"backward pass of gradient call {op['backward_of']}"
                if call:
                    label += f" (tape {call['tape']})"
                clusters[cluster] = (label, None)
            if kind == "op":
                kind = "backward"
        elif op["node"] in inner_of:
            cluster = f"tape{inner_of[op['node']]}"
            clusters.setdefault(cluster, (f"inner tape {inner_of[op['node']]}", None))
        if op["scope"]:       # (the store bounds its depth and its parts' length)
            parent = cluster
            path = ""
            for part in op["scope"].split("/"):
                path = f"{path}/{part}" if path else part
                # the path names the scope under its backward pass or inner tape: a key that
                # held its parent's key grew with the square of the depth
                ckey = f"{cluster or ''}|scope:{path}"
                clusters.setdefault(ckey, (path, parent))
                parent = ckey
            cluster = parent
        if kind == "op" and any(o.get("id") in targets for o in outs):
            kind = "output"
        if op["op"] == "StopGradient":
            kind = "stop_gradient"
        nodes[key] = {"key": key, "kind": kind, "shape": "box", "label": _short(op["op"]),
                      "name": ", ".join(store.tensor_name(o.get("id"), o.get("name", "")) for o in outs),
                      "op": op["op"], "node": op["node"],
                      "tensor": outs[0].get("id") if outs else None,
                      "shapes": " ".join(shape_str(o.get("shape")) for o in outs),
                      "dtypes": " ".join(str(o.get("dtype") or "?") for o in outs),
                      # (no summary: a lineage-only ref, its value was not kept)
                      "summary": summary_text(outs[0]["summary"])
                      if outs and outs[0].get("summary") is not None else "",
                      "site": op["site"], "scope": op["scope"], "cluster": cluster, "how": None}
        return key

    ghost_ops = {g["node"]: g for g in tape["ghosts"] if g["type"] == "skipped"}
    ordered = sorted(set(tape["nodes"]) | set(ghost_ops), key=lambda n: (store.ops.get(n) or {}).get("seq", 0))
    for n in ordered:
        op = store.ops.get(n)
        if op is None:
            continue
        ghost = n in ghost_ops and tape_id not in op["tapes"]
        key = add_op(op, "skipped" if ghost else "op")
        if ghost:
            nodes[key]["skip_reason"] = op["skipped"]
        defn = store.op_defs.get(op["op"], {})
        nondiff = defn.get("differentiable") is False or op["op"] == "StopGradient"
        for i, r in enumerate(op["inputs"]):
            tid = r.get("id")
            src = producer.get(tid) or leaf(tid)
            src_kind = nodes[src]["kind"]
            cut = nondiff or ghost or src_kind == "skipped"
            edges.append({"tail": src, "head": key, "tensor": tid, "label": shape_str(r.get("shape")),
                          "cut": bool(cut), "ghost": ghost or src_kind == "skipped", "index": i})
        for r in op["outputs"]:
            producer[r.get("id")] = key
    for tid in list(tape["watched"]) + [s for s in sources if s is not None]:
        if tid not in producer:
            leaf(tid)
    for g in tape["ghosts"]:
        if g["type"] == "skipped":
            continue
        key = f"g{g['seq']}"
        tid = g.get("tensor")
        label = g.get("label", "")
        is_assign = g["type"] == "assign"
        nodes[key] = {"key": key, "kind": "assign" if is_assign else "escaped", "shape": "box",
                      "label": _short(label), "name": store.tensor_name(tid, f"tensor {tid}"),
                      "op": (f"{label} (not recorded: cuts history)" if is_assign
                             else f"{label} (value left the tape)"),
                      "node": None, "tensor": tid, "shapes": "", "dtypes": "",
                      "summary": summary_text(g.get("value")) if is_assign else "",
                      "site": g.get("site"), "scope": "", "cluster": None, "how": None}
        target = producer.get(tid) or leaf(tid)
        if is_assign:
            edges.append({"tail": key, "head": target, "tensor": tid, "label": "", "cut": True,
                          "ghost": True, "index": 0})
        else:
            edges.append({"tail": target, "head": key, "tensor": tid, "label": "", "cut": True,
                          "ghost": True, "index": 0})
    return {"nodes": list(nodes.values()), "edges": edges, "clusters": clusters}


def _short(text: str, n: int = 22) -> str:
    text = str(text)
    return text if len(text) <= n else text[: n - 1] + "…"
