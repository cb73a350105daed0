"""A recording of `model.fit` in the dashboard, in a real browser.

tests/broken_runs/keras_fit_churn.py trains a functional Keras model with `fit` (96 examples in
batches of 32 for 3 epochs: 9 steps, counted by hand). Its deep branch is dead from the first
step (a bias of -30 under a ReLU) and its softmax head is given to a loss told
`from_logits=True`; the truth is marked by hand in the script. Recorded in full, the served
page and the export hold one tape per step and tell that truth; recorded with the default
(flight) policy, the timeline shows every step and says which ones still had the dead branch.
"""
from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

from conftest import env_with_repo, open_dashboard
from test_export_player import _export
from test_flight_timeline import _click_call

pytestmark = pytest.mark.browser
SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "broken_runs" / "keras_fit_churn.py"
STEPS = 9
FIT_LINE = next(i for i, text in enumerate(SCRIPT.read_text().splitlines(), 1)
                if text.startswith("history = model.fit("))
BIAS_LINE = next(i for i, text in enumerate(SCRIPT.read_text().splitlines(), 1)
                 if text.startswith("deep = "))


def _record(folder, **env):
    out = folder / "churn.tvz"
    proc = subprocess.run([sys.executable, str(SCRIPT)], cwd=folder, capture_output=True,
                          text=True, timeout=180, env=env_with_repo(TAPEVIZ_RECORD=str(out), **env))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    return _record(tmp_path_factory.mktemp("fit_full"), TAPEVIZ_RECORD_FULL="1")


@pytest.fixture(scope="module")
def flight(tmp_path_factory):
    return _record(tmp_path_factory.mktemp("fit_flight"))


def _open_export(page, recording, out, model):
    """`tapeviz export recording -o out`, opened from file:// once its ``model`` is drawn."""
    _export(recording, out)
    page.goto(out.as_uri())
    page.wait_for_function("(m) => window.Bokeh && Bokeh.documents.length && "
                           "Bokeh.documents[0].get_model_by_name(m)", arg=model)


def _dead_card(page):
    card = page.locator(".tv-card", has=page.locator(".tv-why-name", has_text="deep/kernel:0"))
    card = card.locator("visible=true").first
    card.wait_for()
    return " ".join(card.inner_text().split())


def _assert_opened_on_why(page):
    """The tab shown first, before any click, is Why (a zero gradient opens it, as None does)."""
    page.locator(".tv-why-summary").locator("visible=true").first.wait_for()
    active = page.locator(".bk-tab.bk-active").locator("visible=true").all_inner_texts()
    assert "Why" in active, active


def _check_dead_card(text):
    assert "dead_relu" in text and "churn/deep" in text, text
    assert f"keras_fit_churn.py:{FIT_LINE}" in text, text         # where fit ran the ReLU
    assert f"made at line {BIAS_LINE}" in text, text              # and where the bias was made


def test_a_fit_recording_has_one_tape_per_step_served_and_exported(serve, full, watched_page,
                                                                   tmp_path):
    page, watch = watched_page
    open_dashboard(page, serve(full).url)
    options = page.locator("select").first.locator("option").all_inner_texts()
    assert [o.split(" · ")[0] for o in options] == [f"tape {i}" for i in range(1, STEPS + 1)]
    # the run's only broken gradients are zeros (the dead branch): the page opens on Why
    _assert_opened_on_why(page)
    _check_dead_card(_dead_card(page))
    note = page.locator(".tv-note", has_text="softmax_as_logits").first
    note.wait_for()
    assert f"keras_fit_churn.py:{FIT_LINE}" in note.inner_text()
    watch.check()

    _open_export(page, full, tmp_path / "churn.html", "tapes")
    titles = page.evaluate("() => Bokeh.documents[0].get_model_by_name('tapes').tabs"
                           ".map(t => t.title)")
    assert sorted(int(t.split()[1]) for t in titles) == list(range(1, STEPS + 1)), titles
    _assert_opened_on_why(page)
    _check_dead_card(_dead_card(page))
    watch.check()


def test_the_default_recording_of_fit_says_which_steps_still_had_the_dead_branch(
        serve, flight, watched_page):
    page, watch = watched_page
    open_dashboard(page, serve(flight).url)
    page.wait_for_function("(n) => Bokeh.documents[0].get_model_by_name('flight_calls')"
                           ".data.x.length === n", arg=STEPS)
    data = page.evaluate("() => { const d = Bokeh.documents[0].get_model_by_name("
                         "'flight_calls').data; return {x: Array.from(d.x), "
                         "color: Array.from(d.color), marker: Array.from(d.marker)}; }")
    # the first step is where the zero gradients began (a red cross); every later one still
    # has them: none of them may look like a healthy grey or blue point
    assert data["marker"][0] == "x"
    assert len(set(data["color"][1:])) == 1 and data["color"][1] not in (
        data["color"][0], "#b0b0b0", "#1f77b4"), data
    page.locator(".bk-tab", has_text="Why").first.click()
    _check_dead_card(_dead_card(page))
    text = " ".join(_click_call(page, 6, "summary only").split())
    assert "#6 " in text and "deep/kernel:0" in text and "deep/bias:0" in text, text
    assert "still had zero gradients, as since call #1" in text, text
    watch.check()


def test_the_export_of_the_default_recording_has_the_timeline_and_folds_the_ok_cards(
        flight, watched_page, tmp_path):
    page, watch = watched_page
    _open_export(page, flight, tmp_path / "churn_flight.html", "flight_calls")
    xs = page.evaluate("() => Array.from(Bokeh.documents[0].get_model_by_name('flight_calls')"
                       ".data.x)")
    assert xs == list(range(1, STEPS + 1))
    # the Why tab of the opening call: the two dead sources open, the four ok ones folded
    why = page.locator(".tv-why-summary").locator("visible=true").first
    why.wait_for()
    # (and the run's one note, softmax_as_logits, is said to follow the cards)
    assert why.inner_text().split() == ["4", "of", "6", "ok", "·", "2", "zero", "·", "1", "run",
                                        "note", "below"]
    _check_dead_card(_dead_card(page))
    wide = page.locator(".tv-card", has=page.locator(".tv-why-name", has_text="wide/kernel:0"))
    assert not wide.locator("visible=true").count()
    page.locator("summary", has_text="show the 4 ok sources").locator("visible=true").first.click()
    wide.locator("visible=true").first.wait_for()
    text = " ".join(_click_call(page, 6, "summary only").split())
    assert "#6 " in text and "still had zero gradients, as since call #1" in text, text
    # a call the page holds (the second: one of the first calls) opens its tape
    text = " ".join(_click_call(page, 2, "Gradient call #2 ").split())
    assert "kept in full, as one of the first calls" in text, text
    page.wait_for_function("() => { const t = Bokeh.documents[0].get_model_by_name('tapes');"
                           " return t.tabs[t.active].title.startsWith('tape 2'); }")
    watch.check()
