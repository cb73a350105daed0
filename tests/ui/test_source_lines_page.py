"""The Lines tab in a real browser: `tapeviz serve` on a recording, the tab lists the lines
the tape ran ops from (hand-marked below), a line's code is text even when it holds markup,
and a row click selects that line's first op on the graph, while an op clicked on the graph
stays selected."""
from __future__ import annotations

import pytest

from conftest import node_data, open_dashboard, record_program, select_node

pytestmark = pytest.mark.browser

PROGRAM = """\
import tapeviz as tv

w = tv.Variable([[1.0, -2.0], [0.5, 3.0]], name="w")
b = tv.Variable([-50.0, -50.0], name="b")
x = tv.constant([[1.0, 2.0]])
with tv.GradientTape() as tape:
    h = tv.nn.relu(x @ w + b)  # <img src=x onerror=alert(1)>
    for _ in range(3):
        h = h * 0.5
    loss = tv.reduce_sum(h)
tape.gradient(loss, [w, b])
"""
#: the lines of PROGRAM that ran ops, with the ops each made (marked by hand)
TRUTH = [(7, "MatMul, AddV2, Relu", "3"), (9, "Mul", "3"), (10, "Sum", "1")]

SELECTED = ("() => { const n = Bokeh.documents[0].get_model_by_name('nodes');"
            " return n.selected.indices.length === 1 ?"
            " n.data.key[n.selected.indices[0]] : null; }")


def _column(page, field):
    cells = page.locator(f".tv-lines .tabulator-row .tabulator-cell[tabulator-field='{field}']")
    return [cells.nth(i).inner_text().strip() for i in range(cells.count())]


def test_lines_tab_lists_the_lines_as_text_and_selects_on_the_graph(serve, tmp_path,
                                                                    watched_page):
    server = serve(record_program(tmp_path, "lines_prog", PROGRAM))
    page, watch = watched_page
    open_dashboard(page, server.url)
    page.locator(".bk-tab", has_text="Lines").first.click()
    page.locator(".tv-lines .tabulator-row").nth(len(TRUTH) - 1).wait_for()
    assert _column(page, "where") == [f"lines_prog.py:{line}" for line, _, _ in TRUTH]
    assert _column(page, "made") == [made for _, made, _ in TRUTH]
    assert _column(page, "ops") == [n for _, _, n in TRUTH]
    code = _column(page, "code")
    assert code[0].endswith("# <img src=x onerror=alert(1)>"), code   # shown, as text
    assert page.locator(".tv-lines img").count() == 0
    assert _column(page, "causes")[0].startswith("dead_relu (w (w:0))")

    page.locator(".tv-lines .tabulator-row").nth(1).click()      # the loop's line
    page.wait_for_function(f"() => ({SELECTED})() !== null")
    key = page.evaluate(SELECTED)
    data = node_data(page)
    muls = [k for k, op in zip(data["key"], data["op"]) if op == "Mul"]
    assert len(muls) == 3 and key == min(muls, key=lambda k: int(k[2:]))

    # the Relu, clicked on the graph, stays selected and inspected: its line's row gets
    # selected from the graph, and that must not send the selection back to the line's
    # first op (MatMul)
    relu = data["key"][data["op"].index("Relu")]
    select_node(page, relu)
    page.locator(".tv-node-title", has_text="Relu").first.wait_for()
    page.wait_for_timeout(1500)       # (time for the round trip through the row)
    assert page.evaluate(SELECTED) == relu
    title = page.locator(".tv-inspector").first.evaluate(
        "e => (e.shadowRoot || e).querySelector('.tv-node-title').textContent")
    assert title.startswith("Relu"), title
    watch.check()

