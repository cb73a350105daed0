"""The exported page's layout on a run whose Why tab is long: a tape tab is as tall as its
tallest panel, so a side panel taller than the graph left a blank screen under every graph
(seen on a VAE run: 800 px between the graph and the variables table). Each side panel now
scrolls inside at about the graph's height."""
from __future__ import annotations

import pytest

from conftest import PageWatch, block_requests_except, record_program
from test_export_player import _export

pytestmark = pytest.mark.browser

#: twelve variables read through NumPy: twelve open None cards on the Why tab
MANY_NONE = """\
import numpy as np
import tapeviz as tv

ws = [tv.Variable(float(i + 1), name=f"w{i}") for i in range(12)]
with tv.GradientTape() as tape:
    loss = tv.constant(sum(np.sin(w) for w in ws))
tape.gradient(loss, ws)
"""

#: the Why panel's element (the shadow host of its summary line): its sizes and its bottom
WHY_BOX = """() => {
  const find = (root) => { for (const e of root.querySelectorAll('*')) {
    if (e.classList && e.classList.contains('tv-why-summary')) return e;
    if (e.shadowRoot) { const f = find(e.shadowRoot); if (f) return f; } } return null; };
  const host = find(document).getRootNode().host;
  return [host.scrollHeight, host.clientHeight, host.getBoundingClientRect().bottom];
}"""


def test_a_long_why_tab_scrolls_beside_the_graph_and_leaves_no_gap(tmp_path, page):
    watch = PageWatch(page)
    page.set_viewport_size({"width": 1400, "height": 1000})
    out = tmp_path / "many.html"
    _export(record_program(tmp_path, "many_none", MANY_NONE), out)
    blocked = block_requests_except(page, ("file:",))
    page.goto(out.as_uri())
    page.wait_for_function("() => window.Bokeh && Bokeh.documents.length > 0")
    cards = page.locator(".tv-why-name")
    cards.first.wait_for()
    assert cards.count() == 12
    scroll, height, bottom = page.evaluate(WHY_BOX)
    assert scroll > height + 500 and height <= 620, (scroll, height)   # scrolls, graph-high
    table = page.get_by_text("Watched variables at").first.bounding_box()["y"]
    assert table - bottom < 150, (bottom, table)      # the table right under the tape's tab
    assert blocked == [], blocked
    watch.check()
