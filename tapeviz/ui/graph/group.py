"""Large tapes: collapse groups of nodes (by name scope, else repeated block) into one box each.

Up to :data:`LIMIT` nodes (not counting scalar constants, which are drawn beside their op) a
graph is drawn whole. Above, nodes sharing a top-level scope (a Keras layer, a
``tv.name_scope``) become one group node. Ops outside any scope are cut into blocks of about
:data:`BLOCK` ops; when their op sequence repeats (a loop body: the same ops in the same order
again and again) the cuts fall on whole repetitions, so each block is "iterations a to b" of
the loop. ``expanded`` names the groups to draw open; the nodes of each expanded top-level
group form a "unit" that is laid out on its own (see :mod:`.compose`).
"""
from __future__ import annotations

from .piecewise_layout import attachable

LIMIT = 1200
BLOCK = 50
MAX_PERIOD = 200


def group_of(node, index: int, expanded=frozenset(), block: int = BLOCK) -> str | None:
    """The collapsed group holding ``node`` (None: drawn on its own). Scopes nest: expanding
    ``scope:a`` shows groups ``scope:a/b``, and so on down to single ops. ``index`` counts
    the ops outside any scope; ``block`` is how many of them make a block."""
    scope = node.get("scope") or ""
    if scope:
        parts = scope.split("/")
        for d in range(1, len(parts) + 1):
            g = "scope:" + "/".join(parts[:d])
            if g not in expanded:
                return g
        return None
    if node["shape"] == "ellipse":
        return None
    g = f"block:{index // block}"
    return None if g in expanded else g


