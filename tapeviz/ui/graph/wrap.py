"""Fill the plot: a graph much taller than wide (a chain of layers, an unrolled loop) is cut
into bands of ranks laid out side by side, as text wraps into columns.

``dot`` draws a tape's ops top to bottom, so a six-layer network is one column twenty ops
high: fitted into a landscape plot it takes a quarter of its width, too small to read. From
the one-column layout, :func:`bands` picks how many columns fill a plot of
:data:`PLOT_ASPECT` best, and where to cut (between ranks, where the fewest name scopes are
cut in two). :func:`join` puts the columns' own layouts side by side, tops aligned, and draws
the edges between columns along the gaps: out of the tail's column on its right, along a
lane above the columns, into the head from above (or from its left, when nodes sit above it).
"""
from __future__ import annotations

from . import dot_layout as _layout

#: width / height of the graph's plot: 680 x 565 px in the dashboard at 1400 px wide
#: (the figure is 600 px high; the legend and the side tabs take the rest of the width)
PLOT_ASPECT = 1.25
GAP = 32.0             # points between columns (the edges between them run in the gap)
LANE = 7.0             # points between the lanes above the columns (one per edge's tail)
GUTTER = 5.0           # points between the lanes in a gap between columns
MAX_COLUMNS = 16
MAX_NODES = 400        # larger graphs keep one column (their labels are hidden at any fit)
GAIN = 1.15            # columns only if they draw the graph at least this much larger
CLUSTER_MARGIN = 14.0  # points around a cluster's nodes (layout.to_dot), its label band: 20


