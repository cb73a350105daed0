"""The columns the graph view sends to BokehJS: one row per drawn node, edge, arrowhead,
edge label and cluster box, from a tape's graph (``ui/store/tape_graph.py``) and its Graphviz
layout (``dot_layout.py``). Plain lists of plain values: the figure that draws them is
``plot.py``'s :class:`GraphView`.

Coordinates are rounded to a tenth of a point (dot's inches times 72 and the placed
constants' sums carry 15 digits, a sixth of a large graph's message). A node may carry its
own fill and dash (the compare view colours nodes by difference).
"""
from __future__ import annotations

from . import fonts
from ..store.tape_graph import FLAGS

FILL = {"op": "#dbe9f6", "output": "#ffd966", "trainable": "#74c476", "nontrainable": "#d9d9d9",
        "watched": "#b7a6e0", "constant": "#ffffff", "stop_gradient": "#f4b6b6",
        "backward": "#ffe3c2", "skipped": "#f7f7f7", "escaped": "#fff4cc", "assign": "#fde0e0"}
DASHED = {"skipped", "escaped", "assign"}
# outlines of the problems found on the graph (see tape_graph.FLAGS)
FLAG_COLORS = {"nonfinite": "#e31a1c", "nonfinite_input": "#fb9a99", "dead_relu": "#6a3d9a",
               "saturated": "#b15928", "clipped": "#17becf"}
CLUSTER_INSET = 6.0      # points from a cluster's left border to its label
EDGE_LABEL_LIMIT = 400   # more edges than this: no shape labels on them
# label sizes in the graph's points (the layout sized nodes for them), the largest and the
# smallest size in screen pixels they are drawn at (below, they are hidden: unreadable), and
# how much larger than the view a graph may be and still open at a zoom its labels show at
FONTS = {"node": fonts.NODE_FONT, "edge": fonts.EDGE_FONT, "cluster": fonts.CLUSTER_FONT,
         "max_px": 13.0, "min_px": 6.0, "crop": 1.3}

NODE_FIELDS = ("key", "x", "y", "w", "h", "kind", "shape", "fill", "dash", "label", "name",
               "op", "shapes", "dtypes", "summary", "problem", "problem_row", "flag",
               "flag_color", "line", "state")
EDGE_FIELDS = ("xs", "ys", "color", "dash", "width", "tail", "head", "label", "cut")
CLUSTER_FIELDS = ("left", "right", "top", "bottom", "label", "text", "lx", "ly", "key")


def problem_row(problem: str) -> str:
    """The tooltip's problem row as HTML, or nothing: a node without a problem shows no empty
    "problem:" row."""
    if not problem:
        return ""
    import html
    return (f'<div class="tv-tip-row"><span class="tv-tip-key">problem:</span> '
            f'{html.escape(problem)}</div>')


def empty_node_columns() -> dict:
    return {k: [] for k in NODE_FIELDS}


def node_columns(graph: dict, lay, fill_of) -> dict:
    """The nodes' columns: those the layout placed, in the graph's order. ``fill_of(node)``
    gives a node's fill colour."""
    cols = empty_node_columns()
    for n in graph["nodes"]:
        if n["key"] not in lay.nodes:
            continue
        x, y, w, h = (round(v, 1) for v in lay.nodes[n["key"]])
        cols["key"].append(n["key"]); cols["x"].append(x); cols["y"].append(y)
        cols["w"].append(w); cols["h"].append(h); cols["kind"].append(n["kind"])
        cols["shape"].append(n["shape"])
        cols["fill"].append(fill_of(n))
        cols["dash"].append(n.get("dash") or ("dashed" if n["kind"] in DASHED else "solid"))
        for k in ("label", "name", "op", "shapes", "dtypes", "summary"):
            cols[k].append(str(n.get(k) or ""))
        flag = n.get("flag") if n.get("flag") in FLAG_COLORS else ""
        cols["flag"].append(flag); cols["flag_color"].append(FLAG_COLORS.get(flag, "#000000"))
        cols["problem"].append(FLAGS.get(flag, ""))
        cols["problem_row"].append(problem_row(FLAGS.get(flag, "")))
        site = n.get("site") or {}
        cols["line"].append(int(site.get("line") or 0))
        cols["state"].append(0)
    return cols


def edge_columns(graph: dict, lay):
    """(edges, arrowheads, edge labels, rows): the columns of the edges the layout drew (a
    cut edge red and dashed), their arrowheads, the shape labels at their middles, and the
    (tail, head) of each edge row."""
    by_pair = {}
    for e in graph["edges"]:
        by_pair.setdefault((e["tail"], e["head"]), e)
    ecols = {k: [] for k in EDGE_FIELDS}
    acols = {"xs": [], "ys": [], "color": []}
    lcols = {"x": [], "y": [], "text": []}
    rows = []
    show_labels = len(lay.edges) <= EDGE_LABEL_LIMIT
    for tail, head, xs, ys, ax, ay in lay.edges:
        e = by_pair.get((tail, head))
        if e is None or not xs:
            continue
        color = "#d62728" if e["cut"] else "#9e9e9e"
        ecols["xs"].append(xs); ecols["ys"].append(ys); ecols["color"].append(color)
        ecols["dash"].append("dashed" if e["cut"] or e.get("ghost") else "solid")
        ecols["width"].append(2.0 if e["cut"] else 1.3)
        ecols["tail"].append(tail); ecols["head"].append(head)
        ecols["label"].append(e["label"]); ecols["cut"].append(bool(e["cut"]))
        rows.append((tail, head))
        if ax:
            acols["xs"].append([round(v, 1) for v in ax])
            acols["ys"].append([round(v, 1) for v in ay]); acols["color"].append(color)
        if show_labels and e["label"]:
            m = len(xs) // 2
            lcols["x"].append(xs[m]); lcols["y"].append(ys[m]); lcols["text"].append(e["label"])
    return ecols, acols, lcols, rows


def cluster_columns(graph: dict, lay) -> dict:
    """The cluster boxes (name scopes, repeated blocks), each labelled in the band Graphviz
    keeps free above its nodes (``dot_layout.to_dot``), the label cut to fit the box."""
    ccols = {k: [] for k in CLUSTER_FIELDS}
    for key, x0, y0, x1, y1 in lay.clusters:
        ccols["left"].append(x0); ccols["right"].append(x1)
        ccols["bottom"].append(y0); ccols["top"].append(y1)
        label = str(graph["clusters"].get(key, ("",))[0])
        ccols["label"].append(label)
        ccols["text"].append(fonts.fit(label, x1 - x0 - 2 * CLUSTER_INSET, fonts.CLUSTER_FONT))
        ccols["key"].append(str(key))
        ccols["lx"].append(x0 + CLUSTER_INSET); ccols["ly"].append(y1 - 3)
    return ccols
