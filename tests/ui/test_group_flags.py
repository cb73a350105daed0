"""A graph too large to draw open is drawn with groups closed: a problem the graph marks on an
op (a dead ReLU, the first NaN) stays marked on the closed group that holds it, and the
group's tooltip names the op."""
from __future__ import annotations

from conftest import record_program

# ten blocks of (MatMul, AddV2, Relu); the bias of the seventh kills its ReLU (and every one
# after it gets an all-zero input and stays at zero too)
DEAD_IN_A_LOOP = """\
import numpy as np
import tapeviz as tv

x = tv.constant(np.ones((4, 3), np.float32))
ws = [tv.Variable(np.full((3, 3), 0.5, np.float32), name=f"w{i}") for i in range(10)]
bs = [tv.Variable(np.full(3, -100.0 if i == 6 else 0.0, np.float32), name=f"b{i}")
      for i in range(10)]
with tv.GradientTape() as tape:
    h = x
    for w, b in zip(ws, bs):
        h = tv.nn.relu(h @ w + b)
    loss = tv.reduce_sum(h)
grads = tape.gradient(loss, ws + bs)
"""


def test_a_closed_group_keeps_the_mark_of_the_op_inside(tmp_path):
    from tapeviz.ui.graph.group import collapse
    from tapeviz.ui.store.source import load_events
    from tapeviz.ui.store.store import Store
    store = Store()
    store.ingest(load_events(str(record_program(tmp_path, "dead", DEAD_IN_A_LOOP))))
    (tid,) = store.tapes
    graph = store.graph(tid)
    relus = [n for n in graph["nodes"] if n.get("op") == "Relu"]
    dead = [n for n in relus if n.get("flag") == "dead_relu"]
    assert [relus.index(n) for n in dead] == [6, 7, 8, 9]          # the 7th on, open
    shown = collapse(graph, limit=10)                               # closed: blocks of ops
    assert shown.get("collapsed")
    for n in relus:
        group = next(g for g in shown["nodes"] if g["key"] == "grp:" + shown["gmap"][n["key"]])
        if n in dead:
            assert group.get("flag") == "dead_relu", group
            if n is dead[0]:                           # where it starts
                assert n["name"] in group["summary"], group["summary"]
    flagged = {g["key"] for g in shown["nodes"] if g.get("flag")}
    assert flagged == {"grp:" + shown["gmap"][n["key"]] for n in dead}
