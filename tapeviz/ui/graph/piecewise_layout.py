"""Lay out a graph to draw in pieces that Graphviz handles fast, and put the pieces together.

Two things make ``dot`` slow on tapes: scalar constants (every ``x * 2.0`` adds a leaf that the
x-coordinate pass has to place) and size (``dot`` grows faster than linearly). So:

- **Attached constants.** A scalar constant feeding a single op is not a node for ``dot``: its
  consumer's box is reserved wide enough to hold it, and the constant is drawn at the
  consumer's left with a short edge. A 1,000-op chain with a literal in every op lays out in
  a tenth of the time.
- **Units.** When a large tape is drawn collapsed, each expanded group (a "unit") is laid
  out on its own, then stands as one fixed-size box in the layout of the rest. Each piece is
  cached by content (:mod:`.layout`), so expanding a second group, or collapsing again, costs
  a small layout of the top level only. Edges that cross a unit's border follow the top-level
  route to the box and run straight to the node inside.
"""
from __future__ import annotations

import math

from . import dot_layout as _layout
from . import wrap

GAP = 12.0            # points between an attached constant and its consumer
UNIT_PAD = 14.0       # points of margin inside a unit's box
UNIT_LABEL = 16.0     # points above a unit's contents for its label
VARIABLES = ("trainable", "nontrainable")     # node kinds laid out beside their first reader


def attachable(graph: dict) -> dict:
    """Scalar constants that feed exactly one op and nothing else: constant key -> consumer."""
    out_edges: dict = {}
    in_count: dict = {}
    for e in graph["edges"]:
        out_edges.setdefault(e["tail"], []).append(e["head"])
        in_count[e["head"]] = in_count.get(e["head"], 0) + 1
    boxes = {n["key"] for n in graph["nodes"] if n["shape"] == "box"}
    found = {}
    for n in graph["nodes"]:
        key = n["key"]
        heads = out_edges.get(key, ())
        if (n["kind"] == "constant" and n.get("shapes") == "()" and len(heads) == 1
                and heads[0] in boxes and not in_count.get(key)):
            found[key] = heads[0]
    return found


class NotCached(Exception):
    """Raised with ``cached_only=True`` when a piece would need a ``dot`` run."""


def layout_graph(shown: dict, units: dict | None = None, timeout: float = 60.0,
                 cached_only: bool = False) -> _layout.Layout:
    """The layout of ``shown`` (a graph as built by the store, possibly collapsed).

    ``units`` maps a unit name to the keys of its nodes (expanded groups of a collapsed
    graph). A unit's box becomes a cluster named after the unit in ``shown["clusters"]``
    when its nodes have no cluster of their own to show its border. With ``cached_only``,
    :class:`NotCached` is raised instead of running ``dot`` (to decide whether a layout
    can be drawn at once or belongs in a thread).
    """
    attached = attachable(shown)
    units = {u: set(keys) for u, keys in (units or {}).items() if keys}
    unit_of = {k: u for u, keys in units.items() for k in keys}
    for const, consumer in attached.items():        # a constant goes where its consumer goes
        if consumer in unit_of:
            unit_of[const] = unit_of[consumer]
            units[unit_of[consumer]].add(const)
        else:
            unit_of.pop(const, None)
    if not units:
        return _filled(shown, set(n["key"] for n in shown["nodes"]), attached, timeout, cached_only)

    pieces = {u: _piece(shown, keys, attached, timeout, cached_only) for u, keys in sorted(units.items())}
    inside = {u: _clusters_inside(shown, keys) for u, keys in units.items()}
    # the top level: every node outside the units, and one fixed-size box per unit
    top_nodes = [n for n in shown["nodes"] if n["key"] not in unit_of]
    boxes = {}
    for u, piece in pieces.items():
        labelled = not _covered_by_one_cluster(units[u], shown, inside[u])
        w = piece.width + 2 * UNIT_PAD
        h = piece.height + 2 * UNIT_PAD + (UNIT_LABEL if labelled else 0)
        boxes[u] = (f"unit:{u}", w, h, labelled)
        top_nodes.append({"key": f"unit:{u}", "shape": "box", "kind": "unit",
                          "cluster": _outer_cluster(shown, units[u], inside[u]), "shapes": ""})
    top_edges = []
    for e in shown["edges"]:
        t = boxes[unit_of[e["tail"]]][0] if e["tail"] in unit_of else e["tail"]
        h = boxes[unit_of[e["head"]]][0] if e["head"] in unit_of else e["head"]
        if t != h:
            top_edges.append({"tail": t, "head": h})
    top = {"nodes": top_nodes, "edges": top_edges,
           "clusters": {k: v for k, v in shown["clusters"].items()
                        if not any(k in c for c in inside.values())}}
    sizes = {key: (w, h) for key, w, h, _ in boxes.values()}
    top_lay = _filled(top, {n["key"] for n in top_nodes}, attached, timeout, cached_only, sizes)

    out = _layout.Layout(width=top_lay.width, height=top_lay.height, engine=top_lay.engine,
                         error=top_lay.error or next((p.error for p in pieces.values() if p.error), ""))
    out.nodes.update({k: v for k, v in top_lay.nodes.items() if not k.startswith("unit:")})
    out.clusters.extend(top_lay.clusters)
    out.edges.extend(e for e in top_lay.edges
                     if not e[0].startswith("unit:") and not e[1].startswith("unit:"))
    for u, piece in pieces.items():
        key, w, h, labelled = boxes[u]
        bx, by, _, _ = top_lay.nodes[key]
        dx = bx - piece.width / 2
        dy = by - h / 2 + UNIT_PAD
        out.nodes.update({k: (x + dx, y + dy, nw, nh) for k, (x, y, nw, nh) in piece.nodes.items()})
        out.clusters.extend((c, x0 + dx, y0 + dy, x1 + dx, y1 + dy)
                            for c, x0, y0, x1, y1 in piece.clusters)
        out.edges.extend((t, hd, [x + dx for x in xs], [y + dy for y in ys],
                          [x + dx for x in ax], [y + dy for y in ay])
                         for t, hd, xs, ys, ax, ay in piece.edges)
        if labelled:
            out.clusters.append((key, bx - w / 2, by - h / 2, bx + w / 2, by + h / 2))
            shown["clusters"][key] = (_unit_label(u, units[u], shown), None)
    # edges that cross a unit's border: the top-level route, then straight to the node
    routes = {(t, h): (xs, ys, ax, ay) for t, h, xs, ys, ax, ay in top_lay.edges}
    for e in shown["edges"]:
        t, h = e["tail"], e["head"]
        if unit_of.get(t) == unit_of.get(h):      # both outside, or both in one unit: drawn
            continue
        route = routes.get((boxes[unit_of[t]][0] if t in unit_of else t,
                            boxes[unit_of[h]][0] if h in unit_of else h))
        if route is None or not route[0]:
            continue
        xs, ys, ax, ay = (list(v) for v in route)
        if t in unit_of:
            x, y, _, nh = out.nodes[t]
            xs.insert(0, x)
            ys.insert(0, y - nh / 2)
        if h in unit_of:
            x, y, _, nh = out.nodes[h]
            xs.append(x)
            ys.append(y + nh / 2)
            ax, ay = _layout.arrowhead(xs[-2], ys[-2], xs[-1], ys[-1])
        out.edges.append((t, h, xs, ys, ax, ay))
    return out