def repeat_period(ops: list, max_period: int = MAX_PERIOD) -> int | None:
    """The shortest period of a sequence of op names that repeats for at least 90% of its
    length and three times over (a loop body), or None."""
    n = len(ops)
    for p in range(1, min(max_period, n // 3) + 1):
        allowed = (n - p) // 10
        misses = 0
        for i in range(n - p):
            if ops[i] != ops[i + p]:
                misses += 1
                if misses > allowed:
                    break
        else:
            return p
    return None


def block_size(graph: dict) -> tuple[int, int | None]:
    """Ops per block for the unscoped ops of ``graph``, and the loop period it follows."""
    ops = [n.get("op", "") for n in graph["nodes"] if n["shape"] != "ellipse" and not n.get("scope")]
    period = repeat_period(ops)
    if period is None:
        return BLOCK, None
    return period * max(1, BLOCK // period), period


def collapse(graph: dict, expanded=(), limit: int = LIMIT, closed=()) -> dict:
    """The graph to draw: ``graph`` itself when small, else with groups collapsed.

    A collapsed result has ``gmap`` (node key -> the group it is hidden in) and ``units``
    (expanded top-level group -> the keys of its nodes drawn, group nodes included).
    A small graph is drawn open but for the scope groups in ``closed`` (the user closed
    them): one box each, laid out with the rest in one piece (no units)."""
    if len(graph["nodes"]) - len(attachable(graph)) <= limit:
        closed = {g for g in closed if g.startswith("scope:")}
        if not closed:
            return graph
        shown = collapse(graph, _all_groups(graph) - closed, limit=-1)
        shown["units"] = {}
        shown["closed_by_user"] = True
        return shown
    expanded = frozenset(expanded)
    block, period = block_size(graph)
    gmap = {}
    groups: dict = {}
    unit_of: dict = {}
    op_i = 0
    for n in graph["nodes"]:
        if n["shape"] == "ellipse":
            continue
        g = group_of(n, op_i, expanded, block)
        top = group_of(n, op_i, frozenset(), block)
        if not n.get("scope"):
            op_i += 1
        if top in expanded:
            unit_of[n["key"]] = top
        if g is None:
            continue
        gmap[n["key"]] = g
    # constants (and unwatched outside tensors) join the group of their consumer
    consumer = {}
    for e in graph["edges"]:
        consumer.setdefault(e["tail"], e["head"])
    # (in a group the user closed, limit < 0: a layer's variables go into its box too)
    for n in graph["nodes"]:
        if n["shape"] == "ellipse" and (n["kind"] == "constant" or limit < 0):
            g = gmap.get(consumer.get(n["key"]))
            if g is not None:
                gmap[n["key"]] = g
            elif consumer.get(n["key"]) in unit_of:
                unit_of[n["key"]] = unit_of[consumer[n["key"]]]
    for n in graph["nodes"]:
        g = gmap.get(n["key"])
        if g is not None:
            groups.setdefault(g, []).append(n)
    nodes = []
    done = set()
    for n in graph["nodes"]:
        g = gmap.get(n["key"])
        if g is None:
            nodes.append(n)
            continue
        if g in done:
            continue
        done.add(g)
        members = groups[g]
        ops = sorted({m.get("op", "") for m in members})
        label = g.split(":", 1)[1] if g.startswith("scope:") else _block_label(g, members, block, period)
        kinds = {m["kind"] for m in members}
        nodes.append({"key": "grp:" + g, "kind": "op" if kinds - {"output"} else "output",
                      "shape": "box", "label": f"{label} [{len(members)}]"[:30],
                      "name": label, "op": "group: " + ", ".join(ops[:6]) + ("…" if len(ops) > 6 else ""),
                      "node": None, "tensor": None, "shapes": "", "dtypes": "",
                      "summary": f"{len(members)} nodes", "site": members[0].get("site"),
                      "scope": "", "cluster": None, "how": None, "members": len(members),
                      "group": g, **_group_fills(members)})
        if n["key"] in unit_of:
            unit_of["grp:" + g] = unit_of[n["key"]]
    edges = []
    seen = set()
    for e in graph["edges"]:
        t = "grp:" + gmap[e["tail"]] if e["tail"] in gmap else e["tail"]
        h = "grp:" + gmap[e["head"]] if e["head"] in gmap else e["head"]
        if t == h or (t, h) in seen:
            continue
        seen.add((t, h))
        edges.append({**e, "tail": t, "head": h})
    clusters = {k: v for k, v in graph["clusters"].items()}
    keep = {n.get("cluster") for n in nodes}
    # keep ancestors of used clusters
    for c in list(keep):
        while c in clusters and clusters[c][1] is not None:
            c = clusters[c][1]
            keep.add(c)
    clusters = {k: v for k, v in clusters.items() if k in keep}
    units: dict = {}
    for key, unit in unit_of.items():
        if key not in gmap:
            units.setdefault(unit, []).append(key)
    return {"nodes": nodes, "edges": edges, "clusters": clusters, "collapsed": True, "gmap": gmap,
            "units": units}


def _group_fills(members: list) -> dict:
    """Where nodes carry fills of their own, ``fill_<name>`` ranked by ``rank_<name>`` (the
    compare view's colourings, by how much a node differs), a group's: its top member's."""
    out = {}
    for rank in {k for m in members for k in m if k.startswith("rank_")}:
        top = max((m for m in members if rank in m), key=lambda m: m[rank])
        out["fill_" + rank[5:]] = top.get("fill_" + rank[5:])
    return out


def _all_groups(graph: dict) -> frozenset:
    """Every group a graph's nodes could be collapsed into (each scope prefix, each block)."""
    block, _ = block_size(graph)
    out = set()
    op_i = 0
    for n in graph["nodes"]:
        if n["shape"] == "ellipse":
            continue
        parts = (n.get("scope") or "").split("/") if n.get("scope") else []
        out.update("scope:" + "/".join(parts[:d]) for d in range(1, len(parts) + 1))
        if not parts:
            out.add(f"block:{op_i // block}")
            op_i += 1
    return frozenset(out)


def _block_label(group: str, members: list, block: int, period: int | None) -> str:
    """"loop ×16: Mul, AddV2, Sin" for whole repetitions of a loop body, else "Mul… (op12…)"."""
    ops = [m.get("op", "") for m in members if m["shape"] != "ellipse"]
    if period is None or not ops:
        return f"{members[0].get('op', '')}… ({members[0]['key']}…)"
    first = int(group.split(":", 1)[1]) * (block // period) + 1
    reps = max(1, len(ops) // period)
    body = ", ".join(ops[:period][:3]) + ("…" if period > 3 else "")
    return f"loop {first}–{first + reps - 1}: {body}"
