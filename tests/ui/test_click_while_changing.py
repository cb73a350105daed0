"""A button clicked while a widget change of the same page is still pending (Panel waits 50 ms
after a tab or a select moves, longer on a busy server) must do what it says, and so must the
change. Panel handled both as a task without the session's document lock, where a callback
that writes the graph's Bokeh sources directly fails ("_pending_writes should be non-None"):
the player's *next* did nothing and the Backward tab showed an error, or the tape picked was
never drawn (:func:`tapeviz.private_apis.lock_panel_events`). Seen when a user, or a test
under load, clicks a tab and then a button; made certain here by sending both from one turn
of the page's script."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from conftest import node_data, open_dashboard, record_program

pytestmark = pytest.mark.browser

#: in one turn of the page's script: show tab ``tab`` of the bottom tabs (a Panel widget
#: change, which the server debounces; its tab then draws) and click the player's next button
#: (a Bokeh event right behind it). Returns how many bottom tabs there are.
CHANGE_THEN_CLICK = """
([button, tab]) => {
  const doc = Bokeh.documents[0];
  const tabs = [...doc.all_models].filter(m => m.tabs !== undefined && m.active !== undefined);
  const bottom = tabs.find(m => !(m.css_classes || []).includes('tv-side'));
  bottom.active = tab;
  button.click();
  return bottom.tabs.length;
}
"""


def test_next_clicked_right_after_a_tab_change_steps(serve, recordings, watched_page):
    page, watch = watched_page
    server = serve(recordings["main"])
    open_dashboard(page, server.url)
    page.locator(".bk-tab", has_text="Backward").first.click()
    head = page.locator(".tv-step-title").first
    expect(head).to_have_text(re.compile(r"^\s*step 1 of \d+"))
    page.wait_for_timeout(500)          # the tab change above is handled: none pending
    button = page.locator(".tv-player-buttons .bk-btn", has_text="next").first.element_handle()
    tabs = page.evaluate(CHANGE_THEN_CLICK, [button, 1])
    expect(head).to_have_text(re.compile(r"^\s*step 2 of "), timeout=20_000)
    steps = int(re.search(r"step \d+ of (\d+)", head.inner_text()).group(1))
    assert tabs >= 3 and steps >= tabs + 1
    for step, tab in enumerate([*range(2, tabs), 0], 3):   # each bottom tab, drawn meanwhile
        page.wait_for_timeout(300)
        page.evaluate(CHANGE_THEN_CLICK, [button, tab])
        expect(head).to_have_text(re.compile(rf"^\s*step {step} of "), timeout=20_000)
    assert not page.get_by_text("view failed").count()
    assert not [line for line in server.log if "_pending_writes" in line], server.log[-20:]
    watch.check()


TWO_TAPES = """\
import tapeviz as tv

x = tv.Variable(2.0, name="x")
for k in range(2):
    with tv.GradientTape() as tape:
        y = tv.sin(x * x) + tv.exp(x) * float(k + 1)
    tape.gradient(y, x)
"""

#: in one turn of the page's script: pick the other tape in the tape picker (a Panel widget
#: change; the graph pane then draws that tape) and click a button right behind it
PICK_THEN_CLICK = """
([button]) => {
  const doc = Bokeh.documents[0];
  const pick = [...doc.all_models].find(m => m.title === 'Tape' && m.options !== undefined);
  const values = pick.options.map(o => Array.isArray(o) ? o[0] : o);
  pick.value = values.find(v => v !== pick.value);
  button.click();
  return values.length;
}
"""


def test_a_graph_drawn_while_a_click_waits_is_drawn(serve, tmp_path, watched_page):
    page, watch = watched_page
    server = serve(record_program(tmp_path, "two_tapes", TWO_TAPES))
    open_dashboard(page, server.url)
    before = node_data(page)["key"]
    button = page.locator(".bk-btn", has_text="fit").first.element_handle()
    assert page.evaluate(PICK_THEN_CLICK, [button]) == 2
    page.wait_for_function("(before) => { const m = Bokeh.documents[0].get_model_by_name("
                           "'nodes'); return m && m.data.key.join() !== before.join(); }",
                           arg=before, timeout=20_000)
    page.wait_for_timeout(500)
    assert not page.get_by_text("view failed").count()
    assert not [line for line in server.log if "_pending_writes" in line], server.log[-20:]
    watch.check()
