"""The Training and Jacobian tabs on broken runs, in a real browser (tapeviz serve + chromium):
every gradient norm is drawn or marked (NaN, Inf, None, zero: a band under the plot), a NaN
loss is marked, loss and accuracy get their own axes, every variable is drawn, the Jacobian
heatmaps draw their cells, a live view follows the newest tape, a point whose tape was dropped
says so, the wheel zooms a chart only once it was clicked, and the x axes tick whole calls.

Truths come from the scripts' hand-marked comments (tests/broken_runs/) and from the
recordings' own events, read straight from the files."""
from __future__ import annotations

import importlib.util
import pathlib
import subprocess
import sys
import time

import pytest

from conftest import ROOT, env_with_repo, node_data, open_dashboard, record_program

pytestmark = pytest.mark.browser
CORPUS = ROOT / "tests" / "broken_runs"
LABEL = {"nan": "NaN", "inf": "Inf", "none": "None", "zero": "zero"}


def _truths(script):
    spec = importlib.util.spec_from_file_location("broken_runs_truths",
                                                  ROOT / "tests" / "test_broken_runs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.truths(script)


def _record_script(path: pathlib.Path, out_dir: pathlib.Path) -> pathlib.Path:
    out = out_dir / (path.stem + ".tvz")
    proc = subprocess.run([sys.executable, str(path)], cwd=out_dir, capture_output=True,
                          text=True, timeout=180,
                          env=env_with_repo(TAPEVIZ_RECORD=str(out), TAPEVIZ_RECORD_FULL="1"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


def _events(path, kind):
    from tapeviz.recording import load_recording
    return [e for e in load_recording(str(path)) if e.kind == kind]


def _open_tab(page, url, tab):
    open_dashboard(page, url)
    page.locator(".bk-tab", has_text=tab).first.click()


def _wait_model(page, name, timeout=90_000):
    page.wait_for_function(f"() => Bokeh.documents[0].get_model_by_name('{name}') !== null",
                           timeout=timeout)


def _sources(page, prefix):
    """The data of every named source whose name starts with ``prefix``."""
    return page.evaluate("""(prefix) => {
        const out = {};
        for (const m of Bokeh.documents[0].all_models) {
            if (m.name && m.name.startsWith(prefix) && m.data) {
                const o = {}; for (const k in m.data) o[k] = Array.from(m.data[k]);
                out[m.name] = o; } }
        return out; }""", prefix)


def _text_of(page, selector):
    return page.locator(selector).first.evaluate(
        "e => e.shadowRoot ? e.shadowRoot.textContent : e.textContent")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("broken")
    return {name: _record_script(CORPUS / f"{name}.py", d)
            for name in ("mlp_three_bugs", "dead_layer_in_loop")}


def test_broken_norms_are_marked_in_the_band_never_dropped(serve, runs, watched_page):
    """mlp_three_bugs: a dead ReLU layer (zero), a .numpy() escape (None every call), a NaN
    from call 3 on. Each marked truth is a marker in its row of the band, at its call, and
    every (call, variable) of the recording is drawn on the log plot or marked."""
    page, watch = watched_page
    path = runs["mlp_three_bugs"]
    finished = _events(path, "gradient_finished")
    call_ids = [e.call for e in finished]
    _open_tab(page, serve(path).url, "Training")
    _wait_model(page, "norm_band_nan")
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('norm_band_none')"
                           ".data.x.length > 0")
    band = _sources(page, "norm_band_")
    marked = {(LABEL[k], name, call) for k in LABEL
              for name, call in zip(band[f"norm_band_{k}"]["name"], band[f"norm_band_{k}"]["call"])}
    checked = 0
    for source, verdict, _cause, options, _line in _truths(CORPUS / "mlp_three_bugs.py"):
        if verdict not in LABEL:
            continue
        which = options.get("call", "last")
        picks = (call_ids if which == "all" else [call_ids[-1]] if which == "last"
                 else [call_ids[0]] if which == "first" else [call_ids[int(which) - 1]])
        for call in picks:
            assert (LABEL[verdict], source, call) in marked, (source, verdict, call, sorted(marked))
            checked += 1
    assert checked >= 8
    # never dropped: each result of each call is a point on the log plot or a marker
    points = _sources(page, "norm_points_")
    drawn = sum(1 for d in points.values() for y in d["y_log"] if y == y)   # not NaN
    n_marked = sum(len(d["x"]) for d in band.values())
    assert drawn + n_marked == sum(len(e.results) for e in finished), (drawn, n_marked)
    # one legend entry per kind of marker, with its count
    labels = page.evaluate("""() => { const out = [];
        for (const m of Bokeh.documents[0].all_models)
            if (m.label && m.renderers && m.label.value !== undefined) out.push(m.label.value);
        return out; }""")
    for kind in ("NaN", "Inf", "None", "zero"):
        assert any(label.startswith(kind + " (") for label in labels), labels
    watch.check()


SCALARS = """\
import numpy as np
import tapeviz as tv
rng = np.random.default_rng(12)
x = tv.constant(rng.normal(size=(64, 5)).astype(np.float32))
y = tv.constant((rng.normal(size=(64, 1)) > 0).astype(np.float32))
w = tv.Variable(rng.normal(size=(5, 1)).astype(np.float32), name="dense/kernel")
b = tv.Variable(tv.zeros([1]), name="dense/bias")
for step in range(30):
    lr = 0.05 if step < 20 else 1e18          # the schedule's last stage: NaN follows
    with tv.GradientTape() as tape:
        loss = tv.reduce_mean(tv.square(x @ w + b - y))
    grads = tape.gradient(loss, [w, b])
    acc = float(np.mean(((x @ w + b).numpy() > 0.5) == (y.numpy() > 0.5)))
    tv.events.log_scalar("loss", float(loss), step)
    tv.events.log_scalar("accuracy", acc, step)
    for g, v in zip(grads, [w, b]):
        v.assign_sub(lr * g)
"""


def test_nan_loss_is_marked_and_loss_and_accuracy_have_their_own_axes(serve, tmp_path,
                                                                       watched_page):
    page, watch = watched_page
    path = record_program(tmp_path, "scalars", SCALARS)
    scalars = _events(path, "scalar")
    nan_steps = sorted(e.step for e in scalars if e.name == "loss" and str(e.value) == "nan")
    assert nan_steps, "the program was meant to end in a NaN loss"
    _open_tab(page, serve(path).url, "Training")
    _wait_model(page, "scalar_band_nan")
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('scalar_band_nan')"
                           ".data.x.length > 0")
    nan = node_data(page, "scalar_band_nan")
    assert sorted(s for s, n in zip(nan["x"], nan["name"]) if n == "loss") == nan_steps
    # loss and accuracy: two plots, so two y axes
    owners = page.evaluate("""() => { const out = {};
        for (const m of Bokeh.documents[0].all_models)
            if (m.name && m.name.startsWith('scalars_') && m.renderers)
                for (const r of m.renderers)
                    if (r.data_source && r.data_source.name) out[r.data_source.name] = m.name;
        return out; }""")
    loss_src = next(n for n, d in _sources(page, "scalar_points_").items() if d["name"][0] == "loss")
    acc_src = next(n for n, d in _sources(page, "scalar_points_").items()
                   if d["name"][0] == "accuracy")
    assert owners[loss_src] != owners[acc_src], owners
    watch.check()


def _frame_png(page, fig_name):
    """A PNG of the plotting frame (inside the axes) of the figure named ``fig_name``."""
    box = page.evaluate("""(name) => {
        const v = Bokeh.index.find_one_by_id(Bokeh.documents[0].get_model_by_name(name).id);
        const r = v.canvas_view.el.getBoundingClientRect(), f = v.frame.bbox;
        return {x: r.left + f.left + 2, y: r.top + f.top + 2, width: f.width - 4,
                height: f.height - 4}; }""", fig_name)
    return page.screenshot(clip=box)


def test_jacobian_heatmaps_draw_their_cells(serve, tmp_path, watched_page):
    """The gallery's jacobian/hessian demo: the heatmap's cells hold the recorded values of the
    call it names, sit inside the plot's ranges, and colour its frame."""
    import io
    from PIL import Image
    page, watch = watched_page
    path = _record_script(ROOT / "demos" / "14_jacobian_hessian.py", tmp_path)
    _open_tab(page, serve(path).url, "Jacobian")
    _wait_model(page, "jacobian")
    page.wait_for_timeout(1000)
    image = Image.open(io.BytesIO(_frame_png(page, "jacobian"))).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 16) or []
    white = sum(n for n, c in colours if c == (255, 255, 255))
    assert white < 0.5 * image.width * image.height, "the heatmap's frame is mostly blank"
    assert len({c for n, c in colours if n > 20}) >= 2, colours[:5]
    # the cells hold the recorded values of the call the tab names, inside the plot's ranges
    header = page.get_by_text("(call ").first.inner_text()
    call = int(header.split("(call ")[1].split(",")[0])
    result = next(e for e in _events(path, "gradient_finished") if e.call == call).results[0]

    def flat(v):
        return [x for item in v for x in flat(item)] if isinstance(v, list) else [float(v)]
    cells = node_data(page, "jacobian_cells")
    assert cells["value"] == pytest.approx(flat(result["grad"]["value"]))
    ranges = page.evaluate("""() => { const f = Bokeh.documents[0].get_model_by_name('jacobian');
        return [f.x_range.start, f.x_range.end, f.y_range.start, f.y_range.end]; }""")
    x_lo, x_hi = sorted(ranges[:2])
    y_lo, y_hi = sorted(ranges[2:])
    assert all(x_lo < x < x_hi for x in cells["x"]) and all(y_lo < y < y_hi for y in cells["y"])
    watch.check()


