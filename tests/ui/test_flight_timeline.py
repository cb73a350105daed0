"""A flight recording in the dashboard: the timeline of every gradient call, the charts from
the summaries, and the view opening on the first anomalous call."""
from __future__ import annotations

import os
import sys

import pytest

import tapeviz as tv
from tapeviz import ui

from conftest import click_until, glyph_xy, open_dashboard

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from test_flight_recorder import BAD_STEP, STEPS, _rows, _train  # noqa: E402


@pytest.fixture(scope="module")
def flight_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("flight") / "run.tvz"
    with tv.record(path):
        _train()
    return path


def _calls_by_index(path):
    return {r["index"]: r for r in _rows(path) if r.get("kind") == "call_summary"}


def test_the_timeline_has_every_call_and_marks_what_was_kept(flight_file):
    d = ui.Dashboard(str(flight_file))
    data = d.parts["Flight"].source.data
    assert data["x"] == list(range(1, STEPS + 1))
    summaries = _calls_by_index(flight_file)
    # (the NaN stays: kept in full where it began, marked on every call after)
    kept = {1, 2, 3, 100, 200, 300} | set(range(BAD_STEP - 5, BAD_STEP + 1))
    for i, x in enumerate(data["x"]):
        marker = data["marker"][i]
        anomalous = summaries[x]["why"] in ("verdict", "jump") or x >= BAD_STEP
        assert (marker in ("x", "triangle")) == anomalous, x
        assert (data["kept"][i] != "summary only") == (x in kept), x
    assert data["kept"][data["x"].index(BAD_STEP - 1)] == \
        "in full, as the lead-up of a later anomalous call"
    # the training script's NaN from BAD_STEP on: purple triangles on a line above the rest
    triangles = [i for i, m in enumerate(data["marker"]) if m == "triangle"]
    assert [data["x"][i] for i in triangles] == list(range(BAD_STEP, STEPS + 1))
    drawn = max(y for y, m in zip(data["y"], data["marker"]) if m != "triangle")
    assert all(data["y"][i] > drawn for i in triangles)
    assert d.parts["Flight"].column.visible


def test_the_charts_have_one_row_per_source_of_every_call(flight_file):
    d = ui.Dashboard(str(flight_file))
    calls = [h["call"] for h in d.store.history]
    summaries = _calls_by_index(flight_file)
    assert calls == [summaries[i]["call"] for i in range(1, STEPS + 1) for _ in range(4)]
    states = {h["state"] for h in d.store.history if h["call"] == summaries[BAD_STEP]["call"]}
    assert states == {"nan"}


def test_a_click_on_a_summary_only_call_says_why_and_one_on_a_kept_call_shows_it(flight_file):
    d = ui.Dashboard(str(flight_file))
    summaries = _calls_by_index(flight_file)
    opened = d.state.call
    d.parts["Flight"].show(50)
    assert "summary only" in d.parts["Flight"].note.object and "#50 " in d.parts["Flight"].note.object
    assert d.state.call == opened
    # kept (periodic), and held: the lasting NaN keeps only its first call, so every kept
    # call fits in the view
    d.parts["Flight"].show(100)
    assert d.state.call == summaries[100]["call"] and d.state.tape == summaries[100]["tape"]
    assert "kept in full, as a periodic call" in d.parts["Flight"].note.object


def test_a_click_on_the_training_chart_tells_a_summary_only_call_as_the_timeline(flight_file):
    # call #50 was kept as a summary (the flight policy): holding more tapes would not bring
    # it back, so the note does not say --keep-tapes; it goes when another call is shown
    d = ui.Dashboard(str(flight_file))
    summaries = _calls_by_index(flight_file)
    training = d.parts["Training"]
    training.open_call(summaries[50]["call"])
    assert training.note.visible and "#50 " in training.note.object
    assert "summary only" in training.note.object and "--keep-tapes" not in training.note.object
    d.parts["Flight"].show(100)                              # another call is shown
    assert d.state.call == summaries[100]["call"] and not training.note.visible


def test_a_full_recording_has_no_timeline(tmp_path):
    path = tmp_path / "full.tvz"
    with tv.record(path, full=True):
        _train(steps=5, bad_step=None)
    d = ui.Dashboard(str(path))
    assert not d.parts["Flight"].column.visible and d.parts["Flight"].source.data["x"] == []


# --- in a browser ------------------------------------------------------------------------------

def _click_call(page, index, text):
    """Click call ``index`` on the timeline until the note says ``text``; its text."""
    note = page.locator(".tv-flight-note")

    def click():
        page.mouse.move(1, 1)
        page.locator(".tv-flight").scroll_into_view_if_needed()
        page.mouse.click(*glyph_xy(page, "flight_timeline", "flight_calls", "x", index))

    def shown():
        found = note.get_by_text(text).first
        found.wait_for(timeout=10_000)
        return found.inner_text()
    return click_until(click, shown)


