"""Layout in pieces (tapeviz.ui.graph.piecewise_layout): constants drawn beside their op, expanded groups laid
out on their own and cached. Checked on geometry: nothing overlaps, every node of a group is
inside its box, edges end on the node they point at, and a repeated expansion runs no ``dot``."""
from __future__ import annotations

import subprocess

import pytest

from tapeviz.ui.graph import dot_layout as layout, piecewise_layout as compose
from tapeviz.ui.graph.group import collapse


def _node(key, kind="op", shape="box", scope="", shapes="()", label=None):
    return {"key": key, "kind": kind, "shape": shape, "label": label or key, "scope": scope,
            "cluster": f"|scope:{scope}" if scope and shape == "box" else None, "shapes": shapes,
            "op": "Mul", "name": key}


def _chain(blocks, per_block, constants=True):
    """``blocks`` name scopes of ``per_block`` ops, each op with a scalar literal input."""
    nodes, edges, clusters = [_node("x", kind="trainable", shape="ellipse")], [], {}
    prev = "x"
    for b in range(blocks):
        clusters[f"|scope:b{b}"] = (f"b{b}", None)
        for i in range(per_block):
            key = f"op{b}_{i}"
            nodes.append(_node(key, scope=f"b{b}"))
            edges.append({"tail": prev, "head": key, "cut": False, "label": ""})
            if constants:
                nodes.append(_node(f"c{b}_{i}", kind="constant", shape="ellipse"))
                edges.append({"tail": f"c{b}_{i}", "head": key, "cut": False, "label": "()"})
            prev = key
    return {"nodes": nodes, "edges": edges, "clusters": clusters}


def _box(lay, key):
    x, y, w, h = lay.nodes[key]
    return x - w / 2, y - h / 2, x + w / 2, y + h / 2


def _overlap(a, b, eps=0.5):
    return a[0] < b[2] - eps and b[0] < a[2] - eps and a[1] < b[3] - eps and b[1] < a[3] - eps


def _assert_no_overlap(lay):
    boxes = sorted((_box(lay, k), k) for k in lay.nodes)
    for i, (a, ka) in enumerate(boxes):
        for b, kb in boxes[i + 1:]:
            if b[0] >= a[2]:
                break
            assert not _overlap(a, b), f"{ka} overlaps {kb}"


def _ends_on(lay, edge_tail, edge_head):
    """The drawn edge ends on the head's border and starts on the tail's."""
    for t, h, xs, ys, ax, ay in lay.edges:
        if (t, h) == (edge_tail, edge_head):
            hx0, hy0, hx1, hy1 = _box(lay, h)
            cx, cy = lay.nodes[h][:2]
            tip = min(zip(ax, ay), key=lambda p: (p[0] - cx) ** 2 + (p[1] - cy) ** 2) if ax \
                else (xs[-1], ys[-1])
            assert hx0 - 1 <= tip[0] <= hx1 + 1 and hy0 - 9 <= tip[1] <= hy1 + 9, (tip, (hx0, hy0, hx1, hy1))
            tx0, ty0, tx1, ty1 = _box(lay, t)
            assert tx0 - 1 <= xs[0] <= tx1 + 1 and ty0 - 9 <= ys[0] <= ty1 + 9
            return
    raise AssertionError(f"edge {edge_tail}->{edge_head} not drawn")


@pytest.fixture
def dot_runs(monkeypatch):
    """Counts the layout program's runs."""
    runs = []
    real = subprocess.run

    def counting(args, *a, **kw):
        runs.append(kw.get("input", ""))        # the DOT source
        return real(args, *a, **kw)
    monkeypatch.setattr(layout.subprocess, "run", counting)
    layout._CACHE.clear()
    return runs


def test_scalar_constants_sit_beside_their_op_and_never_reach_dot(dot_runs):
    graph = _chain(1, 12)
    graph["nodes"].append(_node("v", kind="constant", shape="ellipse", shapes="(3,)"))
    graph["edges"].append({"tail": "v", "head": "op0_5", "cut": False, "label": "(3,)"})
    assert set(compose.attachable(graph)) == {f"c0_{i}" for i in range(12)}   # not the vector
    lay = compose.layout_graph(graph)
    # (the chain is also laid out again in columns, see test_graph_fill.py): no run sees a
    # constant, only the op boxes and the two ellipses x and v
    assert dot_runs and all(src.count("shape=ellipse") <= 2 and src.count("shape=box") <= 12
                            for src in dot_runs)
    assert len(lay.nodes) == len(graph["nodes"])
    _assert_no_overlap(lay)
    for i in range(12):
        cx, cy, cw, _ = lay.nodes[f"c0_{i}"]
        ox, oy, ow, oh = lay.nodes[f"op0_{i}"]
        assert cx + cw / 2 < ox - ow / 2 and abs(cy - oy) < oh       # left of its op, level
        _ends_on(lay, f"c0_{i}", f"op0_{i}")
    for i in range(1, 12):
        _ends_on(lay, f"op0_{i - 1}", f"op0_{i}")
    _ends_on(lay, "v", "op0_5")
    assert "v" in lay.nodes and lay.nodes["v"][1] > lay.nodes["op0_5"][1]   # a rank above