LIVE = """\
import sys, time
import tapeviz as tv
from tapeviz.recording import record

with record(sys.argv[1], full=True):
    w = tv.Variable(1.0, name="w")
    for step in range(8):
        with tv.GradientTape() as tape:
            loss = w * w
        g = tape.gradient(loss, w)
        w.assign_sub(0.1 * g)
        time.sleep(0.6)
"""


def _tape_shown(page):
    return page.evaluate("""() => { for (const m of Bokeh.documents[0].all_models)
        if (m.title === 'Tape' && m.options !== undefined) return String(m.value); }""")


def test_live_view_follows_the_newest_tape(serve, tmp_path, watched_page):
    """The page is open before the run writes its first tape: it shows each new tape as it
    comes, and the last one when the run ends (it stayed on tape 1)."""
    page, watch = watched_page
    script, path = tmp_path / "live.py", tmp_path / "live.tvz"
    script.write_text(LIVE)
    server = serve(path, "--follow")
    open_dashboard_early = page.goto(server.url)
    page.wait_for_function("() => window.Bokeh && Bokeh.documents.length > 0")
    producer = subprocess.Popen([sys.executable, str(script), str(path)], env=env_with_repo())
    try:
        deadline, status = time.time() + 90, ""
        while time.time() < deadline and "stream ended" not in status:
            time.sleep(0.5)
            status = _text_of(page, ".tv-status")
        assert "stream ended" in status, status[-300:]
        assert producer.wait(timeout=30) == 0
    finally:
        if producer.poll() is None:
            producer.kill()
    last = max(e.tape for e in _events(path, "gradient_finished"))
    deadline = time.time() + 20
    while _tape_shown(page) != str(last) and time.time() < deadline:
        time.sleep(0.3)
    assert _tape_shown(page) == str(last), (open_dashboard_early, _tape_shown(page), last)
    watch.check()


