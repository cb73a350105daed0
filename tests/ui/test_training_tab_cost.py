"""The Training tab of a broken run with many variables reaches the browser as a few
messages, not one per glyph (chromium, tapeviz serve): a diverging run of 11 variables took
tens of seconds of browser time when each line, source and legend entry of the plots was
sent, and laid out, on its own. The truth counted is the run's own shape: its variables and
gradient calls must all be drawn."""
from __future__ import annotations

import pytest

from conftest import open_dashboard, record_program

pytestmark = pytest.mark.browser

STEPS, VARIABLES = 40, 11
DIVERGING = f"""
import tapeviz as tv
tv.random.set_seed(3)
x = tv.random.normal([32, 4])
y = tv.reduce_sum(x, axis=1, keepdims=True)
ws = [tv.Variable(tv.random.normal([4, 1]) * 0.1, name=f"w{{i}}") for i in range({VARIABLES})]
lr = 0.01
for step in range({STEPS}):
    with tv.GradientTape() as tape:
        pred = sum(x @ w for w in ws)
        loss = tv.reduce_mean(tv.square(pred - y))
    grads = tape.gradient(loss, ws)
    for w, g in zip(ws, grads):
        w.assign_sub(lr * g)
    lr *= 1.3                       # the bug: a learning rate that keeps growing
    tv.events.log_scalar("loss", loss, step)
"""


@pytest.fixture(scope="module")
def diverging(serve, tmp_path_factory):
    return serve(record_program(tmp_path_factory.mktemp("div"), "diverging", DIVERGING))


def test_the_training_tab_arrives_in_a_few_messages(diverging, watched_page):
    page, watch = watched_page
    frames: list = []
    # a Bokeh message is three frames (header, metadata, content); the page's own messages
    # are answered with "OK": count the document patches the server sends
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(
        isinstance(payload, str) and '"msgtype": "PATCH-DOC"' in payload[:120])))
    open_dashboard(page, diverging.url)
    page.wait_for_timeout(1500)           # the first page's own messages settle
    before = len(frames)
    page.locator(".bk-tab", has_text="Training").first.click()
    page.wait_for_function("""([vars, steps]) => {
        const ms = Array.from(Bokeh.documents[0].all_models);
        const norms = ms.filter(m => m.name && m.name.startsWith('norm_points_'));
        const loss = ms.find(m => m.name && m.name.startsWith('scalar_points_'));
        return norms.length === vars && norms.every(s => s.data.x.length === steps)
            && loss !== undefined && loss.data.x.length === steps; }""",
                           arg=[VARIABLES, STEPS], timeout=120_000)
    page.wait_for_timeout(1500)           # anything still trickling in is counted too
    sent = sum(frames[before:])
    # one patch builds the plots (with the busy indicator's on and off: three); sent glyph
    # by glyph it was over a hundred
    assert sent <= 6, f"{sent} document patches to draw the Training tab"
    watch.check("training tab")
