"""Large tapes: collapse groups of nodes (by name scope) into one box each.

Up to :data:`LIMIT` nodes (not counting scalar constants, which are drawn beside their op) a
graph is drawn whole. Above, nodes sharing a top-level scope (a Keras layer, a
``tv.name_scope``) become one group node; ungrouped runs of ops are cut into blocks of
:data:`BLOCK` ops. ``expanded`` names the groups to draw open; the nodes of each expanded
top-level group form a "unit" that is laid out on its own (see :mod:`.compose`).
"""
from __future__ import annotations

from .compose import attachable

LIMIT = 1200
BLOCK = 50


def group_of(node, index: int, expanded=frozenset()) -> str | None:
    """The collapsed group holding ``node`` (None: drawn on its own). Scopes nest: expanding
    ``scope:a`` shows groups ``scope:a/b``, and so on down to single ops."""
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
    g = f"block:{index // BLOCK}"
    return None if g in expanded else g


def top_group(node, index: int) -> str | None:
    """The outermost group of ``node``: what it belongs to when nothing is expanded."""
    return group_of(node, index)


def collapse(graph: dict, expanded=(), limit: int = LIMIT) -> dict:
    """The graph to draw: ``graph`` itself when small, else with groups collapsed.

    A collapsed result has ``gmap`` (node key -> the group it is hidden in) and ``units``
    (expanded top-level group -> the keys of its nodes drawn, group nodes included)."""
    if len(graph["nodes"]) - len(attachable(graph)) <= limit:
        return graph
    expanded = frozenset(expanded)
    gmap = {}
    groups: dict = {}
    unit_of: dict = {}
    op_i = 0
    for n in graph["nodes"]:
        if n["shape"] == "ellipse":
            continue
        g = group_of(n, op_i, expanded)
        top = top_group(n, op_i)
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
    for n in graph["nodes"]:
        if n["shape"] == "ellipse" and n["kind"] == "constant":
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
        label = (g.split(":", 1)[1] if g.startswith("scope:")
                 else f"{members[0].get('op', '')}… ({members[0]['key']}…)")
        kinds = {m["kind"] for m in members}
        nodes.append({"key": "grp:" + g, "kind": "op" if kinds - {"output"} else "output",
                      "shape": "box", "label": f"{label} [{len(members)}]"[:30],
                      "name": label, "op": "group: " + ", ".join(ops[:6]) + ("…" if len(ops) > 6 else ""),
                      "node": None, "tensor": None, "shapes": "", "dtypes": "",
                      "summary": f"{len(members)} nodes", "site": members[0].get("site"),
                      "scope": "", "cluster": None, "how": None, "members": len(members),
                      "group": g})
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
