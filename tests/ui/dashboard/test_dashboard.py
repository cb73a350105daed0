"""The dashboard's Python side: construction, selection, the player, why cards, local
failures, sources and the command line (no browser)."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import tapeviz as tv
import tapeviz.ui as ui
from tapeviz import events as ev
from tapeviz.ui.store.source import ListSource, as_source

from conftest import ROOT, env_with_repo, run_events, sample_program, wait_live


@pytest.fixture(scope="module")
def events():
    return run_events(sample_program)


def test_dashboard_from_events(events):
    d = ui.Dashboard(events, title="demo")
    assert d.state.tape is not None and d.state.call is not None
    assert d.plot.keys and "stream ended" in d.live.status.object
    key = next(k for k, op in zip(d.plot.keys, d.plot.nodes.data["op"]) if op == "Mul")
    d.plot.nodes.selected.indices = [d.plot.index[key]]     # as a tap does
    assert d.plot.selected == key
    # the forward formula comes from op_defined, sent once per process: this module's events may
    # start after it, so the gradient formula (carried by every backward step) is what is sure
    assert "∂a = g · b" in d.parts["Inspector"].html.object
    n_steps = len(d.store.calls[d.state.call]["steps"])
    d.parts["Backward"].player.value = 1
    assert f"step 2 of {n_steps}" in d.parts["Backward"].step_view.object
    assert d.plot.hl_nodes.data["role"] == ["current"]
    # three sources, one ok: its card is folded until asked for
    assert len(d.parts["Why"].results) == 3 and sum(c[0].visible for c in d.parts["Why"].cards) == 2
    assert d.parts["Why"].note.object.count("1 of 3 ok") == 1
    d.parts["Why"].show_ok.value = True
    assert sum(c[0].visible for c in d.parts["Why"].cards) == 3
    d.parts["Why"].show_cut(2)
    assert "cut" in d.plot.hl_nodes.data["role"]


def test_breakpoints(events):
    d = ui.Dashboard(events)
    d.parts["Backward"].run_to("zero")             # no all-zero gradient here: the player stays
    assert "breakpoint not reached" in d.parts["Backward"].step_view.object
    key = next(k for k, op in zip(d.plot.keys, d.plot.nodes.data["op"]) if op == "Mul")
    d.plot.select(key)
    d.parts["Backward"].run_to("node")
    assert d.parts["Backward"].step_view.object.split("</div>")[0].endswith("Mul")


def test_a_failing_view_shows_its_error_only(events, monkeypatch):
    d = ui.Dashboard(events)

    def boom(force=False):
        raise ValueError("broken <b>view</b>")
    monkeypatch.setattr(d.parts["Jacobian"], "refresh", boom)
    d.refresh()
    alert = d.parts["Jacobian"].alert
    assert alert.visible and "&lt;b>view" in alert.object
    assert not d.parts["Graph"].alert.visible and d.plot.keys


def test_sources(events, tmp_path):
    class Tape:
        def _tapeviz_event_source(self):
            return ListSource(events)
    assert as_source(Tape()).poll() == events
    src = ListSource(events, batch=5)
    assert len(src.poll()) == 5 and not src.ended
    with pytest.raises(TypeError):
        as_source(42)
    path = tmp_path / "run.tvz"
    from tapeviz.recording import record
    with record(path, full=True):
        sample_program()
    d = ui.show(path)
    assert d.state.title == "run.tvz" and d.store.n_events > 10


def test_show_after_the_gradient_call_still_has_the_graph_and_its_steps(monkeypatch):
    """The notebook habit: `grads = tape.gradient(...)` in one cell, `tape.show()` in the next,
    on a one-shot tape (which, as TensorFlow's, cannot differentiate a second time)."""
    monkeypatch.setattr(tv.config, "keep_values", True)      # the default in notebooks
    x = tv.Variable(2.0, name="x")
    with tv.GradientTape() as tape:
        y = tv.sin(x) * x
    g = tape.gradient(y, x)
    d = tape.show()
    d.refresh()
    call = d.store.calls[d.state.call]
    assert sorted(op["op"] for op in d.store.ops.values()) == ["Mul", "Sin"]
    assert [s["op"] for s in call["steps"]] == ["Mul", "Sin"]
    assert call["method"] == "gradient" and call["site"]["code"] == "g = tape.gradient(y, x)"
    np.testing.assert_allclose(call["results"][0]["grad"]["value"], g.numpy())
    np.testing.assert_allclose(g.numpy(), np.cos(2.0) * 2.0 + np.sin(2.0), rtol=1e-6)


def test_show_of_a_tape_that_freed_its_values_draws_its_lineage(monkeypatch):
    """In a script (`keep_values` off) a one-shot tape frees its values at `gradient`: the view
    still draws its ops and lines, with the answer and why, and says the values were not kept."""
    monkeypatch.setattr(tv.config, "keep_values", False)
    x = tv.Variable(2.0, name="x")
    with tv.GradientTape() as tape:
        y = tv.sin(x) * x
    tape.gradient(y, x)
    d = tape.show()
    d.refresh()
    assert sorted(op["op"] for op in d.store.ops.values()) == ["Mul", "Sin"]
    call = d.store.calls[d.state.call]
    assert call["steps"] == [] and call["results"][0]["verdict"] == "value"
    sin = next(n["key"] for n in d.plot.graph["nodes"] if n.get("op") == "Sin")
    d.plot.select(sin)
    assert "(not kept)" in d.parts["Inspector"].html.object and "y = tv.sin(x) * x" in d.parts["Inspector"].html.object
    assert not any(p.alert.visible for p in d.parts.values())


def test_show_is_a_notebook_object(events):
    import panel as pn
    obj = ui.show(events)
    assert isinstance(obj, pn.viewable.Viewer)
    bundle = pn.panel(obj)._repr_mimebundle_()[0]
    assert "application/vnd.holoviews_exec.v0+json" in bundle


@pytest.mark.slow
def test_cli_help_and_missing_file(tmp_path):
    out = subprocess.run([sys.executable, "-m", "tapeviz.cli", "serve", str(tmp_path / "no.tvz"),
                          "--port", "0"], capture_output=True, text=True, cwd=ROOT,
                         env=env_with_repo(), timeout=120)
    assert out.returncode != 0 and "no such recording" in (out.stdout + out.stderr)
    out = subprocess.run([sys.executable, "-m", "tapeviz.cli", "--help"], capture_output=True,
                         text=True, cwd=ROOT, env=env_with_repo(), timeout=120)
    assert all(w in out.stdout for w in ("serve", "run", "export", "gallery"))


@pytest.mark.slow
def test_tapeviz_run_records_the_script_and_serves_it(tmp_path):
    import queue
    import re
    import threading
    import time
    import urllib.request
    script = tmp_path / "train.py"
    script.write_text("import tapeviz as tv\nx = tv.Variable(1.0, name='x')\n"
                      "with tv.GradientTape() as t:\n    y = x * x\nt.gradient(y, x)\n")
    proc = subprocess.Popen([sys.executable, "-m", "tapeviz.cli", "run", "--port", "0", str(script)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
                            env=env_with_repo())
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l) for l in proc.stdout], daemon=True).start()
    try:
        log, url, rec = [], None, None
        deadline = time.time() + 120
        while url is None and time.time() < deadline:
            try:
                log.append(lines.get(timeout=0.5))
            except queue.Empty:
                assert proc.poll() is None, "".join(log)
                continue
            m = re.search(r"recording to (\S+\.tvz)", log[-1])
            rec = rec or (m and m.group(1))
            m = re.search(r"(http://127\.0\.0\.1:\d+/)", log[-1])
            url = m and m.group(1)
        assert url and rec, "".join(log)
        assert "bound to 127.0.0.1" in "".join(log)
        assert wait_live(url), "".join(log)
        with urllib.request.urlopen(url, timeout=60) as r:
            assert r.status == 200 and b"bokeh" in r.read().lower()
        from tapeviz.recording import load_recording
        for _ in range(300):
            try:
                if load_recording(rec).complete:
                    break
            except Exception:
                pass
            time.sleep(0.2)
        assert "gradient_finished" in {e.kind for e in load_recording(rec)}
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_training_chart_selects_a_call_and_toggles_log_scale():
    def loop():
        import tapeviz as tv
        x = tv.Variable(2.0, name="x")
        for step in range(4):
            with tv.GradientTape() as t:
                loss = x * x
            g = t.gradient(loss, x)
            x.assign_sub(0.1 * g)
            ev.log_scalar("loss", float(loss), step)
    d = ui.Dashboard(run_events(loop))
    tr = d.parts["Training"]
    assert not tr.built             # a hidden tab is not drawn
    d.bottom.active = 1                              # as a click on the Training tab does
    src = tr.vars[next(iter(tr.vars))]["src"]
    assert len(src.data["x"]) == 4 and tr.scalars is not None
    first_call = src.data["call"][0]
    src.selected.indices = [0]                   # as a click on the first point does
    assert d.state.call == first_call and d.state.tape == d.store.calls[first_call]["tape"]
    assert tr.norm_figs["log"].visible and not tr.norm_figs["linear"].visible
    tr.log.value = False
    assert tr.norm_figs["linear"].visible and not tr.norm_figs["log"].visible


