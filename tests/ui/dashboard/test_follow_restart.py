"""A followed recording replaced under the dashboard: the view shows the new run alone, and
says why, instead of mixing two runs in one store."""
from __future__ import annotations

import os
import time

import tapeviz as tv
from tapeviz import ui


def _run(path, tapes: int, still_open: bool = False):
    with tv.record(path, full=True):
        x = tv.Variable(1.0, name="x")
        for _ in range(tapes):
            with tv.GradientTape() as tape:
                y = x * x
            tape.gradient(y, x)
    if still_open:                       # as a producer still running: no footer yet
        lines = path.read_bytes().split(b"\n")
        path.write_bytes(b"\n".join(lines[:-2]) + b"\n")


def test_a_followed_file_replaced_under_the_dashboard_shows_the_new_run_alone(tmp_path):
    path = tmp_path / "run.tvz"
    _run(path, tapes=1, still_open=True)
    d = ui.Dashboard(str(path), follow=True)
    first = list(d.store.tapes)
    assert len(first) == 1 and not d.live.feed.ended
    other = tmp_path / "other.tvz"
    _run(other, tapes=2)
    os.replace(other, path)              # a new recording at the path
    for _ in range(4):                   # as the periodic callback does, a period apart
        time.sleep(d.live.period / 1000)
        d.live.tick()
    assert len(d.store.tapes) == 2 and not set(first) & set(d.store.tapes)
    assert "replaced by a new file" in d.live.status.object
    assert d.live.source.restarts == 1 and d.store.calls
