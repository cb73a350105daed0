"""The served page of a run that crashed says so (chromium, tapeviz serve): the exception's
type, the user's file:line and its message, as text. Truth: the line of the script that
raises, marked in it."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import env_with_repo, open_dashboard
from crashing_run import CRASH_LINE, CRASHING

pytestmark = pytest.mark.browser


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
    assert text.startswith(f"the run crashed: RuntimeError at crashing.py:{CRASH_LINE}")
    assert "non-persistent GradientTape" in text
    watch.check("crashed run")