def test_code_block_names_the_function_only_when_known(tmp_path):
    from tapeviz.ui.render.html import code_block
    src = str(tmp_path / "prog.py")
    carried = {src: {1: "a = 1", 2: "b = a + 1", 3: "c = b * 2"}}
    with_func = code_block({"file": src, "line": 2, "func": "<module>"}, lines_of=carried.get)
    assert "prog.py:2 in &lt;module&gt;</div>" in with_func and "b = a + 1" in with_func
    without = code_block({"file": src, "line": 2, "func": ""})   # a Why card's site
    assert "prog.py:2</div>" in without and " in " not in without.split("</div>")[0]


def test_a_click_on_a_scope_box_closes_it_and_a_click_on_the_box_opens_it():
    def program():
        import tapeviz as tv
        w = tv.Variable([[1.0, 2.0]], name="w")
        with tv.GradientTape() as tape:
            with tv.name_scope("layer"):
                y = tv.reduce_sum(tv.matmul(tv.constant([[1.0], [2.0]]), w))
            z = y * y
        tape.gradient(z, w)
    d = ui.Dashboard(run_events(program))
    keys = list(d.plot.keys)
    box = next(k for k in d.plot.clusters.data["key"] if k.endswith("scope:layer"))
    w = next(k for k, n in zip(d.plot.keys, d.plot.nodes.data["name"]) if n.startswith("w:"))
    d.plot.box_clicked = box                  # as a click on the box, off its nodes, does
    assert "grp:scope:layer" in d.plot.keys and w not in d.plot.keys      # w is inside
    d.plot.select("grp:scope:layer")          # a click on the closed box
    assert sorted(d.plot.keys) == sorted(keys)


