"""A diverging run recorded as a user records it: the bounded store keeps the tapes that tell
its story (the first calls with the dead layer, the jumps of the norm and their lead-up, where
NaN began) ahead of the many identical NaN tapes that follow, the dashboard opens where NaN
began and reaches the dead layer's explanation, the exported page holds the same tapes and
opens on the same one, and ``--keep-tapes`` raises the bound. Truth: tests/ui/diverging_run.py."""
from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from diverging_run import DEAD, record, story_calls  # noqa: E402


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return record(tmp_path_factory.mktemp("diverging"))


def test_the_run_is_the_case_the_bound_used_to_lose(run):
    _, truth = run
    n = len(truth["summaries"])
    # NaN begins after more calls than a view keeps tapes, and more than 50 NaN calls follow
    assert truth["first_nan"] > 50 and n - truth["first_nan"] > 50
    assert truth["summaries"][truth["first_nan"]]["why"] == "verdict"


def test_the_store_keeps_the_story_tapes_then_the_newest(run):
    from tapeviz.ui.store.source import store_for
    path, truth = run
    store = store_for(path)
    assert store.max_tapes == 50 and len(store.tapes) == 50
    missing = sorted(i for i in story_calls(truth) if truth["tape"][i] not in store.tapes)
    assert missing == [], f"story calls whose tapes were dropped: {missing}"
    for i in story_calls(truth):
        assert truth["call"][i] in store.calls_for(truth["tape"][i])
    newest = max(truth["summaries"])
    assert truth["tape"][newest] in store.tapes
    full, calls = truth["full"], len(truth["summaries"])
    # (every call was recorded in full here, so the header names no second count)
    assert full == calls
    assert store.counts_text() == f"50 of {full} tapes held · 50 of {calls} gradient calls held"


def test_the_dashboard_opens_where_nan_began_and_reaches_the_dead_layer(run):
    from tapeviz import ui
    path, truth = run
    d = ui.Dashboard(str(path))
    assert d.state.tape == truth["tape"][truth["first_nan"]]
    first = truth["call"][1]
    d.state.show_call(first)
    assert d.state.tape == truth["tape"][1] and d.state.call == first
    causes = {r["tensor"]["name"].split(":")[0]: (r["verdict"], r.get("cause"))
              for r in d.store.calls[first]["results"]}
    assert {n: causes[n] for n in DEAD} == {n: ("zero", "dead_relu") for n in DEAD}


@pytest.mark.slow
def test_the_export_holds_the_same_story_and_opens_on_the_same_tape(run, tmp_path):
    from tapeviz.ui.export import build, export
    from tapeviz.ui.store.source import store_for
    path, truth = run
    out = export(path, tmp_path / "run.html")
    page = open(out, encoding="utf-8").read()
    nan_tape = truth["tape"][truth["first_nan"]]
    for i in story_calls(truth):
        title = f"tape {truth['tape'][i]}" + (" \\u00b7 NaN began" if i == truth["first_nan"] else "")
        assert f'"title":"{title}"' in page, title
    assert "dead_relu" in page and "50 of " in page
    layout = build(store_for(path), "t")
    tabs = next(m for m in layout.select({"name": "tapes"}))
    assert tabs.tabs[tabs.active].title == f"tape {nan_tape} · NaN began"


@pytest.mark.slow
def test_keep_tapes_raises_the_bound_for_export(run, tmp_path):
    from tapeviz import cli
    path, truth = run
    full = truth["full"]
    out = tmp_path / "all.html"
    cli.main(["export", str(path), "-o", str(out), "--keep-tapes", "500"])
    # (all of the run's tapes and calls held: the header counts them, no "of")
    assert (f"{full} tape(s) \\u00b7 {full} gradient call(s)"
            in out.read_text(encoding="utf-8"))
    with pytest.raises(SystemExit):
        cli.main(["export", str(path), "-o", str(out), "--keep-tapes", "0"])


def _header(page) -> str:
    """The served page's header line (its counts of tapes and calls held)."""
    import panel as pn
    return next(str(m.object) for m in page.main.objects[0].select(pn.pane.HTML)
                if "gradient call" in str(m.object))


@pytest.mark.slow
def test_each_command_keeps_its_own_number_of_tapes(run, tmp_path, monkeypatch):
    # a served page and two exports in one process, each with its own --keep-tapes: none of
    # them leaks its number into the next (the run holds more tapes than any default)
    from tapeviz import cli
    from tapeviz.ui.serve.app import make_app
    path, truth = run
    full = truth["full"]
    pages = []
    monkeypatch.setattr(cli, "serve", lambda recording, **kw: pages.append(
        make_app(recording, False, None, None, None, kw.get("keep_tapes"))))
    cli.main(["serve", str(path), "--keep-tapes", "500"])
    assert f"{full} tape(s) · {full} gradient call(s)" in _header(pages[0])
    cli.main(["serve", str(path)])
    assert f"50 of {full} tapes held" in _header(pages[1])
    cli.main(["export", str(path), "-o", str(tmp_path / "20.html"), "--keep-tapes", "20"])
    cli.main(["export", str(path), "-o", str(tmp_path / "default.html")])
    assert f"20 of {full} tapes held" in (tmp_path / "20.html").read_text(encoding="utf-8")
    assert f"50 of {full} tapes held" in (tmp_path / "default.html").read_text(encoding="utf-8")
    assert f"50 of {full} tapes held" in _header(make_app(str(path)))
