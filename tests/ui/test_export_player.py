"""The backward player of the exported page (`tapeviz export`): it runs in the browser from
file:// with every other request aborted, and what it shows is held against the recording's own
``backward_step`` events, read here straight from the file's JSON lines."""
from __future__ import annotations

import json
import math
import re
import subprocess
import sys

import pytest

from conftest import ROOT, block_requests_except, env_with_repo, node_data, record_program

# x = 0 makes sqrt's local gradient inf (first NaN/Inf at the Sqrt step) and a * a's zero (the
# first all-zero gradient); `a` feeds three consumers, so its running sum shows. A second call
# on the same persistent tape gives the player a choice of calls.
NAN_PROGRAM = """\
import tapeviz as tv

x = tv.Variable(0.0, name="x")
w = tv.Variable(2.0, name="w")
with tv.GradientTape(persistent=True) as tape:
    a = x * w
    b = tv.sqrt(a)
    loss = b + a * a
grads = tape.gradient(loss, [x, w])
other = tape.gradient(a, [x, w])
"""


@pytest.fixture(scope="module")
def nan_recording(tmp_path_factory):
    return record_program(tmp_path_factory.mktemp("nan"), "nan_prog", NAN_PROGRAM)


def _export(recording, out):
    proc = subprocess.run([sys.executable, "-m", "tapeviz.cli", "export", str(recording), "-o", str(out)],
                          capture_output=True, text=True, cwd=ROOT, env=env_with_repo(), timeout=180)
    assert proc.returncode == 0 and out.exists(), proc.stdout + proc.stderr


def _steps_by_call(recording) -> dict:
    """call id -> its backward_step events, in order, from the file itself."""
    calls: dict = {}
    with open(recording, encoding="utf-8") as fh:
        for line in fh:
            e = json.loads(line)
            if e.get("kind") == "backward_step":
                calls.setdefault(e["call"], []).append(e)
    return calls


def _open(page, path) -> tuple:
    """Open the exported page with everything but file:// aborted; return (tape id, blocked)."""
    blocked = block_requests_except(page, ("file:",))
    page.goto(path.as_uri())
    page.wait_for_function("() => window.Bokeh && Bokeh.documents.length && "
                           "[...Bokeh.documents[0].all_models].some(m => m.name && m.name.startsWith('steps_'))")
    names = page.evaluate("() => [...Bokeh.documents[0].all_models].map(m => m.name)"
                          ".filter(n => n && n.startsWith('steps_'))")
    assert len(names) == 1, names
    tid = names[0].split("_", 1)[1]
    page.locator(".bk-tab", has_text="Backward").first.click()
    return tid, blocked


def _values(summary) -> list:
    """The numbers of a recorded summary's ``value`` (scalars, nested lists, "nan"/"inf")."""
    value = summary["value"]
    flat = []

    def walk(v):
        if isinstance(v, list):
            for x in v:
                walk(x)
        else:
            flat.append(float(v))
    walk(value)
    return flat


NUM = re.compile(r"-?(?:inf|nan|\d+(?:\.\d*)?(?:e[-+]?\d+)?)")


def _numbers(text) -> list:
    return [float(t) for t in NUM.findall(text)]


def _same(shown: list, recorded: list) -> bool:
    return len(shown) == len(recorded) and all(
        (math.isnan(a) and math.isnan(b)) or a == b or math.isclose(a, b, rel_tol=1e-3)
        for a, b in zip(shown, recorded))


# the step pane's shadow root (Bokeh draws every model in its own shadow DOM)
PANE = """const find = (root) => {
    for (const el of root.querySelectorAll('*')) {
        if (el.classList.contains('tv-export-step')) return el.shadowRoot || el;
        if (el.shadowRoot) { const got = find(el.shadowRoot); if (got) return got; }
    }
    return null; };
const root = find(document);"""


