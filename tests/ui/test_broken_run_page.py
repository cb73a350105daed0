"""The dashboard on runs of the broken-runs corpus (tests/broken_runs/), in a real browser:
the graph marks where each problem starts, and the page leads to the explanation. The truth
is the one marked by hand in each script's comments."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from conftest import env_with_repo, node_data, open_dashboard

pytestmark = pytest.mark.browser
CORPUS = pathlib.Path(__file__).resolve().parents[1] / "broken_runs"


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    """broken(name): the recording of tests/broken_runs/name.py (made once per module)."""
    d = tmp_path_factory.mktemp("broken")
    made = {}

    def record(name):
        if name not in made:
            out = d / f"{name}.tvz"
            proc = subprocess.run([sys.executable, str(CORPUS / f"{name}.py")], cwd=d,
                                  capture_output=True, text=True, timeout=180,
                                  env=env_with_repo(TAPEVIZ_RECORD=str(out), TAPEVIZ_RECORD_FULL="1"))
            assert proc.returncode == 0, proc.stdout + proc.stderr
            made[name] = out
        return made[name]
    return record


@pytest.fixture(scope="module")
def mlp(serve, broken):
    return serve(broken("mlp_three_bugs"))


def _choose_tape(page, number):
    """Pick tape ``number`` in the Tape selector, as a user does, and wait for its graph."""
    select = page.locator("select").first
    label = next(o for o in select.locator("option").all_inner_texts()
                 if o.startswith(f"tape {number} "))
    # (each tape records its own ops: wait until no op of the tape shown before is drawn)
    before = [k for k in node_data(page)["key"] if k.startswith("op")]
    select.select_option(label=label)
    page.wait_for_function("(old) => { const k = Bokeh.documents[0].get_model_by_name('nodes')"
                           ".data.key; return k.some(x => x.startsWith('op')) &&"
                           " !k.some(x => old.includes(x)); }", arg=before)


def _flagged(page):
    """(op, name, flag) of every node outlined as a problem."""
    data = node_data(page)
    return [(op, name, f) for op, name, f in zip(data["op"], data["name"], data["flag"]) if f]


def _export(recording, out):
    """`tapeviz export recording -o out`, as a user runs it; returns ``out``."""
    proc = subprocess.run([sys.executable, "-m", "tapeviz.cli", "export", str(recording),
                           "-o", str(out)], capture_output=True, text=True, timeout=300,
                          env=env_with_repo())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


def test_the_graph_marks_the_dead_relu_and_the_first_nan(mlp, watched_page):
    page, watch = watched_page
    open_dashboard(page, mlp.url)
    # truth: call 1, w1/b1/v zero dead_relu op=Relu
    _choose_tape(page, 1)
    assert [(op, f) for op, _, f in _flagged(page)] == [("Relu", "dead_relu")]
    # truth: call 3, w2/v nan nan_origin op=Log
    _choose_tape(page, 3)
    assert [(op, f) for op, _, f in _flagged(page)] == [("Log", "nonfinite")]
    # call 4 reads the weights the optimizer filled with NaN: the NaN enters through them, it
    # was not made there (truth: w2/v nan nan_input call=4, at the update's line)
    _choose_tape(page, 4)
    assert {(op, f) for op, _, f in _flagged(page)} == {("Variable", "nonfinite_input")}
    problems = {n: p for n, p in zip(node_data(page)["name"], node_data(page)["problem"]) if p}
    assert problems["w2:0"] == "held NaN / Inf before this tape", problems
    legend = page.evaluate("() => Bokeh.documents[0].get_model_by_name('legend').items"
                           ".map(i => i.label.value)")
    assert {"first NaN / Inf made here", "held NaN / Inf before this tape",
            "dead ReLU (all outputs zero)"} <= set(legend)
    watch.check()


def test_numpy_of_a_variable_is_a_ghost_with_a_cut_edge(mlp, watched_page):
    page, watch = watched_page
    open_dashboard(page, mlp.url)
    # truth: b2 none numpy_escape call=all (b2.numpy(): b2 is read by no op of the tape)
    for tape in (1, 5):
        if tape != 5:
            _choose_tape(page, tape)
        data, edges = node_data(page), node_data(page, "edges")
        b2 = data["key"][data["name"].index("b2:0")]
        ghosts = [data["key"][i] for i, k in enumerate(data["kind"]) if k == "escaped"]
        cut = [(t, h) for t, h, c in zip(edges["tail"], edges["head"], edges["cut"]) if c]
        assert any((b2, g) in cut for g in ghosts), (tape, ghosts, cut)
    watch.check()


def test_scalar_edges_say_scalar(mlp, watched_page):
    page, watch = watched_page
    open_dashboard(page, mlp.url)
    texts = node_data(page, "edge_labels")["text"]
    assert "scalar" in texts and "()" not in texts, texts      # Mean -> Neg carries a scalar
    watch.check()


def test_each_layers_variables_sit_in_its_layer(serve, broken, watched_page):
    page, watch = watched_page
    open_dashboard(page, serve(broken("sequential_six_layers")).url)
    data, boxes = node_data(page), node_data(page, "clusters")
    layers = [i for i, label in enumerate(boxes["label"]) if "/dense" in label]
    assert len(layers) == 6
    checked = 0
    for i in layers:
        layer = boxes["label"][i].split("/")[-1]
        for j, name in enumerate(data["name"]):
            if name.startswith(f"{layer}/"):              # dense_2/kernel:0, dense_2/bias:0
                assert (boxes["left"][i] < data["x"][j] < boxes["right"][i] and
                        boxes["bottom"][i] < data["y"][j] < boxes["top"][i]), (name, layer)
                # beside the op that reads it (the kernel's MatMul, the bias's AddV2)
                reader = "MatMul" if "kernel" in name else "AddV2"
                assert any(op == reader and y == data["y"][j] and
                           boxes["left"][i] < x < boxes["right"][i]
                           for op, x, y in zip(data["op"], data["x"], data["y"])), name
                checked += 1
    assert checked == 2 * 6, (checked, data["name"])      # each layer's kernel and bias
    watch.check()


def _top(page, text, selector=".bk-tab"):
    return page.locator(selector, has_text=text).first.bounding_box()["y"]


def test_a_nan_or_none_opens_on_why_and_the_tables_stay_in_reach(mlp, watched_page):
    page, watch = watched_page
    page.set_viewport_size({"width": 1600, "height": 1000})
    open_dashboard(page, mlp.url)
    # the last call: w1, b1, w2, v NaN (the optimizer wrote them), b2 None (b2.numpy())
    summary = page.locator(".tv-why-summary")
    summary.wait_for()
    assert summary.inner_text().startswith("0 of 5 ok")
    active = page.locator(".bk-tab.bk-active").all_inner_texts()
    assert "Why" in active, active
    # five cards, each with its own height: the tables below the graph stay on the screen
    assert page.locator(".tv-why-name").count() == 5
    assert _top(page, "Variables") < 1000 - 100
    watch.check()


def test_ok_cards_are_folded_under_the_summary(mlp, watched_page):
    page, watch = watched_page
    open_dashboard(page, mlp.url)
    _choose_tape(page, 1)
    # call 1: w2 ok (truth: w2 value ok call=1), the other four are not
    page.locator(".tv-why-summary", has_text="1 of 5 ok").wait_for()
    names = page.locator(".tv-why-name")
    shown = lambda: [names.nth(i).inner_text() for i in range(names.count())  # noqa: E731
                     if names.nth(i).is_visible()]
    assert len(shown()) == 4 and not any(t.startswith("w2") for t in shown()), shown()
    page.locator(".tv-why-ok").get_by_text("show the 1 ok source").click()
    names.filter(has_text="w2").first.wait_for(state="visible")
    assert len(shown()) == 5
    watch.check()


def test_show_on_graph_brings_the_graph_into_view(mlp, watched_page):
    page, watch = watched_page
    page.set_viewport_size({"width": 1600, "height": 700})
    open_dashboard(page, mlp.url)
    page.locator(".tv-why-summary").wait_for()
    figure = "() => Bokeh.index.find_one_by_id(Bokeh.documents[0].get_model_by_name('dag').id)" \
             ".el.getBoundingClientRect().top"
    # the user scrolled down to the tables: the graph's top is out of view
    page.evaluate("() => document.querySelector('#main').scrollBy(0, 320)")
    assert page.evaluate(figure) < 0
    page.locator(".tv-why-show button").first.click()
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('highlight_nodes')"
                           ".data.role.includes('cut')")
    page.wait_for_function(f"() => ({figure})() >= 0")
    watch.check()


def test_find_takes_enter_and_zooms_to_the_node(serve, broken, watched_page):
    page, watch = watched_page
    page.set_viewport_size({"width": 1600, "height": 1000})
    open_dashboard(page, serve(broken("sequential_six_layers")).url)
    shown = "() => Bokeh.documents[0].get_model_by_name('cluster_labels').visible"
    box = page.get_by_placeholder("name or op")
    box.click()
    box.type("dense_3/kern")          # part of a name, as typed: no completion picked
    box.press("Enter")
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('nodes')"
                           ".selected.indices.length === 1")
    data = node_data(page)
    i = page.evaluate("() => Bokeh.documents[0].get_model_by_name('nodes').selected.indices[0]")
    assert data["name"][i] == "dense_3/kernel:0"
    # the view is centred on it, zoomed in far enough to read the labels
    at = "(k) => { const d = Bokeh.documents[0], s = d.get_model_by_name('nodes'); " \
         "const v = Bokeh.index.find_one_by_id(d.get_model_by_name('dag').id); " \
         "const i = s.data.key.indexOf(k), f = v.frame.bbox; return [" \
         "(v.frame.x_scale.compute(s.data.x[i]) - f.x) / f.width, " \
         "(v.frame.y_scale.compute(s.data.y[i]) - f.y) / f.height, " \
         "v.frame.bbox.width / (v.model.x_range.end - v.model.x_range.start)]; }"
    page.wait_for_function(f"() => {{ const r = ({at})('{data['key'][i]}'); "
                           "return Math.abs(r[0] - 0.5) < 0.05 && Math.abs(r[1] - 0.5) < 0.05; }")
    assert page.evaluate(at, data["key"][i])[2] >= 1.0
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('node_labels').visible")
    page.wait_for_function(shown)
    watch.check()


def test_a_tall_keras_graph_opens_with_its_labels_readable(serve, broken, watched_page):
    """The fraud classifier's last tape (about 40 ops in stacked Keras layer boxes) is a
    little taller than the graph view: fitted whole, its labels would be 5.5 px, under the
    smallest drawn, and the graph opened as unlabelled boxes. It opens at a zoom its labels
    show at instead, all of its width and most of its height in view."""
    page, watch = watched_page
    page.set_viewport_size({"width": 1500, "height": 1000})
    open_dashboard(page, serve(broken("fraud_classifier")).url)
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('node_labels').visible",
                           timeout=30_000)
    seen = page.evaluate("""() => {
        const d = Bokeh.documents[0], s = d.get_model_by_name('nodes').data;
        const f = d.get_model_by_name('dag'), xr = f.x_range, yr = f.y_range;
        let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
        for (let i = 0; i < s.x.length; i++) {
          x0 = Math.min(x0, s.x[i] - s.w[i] / 2); x1 = Math.max(x1, s.x[i] + s.w[i] / 2);
          y0 = Math.min(y0, s.y[i] - s.h[i] / 2); y1 = Math.max(y1, s.y[i] + s.h[i] / 2);
        }
        const font = d.get_model_by_name('node_labels').text_font_size;
        return {px: parseFloat(font.value || font), left: xr.start <= x0, right: xr.end >= x1,
                shown: (Math.min(yr.end, y1) - Math.max(yr.start, y0)) / (y1 - y0)};
    }""")
    assert seen["px"] >= 6 and seen["left"] and seen["right"], seen
    assert seen["shown"] >= 0.75, seen
    watch.check()


def _marked_notes(name):
    """{(code, subject, "script.py:line")} of the `# note:` markers of a corpus script."""
    lines = (CORPUS / f"{name}.py").read_text().splitlines()
    return {(*text.split("# note:")[1].split()[:2], f"{name}.py:{i}")
            for i, text in enumerate(lines, 1) if "# note:" in text}


def _notes_shown(page) -> set:
    notes = page.locator(".tv-note").locator("visible=true")
    return {(n.locator(".tv-badge").inner_text(), n.locator(".tv-note-name").inner_text(),
             n.locator(".tv-where").inner_text().split(" in ")[0]) for n in notes.all()}


def test_the_why_tab_lists_the_runs_notes_served_and_exported(serve, broken, watched_page,
                                                                tmp_path):
    """The fraud classifier's three bugs with finite gradients (a softmax given to the loss
    as logits, BatchNorm left in inference mode, a frozen layer's kernel passed by hand) are
    listed after the Why cards, each with its code, subject and line as marked by hand in
    the script, on the served page and on the exported one."""
    page, watch = watched_page
    marked = _marked_notes("fraud_classifier")
    assert len(marked) == 3
    open_dashboard(page, serve(broken("fraud_classifier")).url)
    page.locator(".bk-tab", has_text="Why").first.click()
    page.locator(".tv-note").first.wait_for()
    assert _notes_shown(page) == marked
    page.goto(_export(broken("fraud_classifier"), tmp_path / "fraud.html").as_uri())
    page.wait_for_function("() => window.Bokeh && Bokeh.documents.length > 0")
    page.locator(".bk-tab", has_text="Why").locator("visible=true").first.click()
    page.locator(".tv-note").locator("visible=true").first.wait_for()
    assert _notes_shown(page) == marked
    watch.check()


def test_the_player_buttons_say_what_they_do(mlp, watched_page):
    page, watch = watched_page
    open_dashboard(page, mlp.url)
    page.locator(".bk-tab", has_text="Backward").first.click()
    buttons = page.locator(".tv-player-buttons .bk-btn")
    buttons.first.wait_for()
    labels = [t.strip() for t in buttons.all_inner_texts()]
    words = [next(w for w in label.split() if w.isalpha()) for label in labels[:5]]
    assert words == ["first", "prev", "play", "next", "last"], labels
    buttons.filter(has_text="last").first.click()
    page.locator(".tv-step-title", has_text="step 12 of 12").first.wait_for()
    buttons.filter(has_text="first").first.hover()              # each has a tooltip
    page.get_by_text("go to the first backward step").first.wait_for()
    buttons.filter(has_text="first").first.click()
    page.locator(".tv-step-title", has_text="step 1 of 12").first.wait_for()
    watch.check()


def test_a_click_on_a_layers_box_closes_it_and_find_opens_it(serve, broken, watched_page):
    page, watch = watched_page
    open_dashboard(page, serve(broken("sequential_six_layers")).url)
    keys = node_data(page)["key"]
    assert not any(k.startswith("grp:") for k in keys)       # 20 ops: drawn open
    # (once the view is fitted to this graph: a fit after the click's point was computed
    # moved the box away from it)
    page.wait_for_function("() => { const s = Bokeh.documents[0].get_model_by_name('nodes');"
                           " return s._tv_fitted === s.data.key; }")
    page.wait_for_timeout(300)
    # a click inside the box of layer dense_3, off its nodes (just inside its top-left corner)
    xy = page.evaluate("""() => {
        const d = Bokeh.documents[0], c = d.get_model_by_name('clusters').data;
        const i = c.label.indexOf('sequential/dense_3');
        const v = Bokeh.index.find_one_by_id(d.get_model_by_name('dag').id);
        const r = v.canvas_view.el.getBoundingClientRect();
        return [r.left + v.frame.x_scale.compute(c.left[i]) + 3,
                r.top + v.frame.y_scale.compute(c.top[i]) + 3]; }""")
    page.mouse.click(*xy)
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('nodes').data.key"
                           ".includes('grp:scope:sequential/dense_3')")
    data = node_data(page)
    # the layer's ops and its kernel and bias are in the box; the other layers stay open
    assert not any(n.startswith("dense_3/") for n in data["name"])
    assert any(n.startswith("dense_4/") for n in data["name"])
    # Find a name inside it opens it again (a click on the box does too: test_dashboard.py)
    box = page.get_by_placeholder("name or op")
    box.click()
    box.type("dense_3/kernel")
    box.press("Enter")
    page.wait_for_function("() => !Bokeh.documents[0].get_model_by_name('nodes').data.key"
                           ".some(k => k.startsWith('grp:'))")
    assert sorted(node_data(page)["key"]) == sorted(keys)
    watch.check()


def test_the_export_of_a_nan_run_opens_on_why_and_keeps_where_nan_began(broken, watched_page,
                                                                           tmp_path):
    # mlp_three_bugs: NaN first at gradient call 3 from the Log at its line 27, applied by the
    # optimizer, so later calls are nan_input (the truth marked in the script)
    page, watch = watched_page
    rec = broken("mlp_three_bugs")
    out = _export(rec, tmp_path / "mlp.html")
    tape_of, nan_grads = {}, 0
    with open(rec, encoding="utf-8") as fh:
        for line in fh:
            e = json.loads(line)
            if e.get("kind") == "gradient_finished":
                tape_of[e["call"]] = e["tape"]
                nan_grads += sum(r["verdict"] == "nan" for r in e["results"])
    page.goto(out.as_uri())
    page.wait_for_function("() => window.Bokeh && Bokeh.documents.length")
    # the newest tape first: its gradients are NaN, so its side tabs open on Why
    first = page.locator(".tv-card:visible").first
    first.wait_for()
    assert "nan_input" in " ".join(page.locator(".tv-card:visible").all_inner_texts())
    began = page.locator(".bk-tab", has_text="NaN began")
    assert began.count() == 1 and began.inner_text().strip() == f"tape {tape_of[3]} · NaN began"
    began.click()
    cards = " ".join(page.locator(".tv-card:visible").all_inner_texts())
    assert "gradient call 3" in page.locator(".tv-h:visible").first.inner_text()
    assert "nan_origin" in cards and "Log at line 27" in cards
    for card in page.locator(".tv-card:visible").all():      # within the side panel's width
        assert card.bounding_box()["width"] <= 440
    # the training charts of the whole run: a NaN marker per NaN gradient, in the band
    band = page.evaluate("() => Bokeh.documents[0].get_model_by_name('norm_band_nan').data.x.length")
    assert nan_grads > 0 and band == nan_grads
    assert not [r for r in watch.requests if not r.startswith("file:")]
    assert not watch.errors


def test_a_live_corpus_run_ends_on_its_newest_tape_and_why_tells_the_truth(serve, tmp_path,
                                                                           watched_page):
    """The page follows (`tapeviz serve --follow`) a recording that live_training.py starts
    writing after the page opened: it ends on the run's newest tape, and its Why card says
    what the script's `# truth:` marker for the last call says (b: NaN, nan_input, at the
    update's line, its code shown)."""
    from test_charts import _truths
    page, watch = watched_page
    script = CORPUS / "live_training.py"
    out = tmp_path / "live.tvz"
    server = serve(out, "--follow")
    page.goto(server.url)
    page.wait_for_function("() => window.Bokeh && Bokeh.documents.length > 0")
    run = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300,
                         env=env_with_repo(TAPEVIZ_RECORD=str(out), TAPEVIZ_RECORD_FULL="1",
                                           TRAIN_PAUSE="0.05"))
    assert run.returncode == 0, run.stdout + run.stderr
    page.locator(".tv-status .tv-badge", has_text="stream ended").first.wait_for(timeout=180_000)
    from tapeviz.recording import load_recording
    finished = [e for e in load_recording(str(out)) if e.kind == "gradient_finished"]
    page.wait_for_function("(t) => { for (const m of Bokeh.documents[0].all_models) "
                           "if (m.title === 'Tape' && m.options !== undefined) "
                           "return String(m.value) === t; }", arg=str(finished[-1].tape))
    lines = script.read_text().splitlines()
    last = [t for t in _truths(script) if t[3].get("call") == str(len(finished))]
    assert last, "live_training.py marks no truth for its last call"
    for source, verdict, cause, _, line in last:
        card = page.locator(".tv-card", has=page.locator(".tv-why-name",
                                                         has_text=f"{source} ({source}:0)"))
        card.first.wait_for()
        text = card.first.inner_text()
        assert cause in text and f"live_training.py:{line}" in text, text
        assert " ".join(lines[line - 1].split()) in " ".join(text.split()), text
    watch.check()


def test_an_all_zero_gradient_shows_as_a_grid_of_cells(broken, watched_page, tmp_path):
    """classifier_three_bugs: w1's gradient is all zero (truth: w1 zero dead_relu). On the
    exported page its card's heatmap is a visible grid of white cells, not blank space
    between the gradient's line and the message."""
    page, watch = watched_page
    page.goto(_export(broken("classifier_three_bugs"), tmp_path / "classifier.html").as_uri())
    card = page.locator(".tv-card", has=page.locator(".tv-why-name", has_text="w1 (w1:0)"))
    card = card.locator("visible=true").first
    card.wait_for()
    assert "all zero" in card.inner_text()
    cells = card.locator(".tv-heat td")
    assert cells.count() == 4 * 8
    colours = cells.first.evaluate("""td => { const s = getComputedStyle(td), c = getComputedStyle(
        td.closest('.tv-card')); return [s.backgroundColor, s.borderTopColor, c.backgroundColor]; }""")
    background, border, card_background = colours
    assert background == card_background or background == "rgb(255, 255, 255)", colours
    assert border not in (background, card_background), colours     # the grid is drawn
    watch.check()
