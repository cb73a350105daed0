"""The graph of one tape, derived from the store's tables: op nodes, leaf tensors, ghosts for
what the tape did not see, the edges between them and the clusters (name scopes, inner tapes,
backward passes) they sit in. :meth:`tapeviz.ui.store.store.Store.graph` builds it once per change
of the tape; the graph view, grouping, layout and the exported page read it.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

from .summaries import is_bad, is_zero, shape_str, summary_text

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
    "skipped": "not recorded (outside tape / paused / int cast)",
    "escaped": "escaped to NumPy / Python",
    "assign": "Variable assignment (cuts history)",
}

# problems marked on a node (an outline per kind, in the legend after KINDS)
FLAGS = {
    "nonfinite": "first NaN / Inf made here",
    "nonfinite_input": "held NaN / Inf before this tape",
    "dead_relu": "dead ReLU (all outputs zero)",
    "saturated": "saturated activation",
    "clipped": "clipped values (no gradient)",
}
# the causes of an explanation that name the op where a problem starts
_CAUSE_FLAG = {"nan_origin": "nonfinite", "inf_origin": "nonfinite", "dead_relu": "dead_relu",
               "saturated": "saturated", "saturated_chain": "saturated",
               "saturated_on_path": "saturated", "clipped": "clipped"}

#: ops whose output depends on their input's shape and dtype only (a loss's labels made by
#: `tf.ones_like(output)`): no value flows from that input, so there is no gradient path
#: to cut, and the edge is drawn plain, not as "gradient path cut here"
SHAPE_ONLY = frozenset({"OnesLike", "ZerosLike"})


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
        nondiff = ((defn.get("differentiable") is False and op["op"] not in SHAPE_ONLY)
                   or op["op"] == "StopGradient")
        for i, r in enumerate(op["inputs"]):
            tid = r.get("id")
            src = producer.get(tid) or leaf(tid)
            src_kind = nodes[src]["kind"]
            cut = nondiff or ghost or src_kind == "skipped"
            edges.append({"tail": src, "head": key, "tensor": tid, "label": _edge_label(r),
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
    _beside_first_reader(nodes, edges)
    _flag(store, tape, nodes)
    return {"nodes": list(nodes.values()), "edges": edges, "clusters": clusters}


def _edge_label(ref) -> str:
    """The shape an edge carries; "scalar" for a 0-d tensor (``()`` read as a zero)."""
    shape = ref.get("shape")
    return "scalar" if shape == [] or shape == () else shape_str(shape)


def _beside_first_reader(nodes, edges) -> None:
    """A leaf tensor (a layer's kernel, a constant) sits in the cluster of the first op that
    reads it, so the layout puts it beside that op rather than beside the layer before. In a
    name scope's box its label drops the scope the box already names (``kernel:0`` in the box
    of ``sequential/dense_3``, for ``dense_3/kernel:0``); the tooltip keeps the full name."""
    placed = set()
    for e in edges:
        leaf, head = nodes.get(e["tail"]), nodes.get(e["head"])
        if (leaf is not None and head is not None and leaf["shape"] == "ellipse"
                and leaf["cluster"] is None and e["tail"] not in placed):
            placed.add(e["tail"])
            leaf["cluster"] = head["cluster"]
            _, _, path = str(head["cluster"] or "").rpartition("|scope:")
            if path:
                leaf["label"] = _short(_within(leaf["name"], path))


def _within(name: str, path: str) -> str:
    """``name`` without the longest tail of the scope ``path`` it starts with."""
    parts = path.split("/")
    for i in range(len(parts)):
        prefix = "/".join(parts[i:]) + "/"
        if name.startswith(prefix) and len(name) > len(prefix):
            return name[len(prefix):]
    return name


def _flag(store: Store, tape: dict, nodes) -> None:
    """Mark where a problem starts (node["flag"], a key of FLAGS): what the explanations of
    the tape's gradient calls name, and what the recorded values show by themselves: the
    first op that makes a NaN/Inf from finite inputs (or a leaf holding one), a ReLU whose outputs are all zero, a
    sigmoid or tanh whose outputs all sit on one flat tail, a clip that holds every value at
    a bound."""
    by_node = {n["node"]: n for n in nodes.values() if n.get("node") is not None}
    for cid in tape["calls"]:
        for r in (store.calls.get(cid) or {}).get("results") or []:
            flag = _CAUSE_FLAG.get(r.get("cause"))
            if flag and r.get("node") in by_node:
                by_node[r["node"]].setdefault("flag", flag)
    first = True
    for n in nodes.values():
        op = store.ops.get(n.get("node")) if n.get("node") is not None else None
        if op is None:
            continue
        for r in op["inputs"]:      # a NaN entering the tape (a Variable), as this op read it:
            leaf = nodes.get(f"t{r.get('id')}")      # made before (an update), not here
            if leaf is not None and is_bad(r.get("summary")):
                leaf.setdefault("flag", "nonfinite_input")
        out = (op["outputs"] or [{}])[0].get("summary")
        flag = None
        if is_bad(out) and first and not any(is_bad(r.get("summary")) for r in op["inputs"]):
            flag, first = "nonfinite", False
        elif op["op"] == "Relu" and is_zero(out):
            flag = "dead_relu"
        elif op["op"] in ("Sigmoid", "Tanh") and _saturated(op["op"], out):
            flag = "saturated"
        elif op["op"] == "ClipByValue" and _all_at_bound(op, out):
            flag = "clipped"
        if flag:
            n.setdefault("flag", flag)


def _saturated(name, out) -> bool:
    """Every output on one flat tail: sigmoid within 0.01 of 0 or 1, tanh of -1 or 1."""
    if not isinstance(out, dict) or "min" not in out or "max" not in out:
        return False
    low = 0.01 if name == "Sigmoid" else -0.99
    return out["max"] < low or out["min"] > 0.99


def _all_at_bound(op, out) -> bool:
    """A clip whose outputs all equal one of its (scalar) bounds."""
    if not isinstance(out, dict) or out.get("min") != out.get("max") or "min" not in out:
        return False
    bounds = [(r.get("summary") or {}).get("value") for r in op["inputs"][1:3]]
    return out["min"] in [b for b in bounds if isinstance(b, (int, float))]


def _short(text: str, n: int = 22) -> str:
    text = str(text)
    return text if len(text) <= n else text[: n - 1] + "…"
