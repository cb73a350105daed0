"""The store, the layout and the grouping, without a browser."""
from __future__ import annotations

import pytest

from tapeviz import events as ev
from tapeviz.ui.graph import dot_layout as L
from tapeviz.ui.graph.group import collapse
from tapeviz.ui.store.store import Store
from tapeviz.ui.store.summaries import summary_text

from conftest import run_events, sample_program


@pytest.fixture(scope="module")
def store():
    s = Store()
    s.ingest(run_events(sample_program))
    return s


def test_graph_has_every_kind_and_cuts(store):
    tid = store.latest_tape()
    g = store.graph(tid)
    kinds = {n["kind"] for n in g["nodes"]}
    assert {"op", "output", "trainable", "nontrainable", "stop_gradient", "skipped", "escaped"} <= kinds
    by_key = {n["key"]: n for n in g["nodes"]}
    cut_heads = {by_key[e["head"]]["kind"] for e in g["edges"] if e["cut"]}
    assert {"stop_gradient", "escaped", "skipped"} <= cut_heads
    ok = [e for e in g["edges"] if not e["cut"]]
    assert ok and all(by_key[e["head"]]["kind"] in ("op", "output") for e in ok)
    assert store.graph(tid) is g            # cached until the tape changes


def test_variables_calls_and_steps(store):
    rows = {r["name"]: r for r in store.variables_rows()}
    assert rows["x:0"]["trainable"] == "yes" and rows["x:0"]["norm"] == pytest.approx(6.0)
    assert rows["x:0"]["verdict"] == "value" and rows["c:0"]["verdict"] == "none"
    call = store.calls[store.calls_for(store.latest_tape())[-1]]
    assert call["steps"] and call["results"]
    assert any(ig["accumulated"] for s in call["steps"] for ig in s["input_grads"])  # x * x


def test_bounded_memory():
    s = Store(max_tapes=3, max_calls=2)

    def many():
        import tapeviz as tv
        x = tv.Variable(1.0)
        for _ in range(10):
            with tv.GradientTape() as t:
                y = x * x
            t.gradient(y, x)
    s.ingest(run_events(many))
    assert len(s.tapes) == 3 and len(s.calls) == 2
    assert len(s.ops) <= 3 * 2
    assert len(s.history) == 10          # norms of every call stay for the chart


def test_malformed_and_unknown_events_do_not_stop_ingest():
    s = Store()
    s.ingest([{"kind": "nonsense"}, {"kind": "op_recorded", "tapes": "garbage"},
              {"kind": "tape_opened", "tape": 7}, {"no": "kind"}])
    assert s.tape_ids() == [7] and s.version == 1


def test_summary_text():
    assert summary_text(None) == "None"
    assert summary_text(ev.summarize([1.0, 2.0])) == "[1, 2]"
    big = summary_text(ev.summarize([float("nan")] + [1.0] * 99))
    assert "nan=1" in big and "max=1" in big


def test_layout_structure_with_dot_and_fallback(monkeypatch):
    nodes = [(k, 1.0, 0.4, "box", None) for k in "abcd"]
    edges = [("a", "b"), ("b", "c"), ("a", "c"), ("c", "d")]
    for lay in (L.layout(nodes, edges), L.fallback_layout(nodes, edges)):
        ys = {k: v[1] for k, v in lay.nodes.items()}
        assert ys["a"] > ys["b"] > ys["c"] > ys["d"]        # top to bottom, by rank
        assert len(lay.edges) == 4 and all(len(e[2]) >= 2 for e in lay.edges)
    monkeypatch.setenv("TAPEVIZ_DOT", "/nonexistent/dot")
    lay = L.layout(nodes + [("e", 1.0, 0.4, "box", None)], edges)
    assert lay.engine == "fallback" and lay.error and set(lay.nodes) == set("abcde")


def test_layout_names_never_enter_dot():
    src, keys, _ = L.to_dot([('x"]; evil', 1.0, 0.4, "box", None)], [])
    assert "evil" not in src and keys == ['x"]; evil']


def test_big_graph_collapses_by_scope():
    nodes = [{"key": f"op{i}", "kind": "op", "shape": "box", "label": "Mul", "name": f"n{i}",
              "op": "Mul", "scope": f"layer{i // 100}", "cluster": None} for i in range(500)]
    edges = [{"tail": f"op{i}", "head": f"op{i + 1}", "cut": False, "label": ""} for i in range(499)]
    g = collapse({"nodes": nodes, "edges": edges, "clusters": {}}, limit=300)
    assert len(g["nodes"]) == 5 and len(g["edges"]) == 4
    g2 = collapse({"nodes": nodes, "edges": edges, "clusters": {}}, expanded={"scope:layer0"},
                  limit=300)
    assert len(g2["nodes"]) == 104
    assert sorted(g2["units"]) == ["scope:layer0"] and len(g2["units"]["scope:layer0"]) == 100


