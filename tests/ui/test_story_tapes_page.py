"""A diverging run in a real browser (truth: tests/ui/diverging_run.py): the served dashboard
opens where NaN began, offers the first calls' tapes, and the first tape's Why tab explains
the dead layer; the exported page opens on the same tape."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import env_with_repo, node_data, open_dashboard
from diverging_run import DEAD, record

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return record(tmp_path_factory.mktemp("diverging_page"))


def test_the_served_page_opens_where_nan_began_and_explains_the_dead_layer(run, serve,
                                                                         watched_page):
    path, truth = run
    page, watch = watched_page
    page.set_viewport_size({"width": 1600, "height": 1000})
    open_dashboard(page, serve(path).url)
    select = page.locator("select").first
    nan_tape = truth["tape"][truth["first_nan"]]
    assert select.locator("option:checked").inner_text().startswith(f"tape {nan_tape} ")
    options = select.locator("option").all_inner_texts()
    first = next(o for o in options if o.startswith(f"tape {truth['tape'][1]} "))
    before = [k for k in node_data(page)["key"] if k.startswith("op")]
    select.select_option(label=first)
    page.wait_for_function("(old) => { const k = Bokeh.documents[0].get_model_by_name('nodes')"
                           ".data.key; return k.some(x => x.startsWith('op')) &&"
                           " !k.some(x => old.includes(x)); }", arg=before)
    page.locator(".bk-tab", has_text="Why").first.click()
    for name in sorted(DEAD):
        card = page.locator(".tv-card", has=page.locator(".tv-why-name", has_text=f"{name}:0"))
        card.first.wait_for(state="attached")
        assert "dead_relu" in card.first.inner_text(), name
    watch.check()


def test_the_export_opens_on_the_tape_the_served_page_opens_on(run, watched_page, tmp_path):
    path, truth = run
    page, watch = watched_page
    out = tmp_path / "run.html"
    proc = subprocess.run([sys.executable, "-m", "tapeviz.cli", "export", str(path), "-o", str(out)],
                          capture_output=True, text=True, env=env_with_repo(), timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    page.goto(out.as_uri())
    page.wait_for_function("() => window.Bokeh && Bokeh.documents.length")
    active = page.locator(".bk-tab.bk-active").first
    active.wait_for()
    assert active.inner_text().strip() == f"tape {truth['tape'][truth['first_nan']]} · NaN began"
    tabs = [t.strip() for t in page.locator(".bk-tab").all_inner_texts()]
    assert f"tape {truth['tape'][1]}" in tabs, tabs
    assert not watch.errors
