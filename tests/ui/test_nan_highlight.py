"""*Show on graph* on a NaN card highlights the source's own route to the op where the
non-finite value began, checked on the graph's data (the highlighted node keys), against a
route derived by hand from the recorded ops: the corpus script
`tests/broken_runs/warmup_that_never_stops.py`, whose `h1 @ w3` overflows at gradient call
72 on a line that also holds `h2 @ wd` and three additions."""
from __future__ import annotations

import pytest

import tapeviz as tv

from conftest import WARMUP as SCRIPT

NAN_CALL = 72     # by hand: the script's 72nd gradient call is the first with a NaN


@pytest.fixture(scope="module")
def run(warmup_recording):
    """The recording, the ops of the NaN call's tape, and that call's (call, tape) ids: the
    recording is made in the test process, whose ids go on from earlier tests' tapes."""
    events = list(tv.load_recording(str(warmup_recording)))
    started = [e for e in events if e.kind == "gradient_started"]
    nan = started[NAN_CALL - 1]
    ops = [e for e in events if e.kind == "op_recorded" and nan.tape in e.tapes]
    return warmup_recording, ops, nan


def _line(code: str) -> int:
    return next(i for i, text in enumerate(SCRIPT.read_text().splitlines(), 1) if code in text)


def _route(ops, source, own_line):
    """By hand: the source's layer (the three ops at its line), then at the line of `pred`:
    for the main layer only `h1 @ w3` (the op that overflows); for the side layer `h1 @ w3`,
    `+ b3`, `h2 @ wd`, and the `+` that joins the two branches."""
    pred = _line("pred = (h1 @ w3")
    keys = {f"op{e.node}" for e in ops if e.site["line"] == own_line}
    at_pred = [e for e in ops if e.site["line"] == pred]
    reads = {e.node: {t["name"] for t in e.inputs} for e in at_pred}
    made = {e.node: e.outputs[0]["name"] for e in at_pred}
    h1_w3 = next(e.node for e in at_pred if e.op == "MatMul" and "w3:0" in reads[e.node])
    keys.add(f"op{h1_w3}")
    if source == "w2":
        h2_wd = next(e.node for e in at_pred if e.op == "MatMul" and "wd:0" in reads[e.node])
        plus_b3 = next(e.node for e in at_pred if made[h1_w3] in {t["name"] for t in e.inputs})
        join = next(e.node for e in at_pred if made[h2_wd] in {t["name"] for t in e.inputs})
        keys |= {f"op{h2_wd}", f"op{plus_b3}", f"op{join}"}
    return keys


def _highlighted(d, role="cut") -> set:
    data, hl = d.plot.nodes.data, d.plot.hl_nodes.data
    at = {(x, y): k for k, x, y in zip(d.plot.keys, data["x"], data["y"])}
    return {at[(x, y)] for x, y, r in zip(hl["x"], hl["y"], hl["role"]) if r == role}


@pytest.mark.parametrize("source,line", [("w1", "h1 = tf.nn.relu"), ("w2", "h2 = tf.nn.relu")])
def test_show_on_graph_highlights_the_route_to_the_overflow(run, source, line):
    import tapeviz.ui as ui
    path, ops, nan = run
    d = ui.Dashboard(str(path))
    assert d.state.show_call(nan.call)
    why = d.parts["Why"]
    k, r = next((k, r) for k, r in enumerate(why.results)
                if r["source_name"].startswith(source + " "))
    assert r["verdict"] == "nan", r["message"]
    why.show_cut(k)
    expected = _route(ops, source, _line(line)) | {f"t{r['tensor']['id']}"}
    assert all(key in d.plot.index for key in expected), "the graph is grouped"
    assert _highlighted(d) == expected
    # the route is a tree ending at the join: one edge fewer than its nodes, all drawn
    assert d.plot.hl_edges.data["role"].count("cut") == len(expected) - 1


@pytest.mark.browser
def test_show_on_graph_in_the_browser_outlines_the_route(run, serve, watched_page):
    from conftest import node_data, open_dashboard
    from test_broken_run_page import _choose_tape
    path, ops, nan = run
    page, watch = watched_page
    open_dashboard(page, serve(path).url)
    _choose_tape(page, nan.tape)
    card = page.locator(".tv-why-name").filter(has_text="w1 (w1:0)")
    card.wait_for()
    names = page.locator(".tv-why-name").all_inner_texts()
    k = next(i for i, t in enumerate(names) if t.startswith("w1 (w1:0)"))
    page.locator(".tv-why-show button").nth(k).click()
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('highlight_nodes')"
                           ".data.role.includes('cut')")
    data, hl = node_data(page), node_data(page, "highlight_nodes")
    at = {(x, y): key for key, x, y in zip(data["key"], data["x"], data["y"])}
    lit = {at[(x, y)] for x, y, r in zip(hl["x"], hl["y"], hl["role"]) if r == "cut"}
    w1 = next(t["id"] for e in ops for t in e.inputs if t["name"] == "w1:0")
    assert lit == _route(ops, "w1", _line("h1 = tf.nn.relu")) | {f"t{w1}"}
    watch.check()


@pytest.mark.browser
def test_the_hover_card_has_a_problem_row_only_for_a_node_with_a_problem(run, serve,
                                                                         watched_page):
    from conftest import node_data, node_xy, open_dashboard
    from test_broken_run_page import _choose_tape
    path, ops, nan = run
    page, watch = watched_page
    open_dashboard(page, serve(path).url)
    _choose_tape(page, nan.tape)
    data = node_data(page)
    # by hand: `h1 @ w3` made the first Inf; w3's ellipse has no problem
    pred = _line("pred = (h1 @ w3")
    h1_w3 = next(e.node for e in ops if e.site["line"] == pred and e.op == "MatMul"
                 and "w3:0" in {t["name"] for t in e.inputs})
    w3 = next(k for k, n in zip(data["key"], data["name"]) if n == "w3:0")

    def card(key):
        page.mouse.move(1, 1)
        x, y = node_xy(page, key)
        page.mouse.move(x - 3, y - 3)
        page.mouse.move(x + 1, y + 1, steps=3)
        tip = page.locator(".bk-tooltip-content").filter(has_text=data["label"][
            data["key"].index(key)]).first
        tip.wait_for()
        return tip.inner_text()
    assert "problem:" not in card(w3)
    assert "problem: first NaN / Inf made here" in card(f"op{h1_w3}")
    watch.check()