def test_a_finished_recording_is_ingested_once_for_every_tab(tmp_path):
    """`tapeviz serve run.tvz` (and a folder's picker) give every browser tab the same store:
    the second tab parses and ingests nothing. The shared store shows what a store of its own
    would, and a file that changed is read again."""
    from tapeviz.recording import record
    from tapeviz.ui.serve.app import open_dashboard
    from tapeviz.ui.store.source import load_events, store_for
    path = tmp_path / "run.tvz"
    with record(str(path), full=True):
        sample_program()
    shared = store_for(path)
    assert store_for(str(path)) is shared
    tabs = [open_dashboard(str(path), False, "run") for _ in range(2)]
    assert tabs[0].store is shared and tabs[1].store is shared
    own = Store()
    own.ingest(load_events(path))
    graphs = [s.graph(s.latest_tape()) for s in (shared, own)]
    assert graphs[0]["nodes"] and \
        [n["key"] for n in graphs[0]["nodes"]] == [n["key"] for n in graphs[1]["nodes"]]
    assert tabs[0].plot.nodes.data["key"] == tabs[1].plot.nodes.data["key"] != []
    path.write_text(path.read_text() + "\n")        # a changed file is read again
    assert store_for(path) is not shared


def test_unscoped_loop_collapses_on_whole_iterations():
    """Ops outside any scope that repeat (a loop body) are cut at repetition boundaries and
    named by iteration; a sequence that does not repeat is cut in plain blocks of 50."""
    from tapeviz.ui.graph.group import repeat_period
    body = ["Mul", "AddV2", "Sin"]
    nodes = [{"key": f"op{i}", "kind": "op", "shape": "box", "label": body[i % 3], "name": "",
              "op": body[i % 3], "scope": "", "cluster": None} for i in range(600)]
    edges = [{"tail": f"op{i}", "head": f"op{i + 1}", "cut": False, "label": ""} for i in range(599)]
    g = collapse({"nodes": nodes, "edges": edges, "clusters": {}}, limit=100)
    groups = [n for n in g["nodes"] if n["key"].startswith("grp:")]
    assert all(n["members"] == 48 for n in groups[:-1])           # 16 iterations of 3 ops
    assert groups[0]["name"] == "loop 1–16: Mul, AddV2, Sin"
    assert groups[1]["name"] == "loop 17–32: Mul, AddV2, Sin"
    assert sum(n["members"] for n in groups) == 600
    assert repeat_period(["a", "b", "c", "d"] * 2) is None          # twice is not a loop
    assert repeat_period(["a", "b"] * 20 + ["x"]) == 2                # a tail off the loop is fine
    import random
    pick = random.Random(0).choice
    mixed = [dict(n, op=pick(["Mul", "AddV2", "Sin", "Exp", "MatMul", "Relu"])) for n in nodes]
    g2 = collapse({"nodes": mixed, "edges": edges, "clusters": {}}, limit=100)
    sizes = [n["members"] for n in g2["nodes"] if n["key"].startswith("grp:")]
    assert sizes == [50] * 12


def test_watched_by_names_the_last_three_tapes_and_counts_the_earlier_ones():
    def loop(steps):
        def run():
            import tapeviz as tv
            x = tv.Variable(1.0, name="w")
            for _ in range(steps):
                with tv.GradientTape() as t:
                    y = x * x
                t.gradient(y, x)
        return run
    s = Store()
    s.ingest(run_events(loop(25)))        # more than the 20 tapes a variable remembers
    (row,) = [r for r in s.variables_rows() if r["name"] == "w:0"]
    tapes = sorted(s.tapes)[-3:]
    assert row["watched by"] == (", ".join(f"tape {t} (auto)" for t in tapes)
                                 + " and 22 earlier")
    few = Store()
    few.ingest(run_events(loop(2)))
    (row,) = [r for r in few.variables_rows() if r["name"] == "w:0"]
    assert "earlier" not in row["watched by"] and row["watched by"].count("tape ") == 2


def test_an_ellipse_holds_its_label():
    # the label's box at the size it is drawn (one line high) lies inside the ellipse: its
    # corner (a, b) satisfies (a / A)^2 + (b / B)^2 <= 1 for the half-axes A, B; a box of the
    # same label holds it too (tests/ui/test_graph_fill.py measures the drawn labels)
    from tapeviz.ui.graph import fonts
    for label in ("x:0", "dense_1/kernel:0", "sequential/dense_12/bias:0", "WWW", "Mul"):
        w, h = L.node_size(label, shape="ellipse")
        bw, bh = L.node_size(label)
        a = fonts.text_width(label, fonts.NODE_FONT) / L.POINTS_PER_INCH / 2
        b = fonts.NODE_FONT * 1.2 / L.POINTS_PER_INCH / 2
        assert (a / (w / 2)) ** 2 + (b / (h / 2)) ** 2 <= 1, label
        assert bw >= 2 * a and bh >= 2 * b and h > bh, label