def _sqrt_fit_turns_nan():
    # err = sqrt(w² - 1) has gradient w / sqrt(w² - 1): SGD walks w down from 2 until w² < 1,
    # the root's input is negative, NaN reaches w, and every later step's card is nan_input
    # pointing back at the call where the NaN began
    w = tv.Variable([2.0], name="w")
    opt = tv.keras.optimizers.SGD(0.2)
    for _ in range(30):
        with tv.GradientTape() as tape:
            err = tv.sqrt(tv.reduce_mean(tv.square(w)) - 1.0)
        (g,) = tape.gradient(err, [w])
        opt.apply_gradients([(g, w)])


def test_a_nan_input_card_goes_to_the_call_where_nan_began_though_its_tape_is_old():
    events = run_events(_sqrt_fit_turns_nan)
    d = ui.Dashboard(events, max_tapes=6, max_calls=6)
    finished = [e for e in events if e.kind == "gradient_finished"]
    first_nan = next(e.call for e in finished if e.results[0]["verdict"] == "nan")
    assert finished[-1].results[0]["cause"] == "nan_input"
    assert finished[-1].call - first_nan > 5        # its tape would have been dropped
    assert d.state.call == finished[-1].call
    origin = d.parts["Why"].origin_buttons[0]
    assert origin.visible and origin.label == f"Go to gradient call {first_nan}"
    origin.clicks += 1                              # as a click does
    assert d.state.call == first_nan and d.state.tape == d.store.calls[first_nan]["tape"]
    (card,) = d.parts["Why"].results
    assert card["cause"] == "nan_origin" and "at Sqrt" in card["message"]
    assert "Its input was below 0" in card["message"]
    assert "Sqrt" in d.plot.nodes.data["op"]


def _badges(d) -> list:
    import re
    return re.findall(r'class="tv-badge[^"]*"[^>]*>([^<]*)<', d.live.status.object)


def test_only_a_tape_still_recording_is_live():
    """`tape.show()` after the `with` block: the tape is finished, the view is not live (it
    still shows a later call); opened inside the block, it is live until the block exits."""
    x = tv.Variable(2.0, name="x")
    with tv.GradientTape(persistent=True) as tape:
        y = x * x
        inside = tape.show()
        assert _badges(inside) == ["live"]
    after = tape.show()
    assert _badges(after) == ["tape finished"]
    inside.live.feed.pump(budget=None, force=True)   # what its polling does once a redraw is due:
    inside.refresh(force=True)                  # it sees the block exit
    assert _badges(inside) == ["tape finished"]
    tape.gradient(y, x)
    after.live.feed.pump(budget=None, force=True)
    after.refresh(force=True)
    assert len(after.store.calls) == 1 and _badges(after) == ["tape finished"]
    del tape


def _a_loss_term_in_numpy():
    import numpy as np
    import tapeviz as tv
    w = tv.Variable([1.0, -2.0], name="w")
    k = tv.Variable(0.5, name="k")
    with tv.GradientTape() as tape:
        p = tv.sigmoid(tv.reduce_sum(w) * k)
        loss = -tv.reduce_mean(np.log(p)) + 0.1 * k * k     # np.log: w gets None, k only 0.1 k²'s
    tape.gradient(loss, [w, k])


def test_the_why_summary_says_run_notes_follow_the_cards():
    # k reads ok though its gradient lacks the log term: the line above the cards says a run
    # note follows, on the served tab and in the export's cards
    from tapeviz.ui.render.cards import why_cards_html
    d = ui.Dashboard(run_events(_a_loss_term_in_numpy))
    assert [n["code"] for n in d.store.notes] == ["escaped_loss_term"]
    summary = d.parts["Why"].note.object
    assert "1 of 2 ok" in summary and "1 None" in summary and "1 run note below" in summary
    results = d.store.calls[d.state.call]["results"]
    assert "1 run note below" in why_cards_html(d.store, results)
    plain = ui.Dashboard(run_events(sample_program))
    assert "run note" not in plain.parts["Why"].note.object