def test_expanded_group_is_laid_out_alone_and_cached(dot_runs):
    graph = _chain(6, 40)
    shown = collapse(graph, {"scope:b2"}, limit=100)
    assert set(shown["units"]) == {"scope:b2"}
    lay = compose.layout_graph(shown, shown["units"])
    assert len(dot_runs) == 2                      # the group, then the top level around it
    _assert_no_overlap(lay)
    cluster = next(c for c in lay.clusters if c[0] == "|scope:b2")
    for key in shown["units"]["scope:b2"]:
        x0, y0, x1, y1 = _box(lay, key)
        assert cluster[1] <= x0 and x1 <= cluster[3] and cluster[2] <= y0 and y1 <= cluster[4], key
    for other in ("grp:scope:b1", "grp:scope:b3"):
        assert not _overlap(_box(lay, other), cluster[1:])
    _ends_on(lay, "grp:scope:b1", "op2_0")         # into the group: ends on the first op
    _ends_on(lay, "op2_39", "grp:scope:b3")        # and out of it from the last
    # another group: its own piece and a new top level; the first piece comes from the cache
    shown2 = collapse(graph, {"scope:b2", "scope:b4"}, limit=100)
    compose.layout_graph(shown2, shown2["units"])
    assert len(dot_runs) == 4
    # collapse again, then re-expand the first: all cached
    compose.layout_graph(collapse(graph, (), limit=100))
    n = len(dot_runs)
    again = collapse(graph, {"scope:b2"}, limit=100)
    assert compose.layout_graph(again, again["units"]).nodes == lay.nodes
    assert len(dot_runs) == n


def test_block_groups_get_a_labelled_box():
    nodes = [_node("x", kind="trainable", shape="ellipse")]
    edges = []
    prev = "x"
    for i in range(300):
        nodes.append(_node(f"op{i}"))
        edges.append({"tail": prev, "head": f"op{i}", "cut": False, "label": ""})
        prev = f"op{i}"
    shown = collapse({"nodes": nodes, "edges": edges, "clusters": {}}, {"block:2"}, limit=100)
    lay = compose.layout_graph(shown, shown["units"])
    box = next(c for c in lay.clusters if c[0] == "unit:block:2")
    assert shown["clusters"]["unit:block:2"][0] == "block 2 (expanded, 50 ops)"
    for i in range(100, 150):
        x0, y0, x1, y1 = _box(lay, f"op{i}")
        assert box[1] <= x0 and x1 <= box[3] and box[2] <= y0 and y1 <= box[4]
    _assert_no_overlap(lay)


def test_cached_only_never_runs_dot(dot_runs):
    graph = _chain(1, 5)
    with pytest.raises(compose.NotCached):
        compose.layout_graph(graph, cached_only=True)
    assert dot_runs == []
    first = compose.layout_graph(graph)
    assert compose.layout_graph(graph, cached_only=True).nodes == first.nodes


def test_a_variable_sits_beside_its_only_reader_and_above_many():
    # a 30-op chain (laid out in columns); "v" is read by its first op only, "w" by its first
    # and its last: v on op0's rank, w a rank above it, also when the columns put op29 apart
    graph = _chain(1, 30, constants=False)
    graph["nodes"] += [_node("v", kind="trainable", shape="ellipse"),
                       _node("w", kind="trainable", shape="ellipse")]
    for n in graph["nodes"][-2:]:           # in the cluster of their first reader (as built)
        n["cluster"] = "|scope:b0"
    graph["edges"] += [{"tail": "v", "head": "op0_0", "cut": False, "label": ""},
                       {"tail": "w", "head": "op0_0", "cut": False, "label": ""},
                       {"tail": "w", "head": "op0_29", "cut": False, "label": ""}]
    lay = compose.layout_graph(graph)
    assert lay.nodes["op0_29"][0] > lay.nodes["op0_0"][0] + lay.nodes["op0_0"][2]   # columns
    assert lay.nodes["v"][1] == lay.nodes["op0_0"][1]
    assert lay.nodes["w"][1] > lay.nodes["op0_0"][1] + lay.nodes["op0_0"][3] / 2
    _assert_no_overlap(lay)
    _ends_on(lay, "w", "op0_29")
