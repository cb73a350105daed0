"""Graph layout: Graphviz ``dot -Tjson`` run as a subprocess, parsed into plain coordinates.

The layout program is ``$TAPEVIZ_DOT`` if set, else ``dot`` on PATH, else ``graphviz-pure`` (the
pip-installable port with the same flags and JSON). Results are cached by the hash of the DOT
source, so re-drawing an unchanged tape (or group) costs nothing. If no program is found, it
fails or times out, a cheap layered layout in pure Python is used instead, so the rest of the
dashboard keeps working.

User strings never enter the DOT source: nodes are named ``n0, n1, ...``, labels are empty and
boxes are sized from the label length, so no name can break or inject into the DOT program.
"""
from __future__ import annotations

import hashlib
import math
import os
import shutil
import subprocess
import sys
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from ...recording.reader import loads
from . import fonts

POINTS_PER_INCH = 72.0
_CACHE: "OrderedDict[str, Layout]" = OrderedDict()
_CACHE_SIZE = 64
_LOCK = threading.Lock()
MIN_WIDTH = 36.0        # points: the narrowest box (a short op name stays a box)
LINE_HEIGHT = 1.25      # a label's line, in font sizes
PLACEHOLDER_WIDTH = 5.5  # points: an "n" at 11 points is at least this wide in dot (Times: 5.5)


@dataclass
class Layout:
    """Node boxes (centre x, y, width, height in points), edge polylines and arrowheads,
    cluster boxes. ``engine`` names the program that made it (or ``"fallback"``)."""
    nodes: dict = field(default_factory=dict)        # key -> (x, y, w, h)
    edges: list = field(default_factory=list)        # (xs, ys, arrow_xs, arrow_ys) per edge
    clusters: list = field(default_factory=list)     # (key, x0, y0, x1, y1)
    width: float = 0.0
    height: float = 0.0
    engine: str = ""
    error: str = ""


def dot_program() -> str | None:
    """The layout executable: $TAPEVIZ_DOT, else dot, else graphviz-pure (next to Python too)."""
    env = os.environ.get("TAPEVIZ_DOT")
    if env:
        return env
    found = shutil.which("dot") or shutil.which("graphviz-pure")
    if found:
        return found
    local = os.path.join(os.path.dirname(sys.executable), "graphviz-pure")
    return local if os.path.exists(local) else None


def node_size(label: str, lines: int = 1, shape: str = "box") -> tuple[float, float]:
    """Node size in inches: room for the label at :data:`~.fonts.NODE_FONT` (the size the view
    draws it in the graph's points) and a margin. An ellipse holds its label's box (and half
    the margin) inside it: a box of half-sides a, b fits an ellipse of half-axes A, B when
    (a/A)^2 + (b/B)^2 <= 1, so for a height B the width A is a / sqrt(1 - (b/B)^2)."""
    lines = max(lines, str(label).count("\n") + 1)
    text_w = fonts.text_width(label, fonts.NODE_FONT)
    text_h = lines * LINE_HEIGHT * fonts.NODE_FONT
    w, h = max(MIN_WIDTH, text_w + 2 * fonts.PAD), text_h + 2 * fonts.PAD
    if shape == "ellipse":
        h *= 1.2
        w = max(MIN_WIDTH, (text_w + fonts.PAD) / math.sqrt(1 - (text_h / h) ** 2))
    return w / POINTS_PER_INCH, h / POINTS_PER_INCH