def _calls(verdicts):
    """Events of one tape and one finished gradient call per verdict."""
    out, seq = [], 0
    for cid, verdict in enumerate(verdicts, start=1):
        out += [{"kind": "tape_opened", "tape": cid, "seq": seq},
                {"kind": "gradient_started", "call": cid, "tape": cid, "seq": seq + 1},
                {"kind": "gradient_finished", "call": cid, "tape": cid, "seq": seq + 2,
                 "results": [{"tensor": {"id": 1, "name": "w:0"}, "verdict": verdict}]},
                {"kind": "tape_closed", "tape": cid, "seq": seq + 3}]
        seq += 4
    return out


def test_the_calls_where_gradients_turn_nonfinite_outlive_the_limits():
    # finite, NaN from call 3 on, finite again at 6, Inf from 8 on: 3 and 8 are where the
    # gradients turned, 6 where the verdict changed back (marked by hand); with room for 4
    # tapes (the newest one always kept) those three stay and the repeats go first
    verdicts = ["value", "value", "nan", "nan", "nan", "value", "value", "inf"] + ["inf"] * 12
    s = Store(max_tapes=4, max_calls=5)
    s.ingest(_calls(verdicts))
    assert s.pinned_calls == {3, 8}
    assert list(s.tapes) == [3, 6, 8, 20] and list(s.calls) == [3, 6, 8, 20]


def test_pinned_calls_never_stop_eviction():
    s = Store(max_tapes=1, max_calls=1)
    s.ingest(_calls(["nan", "value", "nan", "value"]))
    assert len(s.tapes) == 1 and len(s.calls) == 1


def _untaped_run(steps):
    """Events of a loop whose regulariser runs before its tape opens, on a trainable
    variable; and an optimizer step (`v.assign_sub(0.1 * g)`) after each gradient."""
    import tapeviz as tv
    from tapeviz.events.capture import capture
    w = tv.Variable([1.0, 2.0], name="w")
    with capture() as events:
        for _ in range(steps):
            reg = 0.1 * tv.reduce_sum(tv.square(w))
            with tv.GradientTape() as tape:
                loss = tv.reduce_sum(w * 3.0) + reg
            g = tape.gradient(loss, w)
            w.assign_sub(0.1 * g)
    return events


def test_untaped_ops_are_kept_within_their_bound_and_leave_with_their_tapes():
    """The store keeps at most limits.UNTAPED_KEPT outputs of untaped ops, only those on a
    trainable variable (3 a step here: not the optimizer's `0.1 * g`), and a ghost op leaves
    store.ops when the last kept tape that draws it goes."""
    from tapeviz.ui.store.limits import UNTAPED_KEPT
    events = _untaped_run(200)
    s = Store(max_tapes=5)
    s.ingest(events)
    assert len(s.untaped) == UNTAPED_KEPT
    assert {op["op"] for op in s.untaped.values()} == {"Square", "Sum", "Mul"}
    drawn = set()
    for tid in s.tapes:
        tape = s.tapes[tid]
        assert sorted(s.ops[g["node"]]["op"] for g in tape["ghosts"]
                      if g["type"] == "skipped") == ["Mul", "Square", "Sum"]
        drawn |= tape["ghost_nodes"] | set(tape["nodes"])
    # only the kept tapes' ops (recorded or drawn as ghosts) are in the table
    assert set(s.ops) == drawn and len(s.ops) == 5 * (3 + 3)


def test_a_target_computed_after_the_tape_is_drawn_and_an_evaluation_is_not():
    """By hand: the forward pass run again after the with block (`x @ w - 1`, squared,
    averaged) and differentiated is drawn on the tape as four ghosts; a held-out evaluation
    after the last step (`reduce_mean(x_test @ w)`, which no gradient reads) draws none, as
    the gallery's digits lesson evaluates after training."""
    import numpy as np

    import tapeviz as tv
    from tapeviz.events.capture import capture
    x = tv.constant(np.ones((4, 3), np.float32))
    x_test = tv.constant(np.full((2, 3), 2.0, np.float32))
    w = tv.Variable(np.ones((3, 1), np.float32), name="w")
    with capture() as events:
        with tv.GradientTape() as tape:
            x @ w
        loss = tv.reduce_mean(tv.square(x @ w - 1.0))
        assert tape.gradient(loss, w) is None
        with tv.GradientTape() as tape:
            pred = x @ w
        tape.gradient(pred, w)
        tv.reduce_mean(x_test @ w)
    s = Store()
    s.ingest(events)
    first, last = (s.graph(t) for t in s.tapes)
    ghosts = lambda g: [(n["op"], n["skip_reason"]) for n in g["nodes"] if n["kind"] == "skipped"]  # noqa: E731
    assert ghosts(first) == [("MatMul", "outside_tape"), ("Sub", "outside_tape"),
                             ("Square", "outside_tape"), ("Mean", "outside_tape")]
    assert ghosts(last) == []


