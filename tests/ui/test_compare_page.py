"""The compare view in a real browser: `tapeviz serve base.tvz --compare changed.tvz` on each
pair of tests/diff_runs/ (one known change each, its first line marked by hand in mlp.py),
and the folder view's *Compare with* picker. The page must name the first divergence's op
and line, draw the extra ops as ghosts, colour by values or gradients as tv.diff says, and
show both values in the inspector; every test fails on a console error."""
from __future__ import annotations

import importlib.util
import pathlib
import time

import pytest

from conftest import node_data, open_dashboard, select_node

import tapeviz as tv
from tapeviz.ui.store.compare_store import AGREE, ONE_RUN, UNCOMPARED
from tapeviz.ui.store.summaries import summary_text

pytestmark = pytest.mark.browser

PROGRAM = pathlib.Path(__file__).resolve().parents[1] / "diff_runs" / "mlp.py"
CHANGES = {"activation": {"activation": "tanh"}, "lr": {"lr": 0.2}, "extra": {"extra": True},
           "dtype": {"dtype": "float64"}, "seed": {"seed": 1}, "stop": {"stop": True}}
# the op that first differs, and whether run a has it too (the truth of tests/test_diff.py)
FIRST_OP = {"activation": ("Tanh", True), "lr": ("Mul", True), "extra": ("Mul", False),
            "dtype": ("Cast", False), "seed": ("MatMul", True), "stop": ("StopGradient", False)}


def marked_line(keyword):
    lines = PROGRAM.read_text().splitlines()
    found = [n for n, text in enumerate(lines, 1) if text.rstrip().endswith(f"# first: {keyword}")]
    assert len(found) == 1, keyword
    return found[0]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    spec = importlib.util.spec_from_file_location("diff_runs_mlp_page", PROGRAM)
    mlp = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mlp)
    folder = tmp_path_factory.mktemp("compare")
    paths = {}
    for name, kwargs in {"base": {}, **CHANGES}.items():
        paths[name] = folder / f"{name}.tvz"
        mlp.train(str(paths[name]), **kwargs)
    return paths


def _inner_text(page, selector):
    loc = page.locator(selector).first
    loc.wait_for()
    return loc.inner_text()


def _wait_text(page, selector, text, present=True, timeout=30):
    """Until an element of ``selector`` (looked for inside shadow roots too) shows ``text``
    (or, with ``present=False``, until no element of it is left)."""
    end = time.time() + timeout
    while time.time() < end:
        loc = page.locator(selector)
        if not present:
            if loc.count() == 0:
                return
        elif loc.count() and text in loc.first.inner_text():
            return
        page.wait_for_timeout(200)
    raise AssertionError(f"{selector} never {'showed ' + repr(text) if present else 'went'}")


def _click_mode(page, label):
    page.locator(".tv-compare-mode button", has_text=label).first.click()


def _fills_agree_with_the_diff(page, result, mode, fills=None):
    """Every op of run a on the page is filled as tv.diff says it compares: the agreeing
    colour exactly when that op agrees (values, or gradients), one-run ops lilac."""
    data = node_data(page)
    rows = {r.node_a: r for r in result.pairs + result.only_a}
    checked = 0
    for key, fill in zip(data["key"], data["fill"]):
        if key.startswith("b"):
            assert fill == ONE_RUN, (key, fill)
            continue
        if not key.startswith("op"):
            continue
        row = rows[int(key[2:])]
        if row.op_b is None:
            assert fill == ONE_RUN
        elif mode == "forward":
            assert (fill == AGREE) == (not row.forward_differs and row.matched_by != "changed"), \
                (key, row.op_a, fill, row.forward_rel)
        else:
            expect = UNCOMPARED if row.grad_rel is None else None
            assert (fill == AGREE) == (row.grad_rel is not None and not row.grad_differs), \
                (key, row.op_a, fill, row.grad_rel)
            if expect:
                assert fill == expect
        checked += 1
    assert checked >= 5
    return data