def to_dot(nodes, edges, clusters=None, rankdir="TB", labels=None,
           beside=None) -> tuple[str, list, dict]:
    """DOT source for ``nodes`` (key, width_in, height_in, shape, cluster) and ``edges``
    (tail_key, head_key). ``clusters`` maps cluster key -> parent cluster key (or None);
    ``beside`` maps a node key to the key of a node of the same cluster to put it beside
    (same rank). Returns the source and the node keys in DOT order (``n{i}`` is ``keys[i]``)."""
    clusters = clusters or {}
    beside = beside or {}
    labels = labels or {}
    keys = [n[0] for n in nodes]
    index = {k: i for i, k in enumerate(keys)}
    members: dict = {}
    lines = [f"digraph G {{ rankdir={rankdir}; nodesep=0.2; ranksep=0.22;",
             'node [fixedsize=true label=""]; edge [arrowsize=0.7];']
    top = []
    for i, (key, w, h, shape, cluster) in enumerate(nodes):
        stmt = f'n{i} [width={w:.3f} height={h:.3f} shape={"ellipse" if shape == "ellipse" else "box"}];'
        other = index.get(beside.get(key))
        if other is not None:
            stmt += f" {{ rank=same; n{i}; n{other}; }}"
        if cluster is not None and cluster in clusters:
            members.setdefault(cluster, []).append(stmt)
        else:
            top.append(stmt)
    children: dict = {}
    for ckey, parent in clusters.items():
        children.setdefault(parent if parent in clusters else None, []).append(ckey)
    cnames = {c: f"cluster_{j}" for j, c in enumerate(clusters)}

    def emit(ckey, depth):
        # reserve room for the cluster's label (drawn by the UI at fonts.CLUSTER_FONT) with a
        # placeholder at least as wide: the real text never enters the DOT source
        width = fonts.text_width(labels.get(ckey, ""), fonts.CLUSTER_FONT)
        count = min(math.ceil(width / PLACEHOLDER_WIDTH), 60)
        label = f' label="{"n" * count}" labeljust=l fontsize=11;' if count else ""
        lines.append("  " * depth + f"subgraph {cnames[ckey]} {{ margin=14;{label}")
        for child in children.get(ckey, []):
            emit(child, depth + 1)
        lines.extend("  " * (depth + 1) + s for s in members.get(ckey, []))
        lines.append("  " * depth + "}")

    for ckey in children.get(None, []):
        emit(ckey, 1)
    lines.extend(top)
    seen = set()
    for tail, head in edges:
        if tail in index and head in index and (tail, head) not in seen:
            seen.add((tail, head))
            lines.append(f"n{index[tail]} -> n{index[head]};")
    lines.append("}")
    return "\n".join(lines), keys, {v: k for k, v in cnames.items()}


def layout(nodes, edges, clusters=None, timeout: float = 60.0, rankdir="TB",
           labels=None, beside=None) -> Layout:
    """Lay out a graph (see :func:`to_dot` for the arguments); cached by content."""
    src, keys, cnames = to_dot(nodes, edges, clusters, rankdir, labels, beside)
    digest = _digest(src, keys, cnames)
    hit = _lookup(digest)
    if hit is not None:
        return hit
    result = None
    exe = dot_program()
    error = ""
    if exe:
        try:
            proc = subprocess.run([exe, "-Tjson"], input=src, capture_output=True, text=True,
                                  timeout=timeout)
            if proc.returncode == 0:
                result = parse_json(loads(proc.stdout), keys, edges, cnames)   # orjson
                result.engine = os.path.basename(exe)
            else:
                error = f"{os.path.basename(exe)} failed: {proc.stderr.strip()[:300]}"
        except (OSError, subprocess.TimeoutExpired, ValueError, KeyError) as exc:
            error = f"layout program failed: {exc!r}"[:300]
    else:
        error = "no layout program (install graphviz or graphviz-pure)"
    if result is None:
        result = fallback_layout(nodes, edges, rankdir)
        result.error = error
    with _LOCK:
        _CACHE[digest] = result
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return result


def _lookup(digest):
    with _LOCK:
        hit = _CACHE.get(digest)
        if hit is not None:
            _CACHE.move_to_end(digest)
        return hit


def cached(nodes, edges, clusters=None, rankdir="TB", labels=None, beside=None) -> Layout | None:
    """The cached layout of this graph, or None (then :func:`layout` would run Graphviz)."""
    return _lookup(_digest(*to_dot(nodes, edges, clusters, rankdir, labels, beside)))


def _digest(src, keys, cnames) -> str:
    """The cache key: the DOT text names nodes anonymously (n0, n1, ...), and the layout
    holds the caller's node keys, so both go into the key."""
    return hashlib.sha1(f"{src}\0{keys!r}\0{sorted(cnames.items())!r}".encode()).hexdigest()


#: how far (in points) a drawn edge may stray from Graphviz's curve: half a point is two
#: thirds of a pixel with the graph at its natural size, and far less at the zoom a large
#: graph opens at
FLATNESS = 0.5


def _bezier(points, samples=16):
    """Sample a cubic B-spline given as 3n+1 control points (Graphviz ``op: b``), each cubic
    piece with as few chords as keep within FLATNESS of it, at most ``samples`` (a piece that
    bends by more than about 170 points then strays by up to 0.75 * bend / samples**2; eight
    chords a piece, as before, strayed four times as far there). Most edges of a layered
    graph are nearly straight: a 1,000-op chain's take 3 points where they took 9 (the
    edges' points were a fifth of its first message); a DAG of long, winding edges takes
    about as many as before."""
    xs, ys = [points[0][0]], [points[0][1]]
    for k in range(0, len(points) - 3, 3):
        p0, p1, p2, p3 = points[k:k + 4]
        # n chords of a cubic stray from it by at most 3/4 of its largest second difference
        # over n squared (the usual flattening bound)
        bend = max(math.hypot(p0[0] - 2 * p1[0] + p2[0], p0[1] - 2 * p1[1] + p2[1]),
                   math.hypot(p1[0] - 2 * p2[0] + p3[0], p1[1] - 2 * p2[1] + p3[1]))
        n = max(1, min(samples, math.ceil(math.sqrt(0.75 * bend / FLATNESS))))
        for s in range(1, n + 1):
            t = s / n
            u = 1 - t
            a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
            # a tenth of a point is finer than any screen shows; the digits beyond it were
            # about a third of the page's first message on a 1,000-op graph
            xs.append(round(a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], 1))
            ys.append(round(a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1], 1))
    return xs, ys