MANY_TAPES = """\
import tapeviz as tv
w = tv.Variable(2.0, name="w")
for step in range(60):
    with tv.GradientTape() as tape:
        loss = w * w
    w.assign_sub(0.01 * tape.gradient(loss, w))
"""


def _point_xy(page, fig_name, i):
    """Where point ``i`` of the first variable's norms is on the page (scrolled into view)."""
    return page.evaluate("""([fig, i]) => {
        const d = Bokeh.documents[0];
        const s = Array.from(d.all_models).find(m => m.name && m.name.startsWith("norm_points"));
        const v = Bokeh.index.find_one_by_id(d.get_model_by_name(fig).id);
        v.canvas_view.el.scrollIntoView({block: "center"});
        const r = v.canvas_view.el.getBoundingClientRect();
        return [r.left + v.frame.x_scale.compute(s.data.x[i]),
                r.top + v.frame.y_scale.compute((s.data.y_log || s.data.y)[i])]; }""", [fig_name, i])


def _wait_points(page, n):
    page.wait_for_function("""(n) => { const s = Array.from(Bokeh.documents[0].all_models).find(
        m => m.name && m.name.startsWith('norm_points'));
        return s !== undefined && s.data.x.length === n; }""", arg=n, timeout=90_000)


def _x_range(page, fig_name):
    return page.evaluate(f"""() => {{ const f = Bokeh.documents[0].get_model_by_name('{fig_name}');
        return [f.x_range.start, f.x_range.end]; }}""")