@pytest.mark.parametrize("change", list(CHANGES))
def test_each_pair_on_the_page(change, runs, serve, watched_page):
    page, watch = watched_page
    result = tv.diff(runs["base"], runs[change])
    server = serve(runs["base"], "--compare", runs[change])
    open_dashboard(page, server.url)
    op, in_a = FIRST_OP[change]
    line = marked_line(change)
    banner = _inner_text(page, ".tv-compare-first")
    first = banner.split("First divergence:")[1]
    assert op in first.splitlines()[0], banner
    b_line = _inner_text(page, ".tv-first-b")
    assert f"mlp.py:{line}" in b_line and op in b_line, banner
    a_line = _inner_text(page, ".tv-first-a")
    if in_a:
        assert f"mlp.py:{line}" in a_line, banner
    else:
        assert "no such op in this run" in a_line

    data = _fills_agree_with_the_diff(page, result, "forward")
    ghosts = [k for k in data["key"] if k.startswith("b")]
    if not in_a:        # the extra op is a ghost: dashed, labelled, where the first divergence is
        first_ghost = f"b{result.first_divergence.node_b}"
        assert first_ghost in ghosts, data["key"]
        i = data["key"].index(first_ghost)
        assert data["dash"][i] == "dashed" and data["label"][i] == "+" + op
    else:
        assert ghosts == []
    outline = node_data(page, "highlight_nodes")
    assert "divergence" in outline["role"], outline
    if change != "lr":      # lr * g1 ran on no tape: tape 2's first op that differs instead
        key = (f"op{result.first_divergence.node_a}" if in_a
               else f"b{result.first_divergence.node_b}")
        i = data["key"].index(key)
        j = outline["role"].index("divergence")
        assert (outline["x"][j], outline["y"][j]) == (data["x"][i], data["y"][i])

    # the toggle: the same graph, filled by the gradients' differences
    _click_mode(page, "gradients")
    _wait_text(page, ".tv-compare-key", "gradients")
    page.wait_for_timeout(500)
    _fills_agree_with_the_diff(page, result, "gradient")
    _click_mode(page, "forward values")
    page.wait_for_timeout(500)
    _fills_agree_with_the_diff(page, result, "forward")

    # the inspector: both values of an aligned op (one that differs, if the tape has one)
    # and their difference, as tv.diff gives them
    shown = [r for r in result.pairs if f"op{r.node_a}" in data["key"]]
    row = ([r for r in shown if r.forward_differs] or shown)[0]
    select_node(page, f"op{row.node_a}")
    _wait_text(page, ".tv-compare-node", "run a vs run b")
    detail = _inner_text(page, ".tv-compare-node")
    assert summary_text(row.outputs_a[0]) in detail and summary_text(row.outputs_b[0]) in detail
    assert row.outputs_a[0]["dtype"] in detail.split("dtype")[1].splitlines()[0]
    assert row.outputs_b[0]["dtype"] in detail.split("dtype")[1].splitlines()[0]
    assert ("forward: differs" if row.forward_differs else "forward: agrees") in detail
    assert row.why in detail
    page.wait_for_timeout(300)
    watch.check(change)


def test_training_tab_overlays_both_runs_and_marks_where_they_part(runs, serve, watched_page):
    page, watch = watched_page
    server = serve(runs["base"], "--compare", runs["lr"])
    open_dashboard(page, server.url)
    page.locator(".bk-tab", has_text="Training").first.click()
    calls = sorted({e.call for e in tv.load_recording(runs["base"]).of("gradient_started")})
    # the first step's gradients are the same in both runs (the learning rate acts after
    # them): they part at the second call
    part = page.evaluate("() => Bokeh.documents[0].get_model_by_name('part_line').location")
    assert part == calls[1]
    sides = page.evaluate("() => Bokeh.documents[0].get_model_by_name('compare_norms')"
                          ".renderers.map(r => r.data_source.name)")
    assert "compare_norm_a" in sides and "compare_norm_b" in sides
    page.wait_for_timeout(300)
    watch.check()


def test_the_folder_view_compares_with_the_recording_picked(runs, serve, watched_page):
    page, watch = watched_page
    folder = runs["base"].parent
    server = serve(folder)
    page.goto(server.url)
    page.locator(".tv-picker select").first.select_option("base.tvz")
    page.wait_for_function("() => window.Bokeh && Bokeh.documents.length && "
                           "Bokeh.documents[0].get_model_by_name('nodes')")
    page.locator(".tv-compare-picker select").first.select_option("extra.tvz")
    page.locator(".tv-compare-first").first.wait_for(timeout=60_000)
    assert f"mlp.py:{marked_line('extra')}" in _inner_text(page, ".tv-first-b")
    page.wait_for_function("""() => { for (const m of Bokeh.documents[0].all_models) {
        if (m.name === 'nodes' && m.data.key && m.data.key.some(k => k.startsWith('b')))
            return true; } return false; }""", timeout=60_000)
    # back to the run alone
    page.locator(".tv-compare-picker select").first.select_option("")
    _wait_text(page, ".tv-compare-first", "", present=False)
    page.wait_for_timeout(300)
    watch.check()


HOSTILE_PAIR = """\
import tapeviz as tv

evil = tv.Variable({value}, name="<img src=x onerror=alert(1)>")
with tv.name_scope("<script>alert(2)</script>"):
    other = tv.Variable(2.0, name="<svg onload=alert(3)>")
with tv.GradientTape() as tape:
    y = evil * other  # <b onmouseover=alert(4)>bold</b>
g = tape.gradient(y, [evil, other])
"""


def test_hostile_names_and_code_stay_text_on_the_compare_page(serve, tmp_path, watched_page):
    from conftest import record_program
    page, watch = watched_page
    a = record_program(tmp_path, "evil_a", HOSTILE_PAIR.format(value=1.0))
    b = record_program(tmp_path, "evil_b", HOSTILE_PAIR.format(value=3.0))
    server = serve(a, "--compare", b)
    open_dashboard(page, server.url)
    banner = _inner_text(page, ".tv-compare-first")
    assert "<img src=x onerror=alert(1)>" in banner              # shown as the text it is
    assert "<b onmouseover=alert(4)>bold</b>" in _inner_text(page, ".tv-first-a")
    data = node_data(page)
    select_node(page, [k for k, op in zip(data["key"], data["op"]) if op == "Mul"][0])
    _wait_text(page, ".tv-compare-node", "run a vs run b")
    assert "<b onmouseover=alert(4)>bold</b>" in _inner_text(page, ".tv-compare-node")
    assert page.locator("b", has_text="bold").count() == 0      # no tag made of it
    page.wait_for_timeout(500)
    watch.check()