def _filled(graph, keys, attached, timeout, cached_only=False, sizes=None) -> _layout.Layout:
    """The layout of the nodes ``keys`` of ``graph``, in columns if that fills the plot
    better than one (see :mod:`.wrap`)."""
    lay = _piece(graph, keys, attached, timeout, cached_only, sizes)
    columns = wrap.bands(lay, keys, owner=attached)
    if columns is None:
        return lay
    pieces = [_piece(graph, set(c), attached, timeout, cached_only, sizes) for c in columns]
    return wrap.join(pieces, [(e["tail"], e["head"]) for e in graph["edges"]])


def _piece(graph, keys, attached, timeout, cached_only=False, sizes=None) -> _layout.Layout:
    """One ``dot`` run over the nodes ``keys`` of ``graph`` (attached constants placed after)."""
    sizes = sizes or {}

    def size_in(node):
        return _layout.node_size(node.get("label", ""), shape=node.get("shape", "box"))

    def size_pt(node):
        return tuple(v * _layout.POINTS_PER_INCH for v in size_in(node))
    hosts: dict = {}
    for const, consumer in attached.items():
        if const in keys and consumer in keys:
            hosts.setdefault(consumer, []).append(const)
    by_key = {n["key"]: n for n in graph["nodes"]}
    const_size = {c: size_pt(by_key[c]) for cs in hosts.values() for c in cs}
    nodes = []
    for n in graph["nodes"]:
        key = n["key"]
        if key not in keys or key in const_size:
            continue
        w, h = (v / _layout.POINTS_PER_INCH for v in sizes[key]) if key in sizes else size_in(n)
        if key in hosts:       # room on both sides keeps the box centred under its inputs
            cw = max(const_size[c][0] for c in hosts[key]) + GAP
            ch = sum(const_size[c][1] for c in hosts[key]) + GAP * (len(hosts[key]) - 1)
            w += 2 * cw / _layout.POINTS_PER_INCH
            h = max(h, ch / _layout.POINTS_PER_INCH)
        nodes.append((key, w, h, n["shape"], n.get("cluster")))
    edges = [(e["tail"], e["head"]) for e in graph["edges"]
             if e["tail"] in keys and e["head"] in keys and e["tail"] not in const_size]
    used = _used_clusters(graph["clusters"], {n[4] for n in nodes})
    clusters = {k: graph["clusters"][k][1] for k in used}
    labels = {k: graph["clusters"][k][0] for k in used}
    beside = _beside(graph, nodes)
    if cached_only:
        lay = _layout.cached(nodes, edges, clusters, labels=labels, beside=beside)
        if lay is None:
            raise NotCached
    else:
        lay = _layout.layout(nodes, edges, clusters, labels=labels, timeout=timeout,
                             beside=beside)
    if not hosts:
        return lay
    # the cached layout is shared: place the constants in a copy
    out = _layout.Layout(nodes=dict(lay.nodes), edges=list(lay.edges), clusters=list(lay.clusters),
                         width=lay.width, height=lay.height, engine=lay.engine, error=lay.error)
    for consumer, consts in hosts.items():
        x, y, w, h = out.nodes[consumer]
        cw = max(const_size[c][0] for c in consts) + GAP
        own_w = w - 2 * cw
        own_h = size_pt(by_key[consumer])[1]
        out.nodes[consumer] = (x, y, own_w, own_h)
        total = sum(const_size[c][1] for c in consts) + GAP * (len(consts) - 1)
        top = y + total / 2
        for c in consts:
            cwid, chgt = const_size[c]
            cx, cy = x - own_w / 2 - GAP - cwid / 2, top - chgt / 2
            top -= chgt + GAP
            out.nodes[c] = (cx, cy, cwid, chgt)
            x0, x1 = cx + cwid / 2, x - own_w / 2
            ax, ay = _layout.arrowhead(x0, cy, x1, y)
            out.edges.append((c, consumer, [x0, x1], [cy, y], ax, ay))
    # dot routed edges to the reserved (taller) box: run them on to the op's own border
    for i, (t, hd, xs, ys, ax, ay) in enumerate(out.edges):
        if not xs or (hd not in hosts and t not in hosts) or t in const_size:
            continue
        xs, ys = list(xs), list(ys)
        if t in hosts:
            tx, ty, tw, th = out.nodes[t]
            xs.insert(0, _clamp(xs[0], tx - tw / 2 + 3, tx + tw / 2 - 3))
            ys.insert(0, ty - th / 2)
        if hd in hosts:
            hx, hy, hw, hh = out.nodes[hd]
            xs.append(_clamp(xs[-1], hx - hw / 2 + 3, hx + hw / 2 - 3))
            ys.append(hy + hh / 2)
            ax, ay = _layout.arrowhead(xs[-2], ys[-2], xs[-1], ys[-1])
        out.edges[i] = (t, hd, xs, ys, ax, ay)
    return out


