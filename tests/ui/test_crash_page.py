"""The served page of a run that crashed says so (chromium, tapeviz serve): the exception's
type, the user's file:line and its message, as text. Truth: the line of the script that
raises, marked in it."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import env_with_repo, open_dashboard

pytestmark = pytest.mark.browser

CRASHING = """\
import tapeviz as tv
w = tv.Variable(2.0, name="w")
for step in range(3):
    with tv.GradientTape() as tape:
        loss = w * w
    if step == 2:
        tape.gradient(loss, w)
    g = tape.gradient(loss, w)      # CRASH
    w.assign_sub(0.1 * g)
"""
LINE = next(i for i, l in enumerate(CRASHING.splitlines(), 1) if "CRASH" in l)


@pytest.fixture(scope="module")
def crashed(serve, tmp_path_factory):
    d = tmp_path_factory.mktemp("crash")
    (d / "crashing.py").write_text(CRASHING)
    out = d / "crashing.tvz"
    proc = subprocess.run([sys.executable, "crashing.py"], cwd=d, capture_output=True,
                          text=True, timeout=120, env=env_with_repo(TAPEVIZ_RECORD=str(out)))
    assert proc.returncode == 1 and "RuntimeError" in proc.stderr
    return serve(out)


def test_the_page_of_a_crashed_run_says_where_it_crashed(crashed, watched_page):
    page, watch = watched_page
    open_dashboard(page, crashed.url)
    line = page.locator(".tv-crash").first
    line.wait_for()
    text = line.inner_text()
    assert text.startswith(f"the run crashed: RuntimeError at crashing.py:{LINE}")
    assert "non-persistent GradientTape" in text
    watch.check("crashed run")