@pytest.fixture(scope="module")
def many_tapes(serve, tmp_path_factory):
    return serve(record_program(tmp_path_factory.mktemp("many"), "many_tapes", MANY_TAPES))


def test_a_point_whose_tape_was_dropped_says_so(many_tapes, watched_page):
    """60 healthy tapes, 50 held: the first three calls are the run's story and stay; the
    oldest of the rest go first, so the fourth call's point says its tape is not held; the
    last call's point opens that call."""
    page, watch = watched_page
    _open_tab(page, many_tapes.url, "Training")
    _wait_points(page, 60)
    page.mouse.click(*_point_xy(page, "norms_log", 3))
    note = page.locator(".tv-chart-note", has_text="not held")
    note.first.wait_for()
    assert "Gradient call 4 (tape 4) is not held" in _text_of(page, ".tv-chart-note")
    page.mouse.click(*_point_xy(page, "norms_log", 55))
    page.wait_for_function("""() => { for (const m of Bokeh.documents[0].all_models)
        if (m.title === 'Gradient call' && m.options !== undefined)
            return String(m.value) === '56'; }""")
    page.locator(".tv-chart-note").first.wait_for(state="hidden")
    watch.check()


def test_the_wheel_zooms_a_chart_only_once_it_was_clicked(many_tapes, watched_page):
    page, watch = watched_page
    _open_tab(page, many_tapes.url, "Training")
    _wait_points(page, 60)
    where = """() => {
        const v = Bokeh.index.find_one_by_id(Bokeh.documents[0].get_model_by_name('norms_log').id);
        v.canvas_view.el.scrollIntoView({block: "center"});
        const r = v.canvas_view.el.getBoundingClientRect(), f = v.frame.bbox;
        return [r.left + f.left + f.width / 2, r.top + f.top + 8]; }"""
    box = page.evaluate(where)
    page.wait_for_timeout(500)
    before = _x_range(page, "norms_log")
    page.mouse.move(*box)
    page.mouse.wheel(0, -400)
    page.wait_for_timeout(500)
    assert _x_range(page, "norms_log") == before, "the wheel zoomed a chart nobody clicked"
    box = page.evaluate(where)
    page.mouse.click(*box)
    page.mouse.wheel(0, -400)
    page.wait_for_timeout(500)
    after = _x_range(page, "norms_log")
    assert after[1] - after[0] < before[1] - before[0], (before, after)
    # the pointer leaves the chart and comes back: the wheel scrolls the page again
    page.mouse.move(box[0], box[1] - 200)
    page.mouse.move(*page.evaluate(where))
    page.mouse.wheel(0, -400)
    page.wait_for_timeout(500)
    assert _x_range(page, "norms_log") == after, "the wheel still zooms after the pointer left"
    watch.check()