def test_an_l2_term_over_fifty_variables_before_the_tape_is_drawn_whole():
    """By hand: `reg = sum of 0.01 * reduce_sum(square(w))` over 50 variables, computed before
    the tape, is 50 Squares, 50 Sums, 50 Muls and 49 AddV2s, all drawn as ghosts, and every
    variable is joined to the graph (each feeds its Square)."""
    import numpy as np

    import tapeviz as tv
    from tapeviz.events.capture import capture
    ws = [tv.Variable(np.ones(3, np.float32), name=f"w{i}") for i in range(50)]
    with capture() as events:
        reg = 0.01 * tv.reduce_sum(tv.square(ws[0]))
        for w in ws[1:]:
            reg = reg + 0.01 * tv.reduce_sum(tv.square(w))
        with tv.GradientTape() as tape:
            loss = tv.reduce_sum(ws[0] * 2.0) + reg
        tape.gradient(loss, ws)
    s = Store()
    s.ingest(events)
    graph = s.graph(next(iter(s.tapes)))
    ghosts = [n["op"] for n in graph["nodes"] if n["kind"] == "skipped"]
    assert (ghosts.count("Square"), ghosts.count("Sum"), ghosts.count("Mul"),
            ghosts.count("AddV2"), len(ghosts)) == (50, 50, 50, 49, 199)
    joined = {e["tail"] for e in graph["edges"]}
    names = {n["key"]: n["name"] for n in graph["nodes"]}
    assert {names[k] for k in joined if names[k].startswith("w")} >= {f"w{i}:0" for i in range(50)}


def test_a_periodic_call_of_a_flight_recording_draws_the_regulariser_before_it(tmp_path):
    """Recorded with the flight policy (the first call, then every 5th, no anomaly): by hand,
    calls 1, 5 and 10 are kept, and each of their tapes draws the regulariser computed before
    it opened (Square, Sum, Mul), though the call before 5 and 10 was not kept: its end, where
    the regulariser ran, is written with them."""
    import tapeviz as tv
    from tapeviz.ui.store.source import store_for
    w = tv.Variable([1.0, 2.0], name="w")
    path = str(tmp_path / "run.tvz")
    with tv.record(path, flight=dict(first=1, every=5, before=2)):
        for _ in range(12):
            reg = 0.1 * tv.reduce_sum(tv.square(w))
            with tv.GradientTape() as tape:
                loss = tv.reduce_sum(w * 3.0) + reg
            w.assign_sub(0.01 * tape.gradient(loss, w))
    s = store_for(path)
    assert len(s.tapes) == 3
    for tid in s.tapes:
        ghosts = sorted(n["op"] for n in s.graph(tid)["nodes"] if n["kind"] == "skipped")
        assert ghosts == ["Mul", "Square", "Sum"], tid


def test_labels_made_by_ones_like_are_not_drawn_as_a_cut_path():
    # a GAN's loss (TensorFlow's DCGAN tutorial): labels from tf.ones_like(output) depend on
    # the output's shape only, so no gradient path runs through them to be cut; an argmax
    # of the same output is a value path that is cut (by hand: its gradient is None)
    def gan_loss():
        import tapeviz as tv
        w = tv.Variable([[0.5], [-0.25]], name="w")
        x = tv.constant([[1.0, 2.0], [3.0, 4.0]])
        with tv.GradientTape() as tape:
            out = x @ w
            loss = tv.keras.losses.BinaryCrossentropy(from_logits=True)(
                tv.ones_like(out), out) + tv.cast(tv.argmax(out[:, 0]), tv.float32)
        tape.gradient(loss, w)
    got = []
    with ev.subscribe(got.append, replay_definitions=True):   # (ops used before, too)
        gan_loss()
    s = Store()
    s.ingest(got)
    g = s.graph(s.latest_tape())
    by_key = {n["key"]: n for n in g["nodes"]}
    into = {}
    for e in g["edges"]:
        into.setdefault(by_key[e["head"]].get("op"), []).append(e["cut"])
    assert into["OnesLike"] == [False], into
    assert into["ArgMax"] == [True], into
