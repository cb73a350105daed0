"""A run that an exception ends is recorded as crashed, with the exception and the user's
line, and every page says so: truth is the line of the script that raises (marked in it)."""
from __future__ import annotations

import html
import subprocess
import sys

import tapeviz as tv
from tapeviz.recording import load_recording

from conftest import env_with_repo
from crashing_run import CLEAN, CRASH_LINE, CRASHING


IN_BLOCK = """\
import sys
import tapeviz as tv
with tv.record(sys.argv[1], full=True):
    w = tv.Variable(1.0)
    with tv.GradientTape() as tape:
        y = w * 3.0
    tape.gradient(y, w)
    raise ValueError("<b>bad</b> & worse")   # CRASH
"""


def _run(tmp_path, code, *args, **env):
    script = tmp_path / "train_it.py"
    script.write_text(code)
    return subprocess.run([sys.executable, str(script), *map(str, args)], cwd=tmp_path,
                          env=env_with_repo(**env), capture_output=True, text=True,
                          timeout=120)


def test_an_uncaught_exception_under_tapeviz_record_is_in_the_recording(tmp_path):
    path = tmp_path / "run.tvz"
    proc = _run(tmp_path, CRASHING, TAPEVIZ_RECORD=str(path))
    assert proc.returncode == 1 and "RuntimeError" in proc.stderr   # the traceback still shows
    rec = load_recording(path)
    assert rec.complete and rec.footer.reason == "crashed"
    err = rec.footer.error
    assert err["type"] == "RuntimeError" and "non-persistent" in err["message"]
    assert err["file"].endswith("train_it.py") and err["line"] == CRASH_LINE
    assert rec.warnings[0].startswith(f"the run crashed: RuntimeError at train_it.py:{CRASH_LINE}")
    # the call that failed left no gradient events: the last recorded call is the debug one
    # (the fourth), and the page must not read as a clean finish
    from tapeviz.ui.dashboard.dashboard import Dashboard
    from tapeviz.ui.store.source import store_for
    d = Dashboard(None, title="t", store=store_for(path))
    status = d.live.status.object
    assert "tv-crash" in status and f"RuntimeError at train_it.py:{CRASH_LINE}" in status


def test_a_clean_exit_is_not_a_crash(tmp_path):
    path = tmp_path / "run.tvz"
    proc = _run(tmp_path, CLEAN, TAPEVIZ_RECORD=str(path))
    assert proc.returncode == 0, proc.stderr
    rec = load_recording(path)
    assert rec.footer.reason == "exit" and rec.footer.error is None
    assert not any(w.startswith("the run crashed") for w in rec.warnings)


def test_an_exception_escaping_a_record_block_is_recorded_and_escaped_on_the_page(tmp_path):
    path = tmp_path / "block.tvz"
    proc = _run(tmp_path, IN_BLOCK, path)
    assert proc.returncode == 1 and "ValueError" in proc.stderr
    rec = load_recording(path)
    assert rec.footer.reason == "crashed"
    assert rec.footer.error["type"] == "ValueError"
    assert rec.footer.error["message"] == "<b>bad</b> & worse"
    assert rec.footer.error["line"] == IN_BLOCK.splitlines().index(
        '    raise ValueError("<b>bad</b> & worse")   # CRASH') + 1
    from tapeviz.ui.export import export
    page = open(export(path, tmp_path / "block.html"), encoding="utf-8").read()
    # the page's Bokeh document holds each Div's HTML entity-escaped once: unescaped once,
    # the user's message must still be text, never markup
    shown = html.unescape(page)
    line = "the run crashed: ValueError at train_it.py:8 (in &lt;module&gt;): "
    at = shown.index(line) + len(line)
    assert shown[at:].startswith("&lt;b&gt;bad&lt;/b&gt; &amp; worse</div>")


def test_a_recording_closed_in_a_with_block_without_error_is_clean(tmp_path):
    path = tmp_path / "ok.tvz"
    with tv.record(path, full=True):
        tv.Variable(1.0)
    rec = load_recording(path)
    assert rec.footer.reason == "closed" and rec.footer.error is None


def test_an_older_footer_without_error_reads_as_before(tmp_path):
    path = tmp_path / "old.tvz"
    with tv.record(path, full=True):
        tv.Variable(1.0)
    lines = path.read_text().splitlines()
    # a footer as older versions wrote it: no error field
    lines[-1] = lines[-1].replace(',"error":null', "").replace('"reason":"closed"',
                                                                '"reason":"exit"')
    assert '"error"' not in lines[-1]
    path.write_text("\n".join(lines) + "\n")
    rec = load_recording(path)
    assert rec.complete and rec.footer.reason == "exit" and rec.footer.error is None