def _beside(graph, nodes) -> dict:
    """Variables (a layer's kernel) to lay out beside the op that reads them, when both are
    in one cluster or both outside any: a rank of their own would overlap the rank of the
    layer before, and ``dot`` then sets each layer's box beside the previous one, a
    staircase. A variable read by several ops (an RNN's weights) keeps a rank of its own
    above them (beside the first, it pulled each next reader aside: a staircase again);
    other leaves (the data, a constant) too, where the data flows from."""
    cluster = {n[0]: n[4] for n in nodes}
    kinds = {n["key"]: n.get("kind") for n in graph["nodes"]}
    readers: dict = {}
    for e in graph["edges"]:      # in the whole graph: a piece (a column) may hold one of many
        readers.setdefault(e["tail"], set()).add(e["head"])
    return {t: next(iter(heads)) for t, heads in readers.items()
            if kinds.get(t) in VARIABLES and len(heads) == 1
            and cluster.get(t, 0) == cluster.get(next(iter(heads)), 1)}


def _clamp(v, lo, hi):
    return min(max(v, lo), hi)


def _used_clusters(clusters: dict, used: set) -> set:
    """The clusters in ``used`` and all their ancestors."""
    keep = set()
    for c in used:
        while c is not None and c in clusters and c not in keep:
            keep.add(c)
            c = clusters[c][1]
    return keep


def _clusters_inside(shown, keys) -> set:
    """Clusters whose every node is in ``keys``: they move into the unit's own layout."""
    members: dict = {}
    for n in shown["nodes"]:
        c = n.get("cluster")
        while c is not None and c in shown["clusters"]:
            members.setdefault(c, set()).add(n["key"])
            c = shown["clusters"][c][1]
    return {c for c, m in members.items() if m <= keys}


def _outer_cluster(shown, keys, inside):
    """The innermost cluster holding all of a unit (its box is drawn in there), or None."""
    for n in shown["nodes"]:
        if n["key"] in keys:
            c = n.get("cluster")
            while c is not None and c in inside:
                c = shown["clusters"].get(c, (None, None))[1]
            return c
    return None


def _covered_by_one_cluster(keys, shown, inside) -> bool:
    """A unit whose nodes all sit in one cluster of its own already shows its border (a name
    scope does)."""
    roots = set()
    for n in shown["nodes"]:
        if n["key"] in keys and n["shape"] == "box":       # leaves sit outside scopes
            c = n.get("cluster")
            while c is not None and shown["clusters"].get(c, (None, None))[1] is not None:
                c = shown["clusters"][c][1]
            roots.add(c)
    return len(roots) == 1 and roots <= inside


def _unit_label(unit, keys, shown) -> str:
    kind, _, name = unit.partition(":")
    ops = sum(1 for n in shown["nodes"] if n["key"] in keys and n["shape"] == "box")
    return f"{name if kind == 'scope' else 'block ' + name} (expanded, {ops} ops)"