@pytest.mark.browser
def test_a_served_flight_recording_opens_on_the_nan_and_its_timeline_answers_clicks(
        serve, watched_page, tmp_path):
    path = tmp_path / "run.tvz"
    with tv.record(path):
        _train(steps=230)
    summaries = _calls_by_index(path)
    page, watch = watched_page
    open_dashboard(page, serve(path).url)
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('flight_calls')"
                           ".data.x.length === 230")
    # opened on the NaN call, its Why cards up: the line that made the NaN
    tape = page.locator("select").first
    assert tape.evaluate("s => s.options[s.selectedIndex].text").startswith(
        f"tape {summaries[BAD_STEP]['tape']} ")
    page.locator(".tv-why").get_by_text("at Log").first.wait_for()
    text = _click_call(page, 50, "summary only")
    assert "#50 " in text and "did not keep its full events" in text
    text = _click_call(page, 100, "kept in full")
    assert "periodic" in text
    page.wait_for_function("([s, t]) => s.options[s.selectedIndex].text.startsWith(t)",
                           arg=[tape.element_handle(), f"tape {summaries[100]['tape']} "])
    page.screenshot(path=str(tmp_path / "flight.png"), full_page=True)
    print("screenshot:", tmp_path / "flight.png")
    watch.check()


def test_a_diverging_run_opens_on_its_first_nan_not_on_the_first_jump(tmp_path):
    # tests/broken_runs/diverging_sgd.py: the norm jumps from call 4 on (red crosses), and
    # w's gradient is first NaN at call 31 (marked by hand in the script): the view opens there
    import runpy
    import warnings
    path = tmp_path / "diverging.tvz"
    script = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "broken_runs", "diverging_sgd.py")
    with warnings.catch_warnings(), tv.record(path):
        warnings.simplefilter("ignore")
        runpy.run_path(script, run_name="__main__")
    summaries = _calls_by_index(path)
    assert summaries[4]["why"] == "jump"
    d = ui.Dashboard(str(path))
    assert d.state.call == summaries[31]["call"]
    assert d.store.opening_call() == summaries[31]["call"]


def test_a_zero_gradient_that_lasts_is_told_on_every_later_summary():
    """By hand: w's gradient is zero at calls 2-4, a value at 5, zero again at 6-7 (where it
    begins again: call 6); b's is a value throughout. The calls after each beginning still
    have it; a click on one names w and the call where it began, not "nothing anomalous"."""
    from tapeviz.ui.store.flight_calls import FlightCalls, call_text
    calls = FlightCalls(max_rows=100)
    w = {2: "zero", 3: "zero", 4: "zero", 5: "value", 6: "zero", 7: "zero"}
    for i in range(1, 8):
        why = "verdict" if i in (2, 6) else ""
        calls.add({"index": i, "call": 10 + i, "tape": i, "norm": 1.0, "why": why,
                   "full": bool(why), "sources": [
                       {"name": "w", "verdict": w.get(i, "value"), "norm": 0.0},
                       {"name": "b", "verdict": "value", "norm": 1.0}]})
    since = {i: [(g["verdict"], g["names"], g["since"]) for g in r["still"]]
             for i, r in calls.rows.items()}
    assert since == {1: [], 2: [], 3: [("zero", ["w"], 2)], 4: [("zero", ["w"], 2)], 5: [],
                     6: [], 7: [("zero", ["w"], 6)]}
    text = call_text(calls.rows[4], shown=False)
    assert "summary only" in text and "w still had zero gradients, as since call #2." in text
    assert "nothing in it was anomalous" not in text
    assert "nothing in it was anomalous" in call_text(calls.rows[5], shown=False)


def test_a_lasting_nan_is_told_beside_a_lasting_none():
    """By hand: a's gradient is None from call 1, b's NaN from call 3 on; call 5's note names
    both, each with the call where it began."""
    from tapeviz.ui.store.flight_calls import FlightCalls, call_text
    calls = FlightCalls(max_rows=100)
    for i in range(1, 6):
        calls.add({"index": i, "call": i, "tape": i, "norm": None, "why": "", "full": False,
                   "sources": [{"name": "a", "verdict": "none", "norm": None},
                               {"name": "b", "verdict": "nan" if i >= 3 else "value",
                                "norm": None}]})
    text = call_text(calls.rows[5], shown=False)
    assert "a still had None gradients, as since call #1." in text, text
    assert "b still had NaN gradients, as since call #3." in text, text