def bands(lay: _layout.Layout, keys, owner=None) -> list | None:
    """The node keys of each column, left to right, or None when one column is best.
    ``owner`` maps a node that must go where another goes (an attached constant) to it."""
    owner = owner or {}
    keys = [k for k in keys if k in lay.nodes]
    if len(keys) > MAX_NODES or len(keys) < 8:
        return None

    def row(k):                   # the rank a node is on (its centre's height: dot aligns them)
        return round(lay.nodes[owner[k] if owner.get(k) in lay.nodes else k][1], 1)
    rows = sorted({row(k) for k in keys}, reverse=True)
    if len(rows) < 4:
        return None
    # a column's margins: those of the clusters around its nodes (the layout's width is no
    # guide: edges fanning out from a variable read by every step can make it twice as wide)
    depth = max(sum(1 for _, x0, y0, x1, y1 in lay.clusters if x0 < x < x1 and y0 < y < y1)
                for x, y, _, _ in lay.nodes.values())
    extra_w, extra_h = 2 * CLUSTER_MARGIN * (depth + 1), (2 * CLUSTER_MARGIN + 20) * (depth + 1)
    by_row: dict = {}
    for k in keys:
        by_row.setdefault(row(k), []).append(k)

    def size(first, last):        # rows[first:last] as one column: its estimated width, height
        members = [k for r in rows[first:last] for k in by_row[r]]
        left = min(lay.nodes[k][0] - lay.nodes[k][2] / 2 for k in members)
        right = max(lay.nodes[k][0] + lay.nodes[k][2] / 2 for k in members)
        top = max(lay.nodes[k][1] + lay.nodes[k][3] / 2 for k in members)
        bottom = min(lay.nodes[k][1] - lay.nodes[k][3] / 2 for k in members)
        return right - left + extra_w, top - bottom + extra_h

    def scale(cuts):              # how large the graph is drawn in the plot, up to a constant
        edges = [0, *cuts, len(rows)]
        sizes = [size(a, b) for a, b in zip(edges, edges[1:])]
        width = sum(w for w, _ in sizes) + GAP * len(cuts)
        height = max(h for _, h in sizes) + (2 * GAP if cuts else 0)
        return min(PLOT_ASPECT / width, 1.0 / height)

    straddled = [sum(1 for _, _, y0, _, y1 in lay.clusters if y0 < (a + b) / 2 < y1)
                 for a, b in zip(rows, rows[1:])]
    best, best_scale = None, min(PLOT_ASPECT / max(lay.width, 1.0), 1.0 / max(lay.height, 1.0))
    for n in range(2, min(MAX_COLUMNS, len(rows) // 2) + 1):
        cuts = _cuts(rows, n, straddled)
        if cuts and scale(cuts) > best_scale * (GAIN if best is None else 1.0):
            best, best_scale = cuts, scale(cuts)
    if best is None:
        return None
    edges = [0, *best, len(rows)]
    return [[k for r in rows[a:b] for k in by_row[r]] for a, b in zip(edges, edges[1:])]


def _cuts(rows, n, straddled) -> list:
    """Where to cut ``rows`` (the ranks' heights, top first) into ``n`` columns of about equal
    height: near each even split, between the ranks that cut the fewest clusters."""
    top, bottom = rows[0], rows[-1]
    step = (top - bottom) / n
    cuts = []
    for i in range(1, n):
        ideal = top - i * step
        lo = cuts[-1] + 1 if cuts else 1
        window = [j for j in range(lo, len(rows)) if abs(rows[j] - ideal) <= step / 3]
        if not window:
            window = [min(range(lo, len(rows)), key=lambda j: abs(rows[j] - ideal), default=None)]
            if window[0] is None:
                return []
        cuts.append(min(window, key=lambda j: (straddled[j - 1], abs(rows[j] - ideal))))
    return cuts if len(set(cuts)) == len(cuts) and cuts[-1] < len(rows) else []


def join(pieces: list, edges: list) -> _layout.Layout:
    """Side-by-side layout of ``pieces`` (one per column) and routes for ``edges`` (tail,
    head) that join two columns."""
    top = max(p.height for p in pieces)
    out = _layout.Layout(engine=pieces[0].engine, error=next((p.error for p in pieces if p.error), ""))
    column, spans = {}, []
    x = 0.0
    for i, p in enumerate(pieces):
        dx, dy = x, top - p.height
        out.nodes.update({k: (nx + dx, ny + dy, w, h) for k, (nx, ny, w, h) in p.nodes.items()})
        out.clusters.extend((c, x0 + dx, y0 + dy, x1 + dx, y1 + dy) for c, x0, y0, x1, y1 in p.clusters)
        out.edges.extend((t, hd, [v + dx for v in xs], [v + dy for v in ys],
                          [v + dx for v in ax], [v + dy for v in ay])
                         for t, hd, xs, ys, ax, ay in p.edges)
        column.update({k: i for k in p.nodes})
        spans.append((x, x + p.width))
        x += p.width + GAP
    lanes: dict = {}        # one lane per tail: the edges of one tensor run together
    for t, h in edges:
        if t not in column or h not in column or column[t] == column[h]:
            continue
        lane = lanes.setdefault(t, len(lanes))
        out.edges.append(_route(out.nodes, column, spans, top, t, h, lane))
    out.width = x - GAP
    out.height = top + LANE * (2 + len(lanes))
    return out


def _route(nodes, column, spans, top, t, h, lane):
    """An edge from ``t`` to ``h`` in another column, along the gaps (see the module doc)."""
    tx, ty, tw, th = nodes[t]
    hx, hy, hw, hh = nodes[h]
    ct, ch = column[t], column[h]
    # out of a column near its right side, into the next near that one's left: in each gap,
    # two lanes for each (edges of alternate tails run apart)
    gap_x = spans[ct][1] + GUTTER * (1 + lane % 2)
    above = top + LANE * (2 + lane)
    xs, ys = [tx + tw / 2, gap_x, gap_x], [ty, ty, above]
    # the head's top, if no other node of its column is above it; its left side otherwise
    blocked = any(column[k] == ch and k != h and abs(x - hx) < (w + hw) / 2 and y > hy
                  for k, (x, y, w, _) in nodes.items())
    if blocked:
        side = spans[ch][0] - GUTTER * (1 + lane % 2)
        xs += [side, side, hx - hw / 2]
        ys += [above, hy, hy]
    else:
        xs += [hx, hx]
        ys += [above, hy + hh / 2]
    ax, ay = _layout.arrowhead(xs[-2], ys[-2], xs[-1], ys[-1])
    return (t, h, xs, ys, ax, ay)
