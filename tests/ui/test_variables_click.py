"""The Variables tab in a real browser: a click on a variable's row selects that variable
on the graph, as the tab promises (the row's selection reaches the server while Panel may not
hold the page's lock; the graph changes on the next locked tick)."""
from __future__ import annotations

import pytest

from conftest import node_data, open_dashboard, record_program

pytestmark = pytest.mark.browser

PROGRAM = """\
import tapeviz as tv

w = tv.Variable([[1.0, 2.0]], name="w")
b = tv.Variable([0.5], name="b")
with tv.GradientTape() as tape:
    loss = tv.reduce_sum(w * 3.0 + b)
tape.gradient(loss, [w, b])
"""

SELECTED = ("() => { const n = Bokeh.documents[0].get_model_by_name('nodes');"
            " return n.selected.indices.length === 1 ?"
            " n.data.key[n.selected.indices[0]] : null; }")


def test_a_variables_row_click_selects_the_variable_on_the_graph(serve, tmp_path,
                                                                  watched_page):
    server = serve(record_program(tmp_path, "vars_prog", PROGRAM))
    page, watch = watched_page
    open_dashboard(page, server.url)
    page.locator(".bk-tab", has_text="Variables").first.click()
    rows = page.locator(".tv-variables .tabulator-row")
    rows.nth(1).wait_for()
    assert rows.nth(1).inner_text().startswith("b")
    rows.nth(1).click()
    page.wait_for_function(f"() => ({SELECTED})() !== null")
    data = node_data(page)
    assert data["name"][data["key"].index(page.evaluate(SELECTED))] == "b:0"
    watch.check()