def test_training_tab_says_loading_not_no_calls_while_it_draws(many_tapes, watched_page):
    page, watch = watched_page
    open_dashboard(page, many_tapes.url)
    assert page.get_by_text("No gradient calls").count() == 0
    assert page.get_by_text("Loading the charts").count() == 1
    page.locator(".bk-tab", has_text="Training").first.click()
    page.get_by_text("60 gradient calls").first.wait_for()
    watch.check()


def test_every_variable_is_drawn_and_a_picker_shows_some(serve, runs, watched_page):
    """dead_layer_in_loop: 21 variables (at most 10 were drawn): each has its line and legend
    entry; past 12 a picker narrows the plot and legend to the picked ones."""
    page, watch = watched_page
    names = [r["tensor"]["name"].split(":")[0]
             for r in _events(runs["dead_layer_in_loop"], "gradient_finished")[-1].results]
    assert len(names) == 21
    _open_tab(page, serve(runs["dead_layer_in_loop"]).url, "Training")
    _wait_model(page, "norm_points_20")
    legend = """() => { const f = Bokeh.documents[0].get_model_by_name('norms_log');
        return f.right.filter(m => m.items !== undefined)[0].items.map(i => i.label.value); }"""
    assert sorted(page.evaluate(legend)) == sorted(names)
    drawn = {d["name"][0].split(":")[0] for d in _sources(page, "norm_points_").values()}
    assert drawn == set(names)
    picker = page.locator(".choices input").first
    picker.click()
    page.locator(".choices__list--dropdown .choices__item", has_text="head").first.click()
    page.wait_for_function(legend.replace("return f.right", "return f.right").replace(
        ".map(i => i.label.value); }", ".length === 1; }"))
    assert page.evaluate(legend) == ["head"]
    watch.check()


THREE_CALLS = """\
import tapeviz as tv
w = tv.Variable([1.0, -2.0], name="w")
for step in range(3):
    with tv.GradientTape() as tape:
        loss = tv.reduce_sum(w * w)
    w.assign_sub(0.1 * tape.gradient(loss, w))
    tv.events.log_scalar("loss", loss, step)
"""


def test_the_x_axes_tick_whole_gradient_calls(serve, tmp_path, watched_page):
    """A run of three gradient calls: the norm plots and their band count calls, whole
    numbers, so their x axes tick 1, 2, 3, never 1.5 between two calls (as they did); the
    major ticks as BokehJS laid them out on the page."""
    page, watch = watched_page
    path = record_program(tmp_path, "three_calls", THREE_CALLS)
    calls = [e.call for e in _events(path, "gradient_finished")]
    _open_tab(page, serve(path).url, "Training")
    _wait_model(page, "norm_band_nan")
    ticks = page.evaluate("""(names) => {
        const out = {};
        for (const name of names) {
            const fig = Bokeh.documents[0].get_model_by_name(name);
            const view = Bokeh.index.find_one_by_id(fig.id);
            const axis = [...view.renderer_views.values()].find(v => v.model === fig.below[0]);
            out[name] = Array.from(axis.tick_coords.major[0]); }
        return out; }""", ["norms_log", "norms_linear", "norm_band"])
    for name, xs in ticks.items():
        assert xs, name
        assert all(x == int(x) for x in xs), (name, xs)
        assert min(calls) - 1 <= min(xs) and max(xs) <= max(calls) + 1, (name, xs, calls)
    watch.check()