def parse_json(data: dict, keys: list, edges: list, cnames: dict | None = None) -> Layout:
    """Turn ``dot -Tjson`` output into a :class:`Layout` (one parser for dot and graphviz-pure)."""
    cnames = cnames or {}
    bb = [float(v) for v in data.get("bb", "0,0,0,0").split(",")]
    out = Layout(width=bb[2] - bb[0], height=bb[3] - bb[1])
    gvid_key = {}
    for obj in data.get("objects", []):
        name = obj.get("name", "")
        if "nodes" in obj or name.startswith("cluster_"):
            if "bb" in obj and name in cnames:
                x0, y0, x1, y1 = (float(v) for v in obj["bb"].split(","))
                out.clusters.append((cnames[name], x0, y0, x1, y1))
            continue
        if not name.startswith("n") or "pos" not in obj:
            continue
        key = keys[int(name[1:])]
        gvid_key[obj["_gvid"]] = key
        x, y = (float(v) for v in obj["pos"].split(","))
        out.nodes[key] = (x, y, float(obj["width"]) * POINTS_PER_INCH,
                          float(obj["height"]) * POINTS_PER_INCH)
    for e in data.get("edges", []):
        tail, head = gvid_key.get(e.get("tail")), gvid_key.get(e.get("head"))
        xs, ys, ax, ay = [], [], [], []
        for d in e.get("_draw_", []):
            if d.get("op") in ("b", "B"):
                xs, ys = _bezier(d["points"])
        for d in e.get("_hdraw_", []):
            if d.get("op") in ("P", "p"):
                ax = [p[0] for p in d["points"]]
                ay = [p[1] for p in d["points"]]
        out.edges.append((tail, head, xs, ys, ax, ay))
    return out


def arrowhead(x0, y0, x1, y1, length=7.0, half=3.5):
    """A triangle with its tip at (x1, y1), pointing along (x0, y0) -> (x1, y1)."""
    dx, dy = x1 - x0, y1 - y0
    norm = math.hypot(dx, dy) or 1.0
    ux, uy = dx / norm, dy / norm
    bx, by = x1 - ux * length, y1 - uy * length
    return [x1, bx - uy * half, bx + uy * half], [y1, by + ux * half, by - ux * half]


def fallback_layout(nodes, edges, rankdir="TB") -> Layout:
    """A layered layout without Graphviz: rank = longest path from a source, order = arrival."""
    keys = [n[0] for n in nodes]
    size = {n[0]: (n[1] * POINTS_PER_INCH, n[2] * POINTS_PER_INCH) for n in nodes}
    preds: dict = {k: [] for k in keys}
    for t, h in edges:
        if t in preds and h in preds:
            preds[h].append(t)
    rank: dict = {}
    for k in keys:                     # nodes arrive in execution order: a topological order
        rank[k] = 1 + max((rank.get(p, 0) for p in preds[k] if p in rank), default=-1)
    by_rank: dict = {}
    for k in keys:
        by_rank.setdefault(rank[k], []).append(k)
    out = Layout(engine="fallback")
    n_ranks = max(by_rank, default=0) + 1
    row_h = 60.0
    widest = 0.0
    for r, members in by_rank.items():
        x = 0.0
        for k in members:
            w, h = size[k]
            out.nodes[k] = (x + w / 2, (n_ranks - r) * row_h, w, h)
            x += w + 20
        widest = max(widest, x)
    for t, h in edges:
        if t in out.nodes and h in out.nodes:
            x0, y0, _, h0 = out.nodes[t]
            x1, y1, _, h1 = out.nodes[h]
            ya, yb = y0 - h0 / 2, y1 + h1 / 2 + 6
            out.edges.append((t, h, [x0, x1], [ya, yb], [x1 - 4, x1, x1 + 4], [yb, yb - 6, yb]))
    out.width, out.height = widest, (n_ranks + 1) * row_h
    return out