def _shown(page) -> dict:
    """What the step pane shows: title, upstream lines, and per input row (gradient, sum)."""
    return page.evaluate("""() => {""" + PANE + """
        const text = (el) => el ? el.textContent : '';
        const rows = [...root.querySelectorAll('table.tv-table tr')].slice(1).map(tr => {
            const td = tr.querySelectorAll('td');
            return [text(td[0]), text(td[1].querySelector('.tv-mono')), text(td[2])];
        });
        return {title: text(root.querySelector('.tv-step-title')),
                upstream: [...root.querySelectorAll('.tv-upstream')].map(text),
                formula: text(root.querySelector('.tv-step-formula')),
                rows, all: root.textContent};
    }""")


def _wait_title(page, prefix):
    page.wait_for_function("(p) => {" + PANE + """
        const t = root && root.querySelector('.tv-step-title');
        return t && t.textContent.startsWith(p); }""", arg=prefix)


def _check_step(page, tid, events, i):
    """The pane and the graph show step ``i`` of the recorded ``events``."""
    e = events[i]
    shown = _shown(page)
    assert shown["title"] == f"step {i + 1} of {len(events)}: {e['op']}", shown["title"]
    assert shown["formula"] == e["formula"]
    assert len(shown["upstream"]) == len(e["upstream"])
    for text, u in zip(shown["upstream"], e["upstream"]):
        assert _same(_numbers(text.split("=", 1)[1]), _values(u)), (text, u)
    assert len(shown["rows"]) == len(e["input_grads"]), shown["rows"]
    for (_, grad, total), ig in zip(shown["rows"], e["input_grads"]):
        assert _same(_numbers(grad), _values(ig["grad"])), (grad, ig["grad"])
        if ig["accumulated"]:
            assert total.startswith("running sum = ")
            assert _same(_numbers(total.split("=", 1)[1]), _values(ig["total"])), (total, ig["total"])
        else:
            assert total == ""
    data = node_data(page, f"nodes_{tid}")
    me = data["key"].index(f"op{e['node']}")
    hl = node_data(page, "highlight_nodes")
    assert (hl["x"], hl["y"]) == ([data["x"][me]], [data["y"][me]]), "current op not highlighted"
    visited = {data["key"].index(f"op{s['node']}") for s in events[:i]}
    assert {j for j, s in enumerate(data["state"]) if s == 1} == visited


def _click(page, label):
    page.locator(".bk-btn", has_text=label).first.click()


@pytest.mark.browser
def test_export_player_steps_through_the_recorded_backward_pass(recordings, tmp_path, watched_page):
    page, watch = watched_page
    out = tmp_path / "main.html"
    _export(recordings["main"], out)
    (events,) = _steps_by_call(recordings["main"]).values()
    assert len(events) >= 5 and any(ig["accumulated"] for e in events for ig in e["input_grads"])
    tid, blocked = _open(page, out)
    _check_step(page, tid, events, 0)
    for i in range(1, len(events)):
        _click(page, "next ▶")
        _wait_title(page, f"step {i + 1} of")
        _check_step(page, tid, events, i)
    _click(page, "next ▶")                       # past the end: stays on the last step
    page.wait_for_timeout(200)
    _check_step(page, tid, events, len(events) - 1)
    _click(page, "◀ prev")
    _wait_title(page, f"step {len(events) - 1} of")
    _check_step(page, tid, events, len(events) - 2)
    _click(page, "« first")
    _wait_title(page, "step 1 of")
    _check_step(page, tid, events, 0)
    # the running sum of x (x * x: two consumers of one tensor) is shown where it happens
    i = next(k for k, e in enumerate(events) if any(ig["accumulated"] for ig in e["input_grads"]))
    for _ in range(i):
        _click(page, "next ▶")
    _wait_title(page, f"step {i + 1} of")
    assert "running sum = " in _shown(page)["all"]
    assert blocked == [], blocked
    watch.check()


