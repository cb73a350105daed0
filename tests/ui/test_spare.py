"""`tapeviz serve FILE` builds the first tab's session before the tab asks
(tapeviz/ui/serve/warm_session.py): the page served from it must be a live session, later tabs build their
own (no spare is built after a page has loaded: that build would hold the server while the
user starts clicking), and a spare of a recording that changed since must not be shown."""
from __future__ import annotations

import shutil
import time

import pytest

from conftest import click_node, node_data, record_program

pytestmark = pytest.mark.browser

SPARE = "x-tapeviz-spare"
OTHER = """\
import tapeviz as tv
x = tv.Variable(0.5, name="only_x")
with tv.GradientTape() as tape:
    y = tv.tanh(x)
g = tape.gradient(y, x)
"""


def _built_ahead(server, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        if any("built ahead" in line for line in server.log):
            return
        time.sleep(0.1)
    pytest.fail("the first spare was never built:\n" + "".join(server.log[-40:]))


def _open(page, url):
    response = page.goto(url)
    page.wait_for_function("() => window.Bokeh && Bokeh.documents.length && "
                           "Bokeh.documents[0].get_model_by_name('nodes') && "
                           "Bokeh.documents[0].get_model_by_name('nodes').data.x.length > 0",
                           timeout=60_000)
    return response.headers.get(SPARE)


def test_tabs_get_sessions_built_ahead_and_they_are_live(serve, recordings, watched_page):
    page, watch = watched_page
    server = serve(recordings["main"])
    _built_ahead(server)
    assert _open(page, server.url) == "used"
    data = node_data(page)
    key = next(k for k, op in zip(data["key"], data["op"]) if op == "MatMul")
    click_node(page, key)                      # the spare session answers the click
    page.locator(".tv-node-title", has_text="MatMul").first.wait_for()
    watch.check()
    # the next tabs: each its own session (nothing selected), none from a spare: no spare is
    # built once a page has loaded, so the first click on a page never waits for one
    context = page.context
    states = []
    for _ in range(3):
        other = context.new_page()
        states.append(_open(other, server.url))
        assert other.evaluate("() => Bokeh.documents[0].get_model_by_name('nodes')"
                              ".selected.indices.length") == 0
        other.close()
        time.sleep(1.0)
    assert states == ["none", "none", "none"], states


def test_a_changed_recording_is_not_shown_from_a_stale_spare(serve, recordings, watched_page,
                                                             tmp_path):
    page, watch = watched_page
    run = tmp_path / "run.tvz"
    shutil.copyfile(recordings["main"], run)
    server = serve(run)
    _built_ahead(server)                       # a spare of the main recording waits
    other = record_program(tmp_path, "other", OTHER)
    time.sleep(0.05)
    shutil.copyfile(other, run)                # the file is replaced by another run
    assert _open(page, server.url) == "dropped"
    ops = set(node_data(page)["op"])
    assert "MatMul" not in ops, ops            # the main recording's op: the stale spare
    labels = " ".join(map(str, node_data(page)["label"]))
    assert "only_x" in labels, labels
    watch.check()