@pytest.mark.browser
def test_export_player_breakpoints_calls_and_play(nan_recording, tmp_path, watched_page):
    page, watch = watched_page
    out = tmp_path / "nan.html"
    _export(nan_recording, out)
    calls = _steps_by_call(nan_recording)
    first, last = sorted(calls)
    tid, blocked = _open(page, out)
    # the page opens on the last call, as the dashboard does; pick the first one
    _check_step(page, tid, calls[last], 0)
    assert _shown(page)["title"].startswith(f"step 1 of {len(calls[last])}:")
    # d(x * w): no NaN/Inf in this call; the pane says so and stays on its step
    assert not any(s.get("nan") or s.get("inf") for e in calls[last]
                   for s in e["upstream"] + [ig["grad"] for ig in e["input_grads"]])
    _click(page, "▶ first NaN/Inf")
    page.wait_for_function("() => {" + PANE + " return root.textContent.includes("
                           "'breakpoint not reached in this call'); }")
    _check_step(page, tid, calls[last], 0)
    page.locator("select").nth(1).select_option(index=0)   # (the first: "Go to gradient call")
    _wait_title(page, f"step 1 of {len(calls[first])}:")
    events = calls[first]
    _check_step(page, tid, events, 0)

    def bad(s):
        return bool(s and (s.get("nan") or s.get("inf")))

    def zero(s):
        return bool(s and s.get("size") and s.get("zeros") == s.get("size"))
    want_nan = next(i for i, e in enumerate(events)
                    if any(map(bad, e["upstream"])) or any(bad(ig["grad"]) for ig in e["input_grads"]))
    want_zero = next(i for i, e in enumerate(events)
                     if any(map(zero, e["upstream"])) or any(zero(ig["grad"]) for ig in e["input_grads"]))
    assert events[want_nan]["op"] == "Sqrt" and want_zero < want_nan   # the program's own story
    _click(page, "▶ first NaN/Inf")
    _wait_title(page, f"step {want_nan + 1} of")
    _check_step(page, tid, events, want_nan)
    shown = _shown(page)
    assert "inf" in shown["rows"][0][1] and "non-finite" in shown["all"]
    _click(page, "▶ first zero grad")
    _wait_title(page, f"step {want_zero + 1} of")
    _check_step(page, tid, events, want_zero)
    # a node clicked on the Backward tab: the player runs to that op's step
    want = len(events) - 1
    key = f"op{events[want]['node']}"
    page.evaluate(f"""() => {{ const s = Bokeh.documents[0].get_model_by_name('nodes_{tid}');
        s.selected.indices = [s.data.key.indexOf('{key}')]; }}""")
    _wait_title(page, f"step {want + 1} of")
    _check_step(page, tid, events, want)
    _click(page, "« first")
    _wait_title(page, "step 1 of")
    _click(page, "▶ selected node")
    _wait_title(page, f"step {want + 1} of")
    # play runs to the end and stops
    _click(page, "« first")
    _wait_title(page, "step 1 of")
    _click(page, "▶ play")
    _wait_title(page, f"step {len(events)} of")
    page.locator(".bk-btn", has_text="▶ play").first.wait_for()      # stopped by itself
    _check_step(page, tid, events, len(events) - 1)
    assert blocked == [], blocked
    watch.check()


def test_export_embeds_every_step_up_to_a_cap(nan_recording, monkeypatch):
    """The page holds each recorded step once, in order; past the cap the newest calls keep
    theirs and a cut call says so."""
    from tapeviz.ui import export
    from tapeviz.ui.store.source import load_events
    from tapeviz.ui.store.store import Store
    calls = _steps_by_call(nan_recording)
    first, last = sorted(calls)

    def page(cap):
        monkeypatch.setattr(export, "MAX_STEPS", cap)
        store = Store()
        store.ingest(load_events(nan_recording))
        doc = export.build(store, "t")
        (steps,) = [m for m in doc.references() if (m.name or "").startswith("steps_")]
        (meta,) = [m for m in doc.references() if (m.name or "").startswith("calls_")]
        return steps.data, meta.data
    steps, meta = page(10_000)
    assert meta["id"] == [first, last] and meta["n"] == [len(calls[first]), len(calls[last])]
    assert [h.split("</div>")[0].rsplit(": ", 1)[1] for h in steps["html"]] == \
        [e["op"] for c in (first, last) for e in calls[c]]
    assert meta["note"] == ["", ""]
    steps, meta = page(len(calls[last]) + 1)
    assert meta["n"] == [1, len(calls[last])] and len(steps["html"]) == len(calls[last]) + 1
    assert f"first 1 of {len(calls[first])}" in meta["note"][0] and meta["note"][1] == ""
