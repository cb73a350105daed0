"""The dashboard in a real browser: `tapeviz serve` on recordings made here, driven by
Playwright on Debian's chromium. Every test fails on a console error, on a request that leaves
127.0.0.1, and on any dialog (a script injected through a name would open one)."""
from __future__ import annotations

import time

import pytest

from conftest import (block_requests_except, click_node, glyph_xy, node_data, node_xy,
                      open_dashboard)

pytestmark = pytest.mark.browser


def _key(data, **match):
    for i in range(len(data["key"])):
        if all(data[k][i] == v for k, v in match.items()):
            return data["key"][i]
    raise AssertionError(f"no node with {match}: {list(zip(data['key'], data['op'], data['kind']))}")


def _text(page, selector):
    loc = page.locator(selector)
    loc.first.wait_for()
    return loc.first.inner_text()


@pytest.fixture(scope="module")
def main_server(serve, recordings):
    return serve(recordings["main"])


def test_graph_draws_every_kind_and_the_cuts(main_server, watched_page):
    page, watch = watched_page
    open_dashboard(page, main_server.url)
    data = node_data(page)
    kinds = set(data["kind"])
    assert {"op", "output", "trainable", "nontrainable", "constant", "stop_gradient",
            "skipped", "escaped"} <= kinds, kinds
    edges = node_data(page, "edges")
    assert any(edges["cut"]), "no cut edge drawn"
    for i, cut in enumerate(edges["cut"]):
        assert (edges["color"][i] == "#d62728") == bool(cut)
        if cut:
            assert edges["dash"][i] == "dashed"
    assert len(node_data(page, "arrows")["xs"]) == len(edges["xs"])
    assert "(2, 2)" in node_data(page, "edge_labels")["text"]
    page.wait_for_timeout(300)
    watch.check()
    assert any("/static/" in r for r in watch.requests)   # JS came from the local server
    # Panel would add its 1.8 MB MathJax bundle for any HTML pane; tapeviz renders no math
    assert not [r for r in watch.requests if "mathjax" in r.lower()]
    # nor BokehJS's WebGL bundle: the graph draws on canvas
    assert not [r for r in watch.requests if "bokeh-gl" in r]


def test_click_node_shows_inspector(main_server, watched_page):
    page, watch = watched_page
    open_dashboard(page, main_server.url)
    data = node_data(page)
    key = _key(data, op="MatMul")
    click_node(page, key)
    page.wait_for_function("() => { const n = Bokeh.documents[0].get_model_by_name('nodes');"
                           " return n.selected.indices.length === 1; }")
    assert _text(page, ".tv-node-title").startswith("MatMul")
    text = page.locator(".tv-inspector").first.evaluate("e => e.shadowRoot ? e.shadowRoot.textContent : e.textContent")
    assert "y = a @ b" in text              # the formula
    assert "w:0" in text and "(2, 2)" in text and "float32" in text
    assert "[[1, 2], [3, 4]]" in text       # the value summary of the input
    assert "upstream g" in text             # the gradient that reached it
    assert "tv.matmul(w, tv.reshape(k, (2, 1)))" in text   # the source line, read from the file
    # a variable node: clicking it selects its row in the table
    click_node(page, _key(data, label="w:0"))
    page.locator(".tabulator-row.tabulator-selected").first.wait_for()
    assert "w:0" in page.locator(".tabulator-row.tabulator-selected").first.inner_text()
    watch.check()


def _steps(path):
    from tapeviz.recording import load_recording
    return [e for e in load_recording(path) if e.kind == "backward_step"]


def _wait_title(page, predicate, timeout=20):
    deadline = time.time() + timeout
    title = ""
    while time.time() < deadline:
        title = _text(page, ".tv-step-title")
        if predicate(title):
            return title
        time.sleep(0.1)
    raise AssertionError(f"step title stayed {title!r}")


def _eventually(read, done, timeout=20):
    """``read()`` once ``done`` holds for it (polled), else its last value: the caller's
    assertion then fails on what the page showed."""
    deadline = time.time() + timeout
    value = read()
    while not done(value) and time.time() < deadline:
        time.sleep(0.1)
        value = read()
    return value


def test_backward_player_steps_and_highlights(main_server, recordings, watched_page):
    from tapeviz.ui.store.summaries import summary_text
    page, watch = watched_page
    steps = _steps(recordings["main"])
    open_dashboard(page, main_server.url)
    page.locator(".bk-tab", has_text="Backward").first.click()
    assert _text(page, ".tv-step-title").startswith(f"step 1 of {len(steps)}")
    data = node_data(page)
    first = node_data(page, "highlight_nodes")
    out_key = _key(data, kind="output")
    assert f"op{steps[0].node}" == out_key
    i = data["key"].index(out_key)
    assert first["role"] == ["current"] and first["x"] == [data["x"][i]]
    # step forward twice with the player's own button
    nxt = page.locator(".tv-player-buttons .bk-btn", has_text="next").first
    nxt.click()
    _wait_title(page, lambda t: t.startswith("step 2"))
    nxt.click()
    st = steps[2]
    title = _wait_title(page, lambda t: t.startswith("step 3"))
    assert title.endswith(st.op), title
    j = data["key"].index(f"op{st.node}")
    # the title and the graph's sources are separate models: BokehJS may draw the title a
    # moment before the highlight (seen on a loaded machine), so wait for the highlight
    hl = _eventually(lambda: node_data(page, "highlight_nodes"),
                     lambda h: h["x"] == [data["x"][j]] and h["y"] == [data["y"][j]])
    assert hl["x"] == [data["x"][j]] and hl["y"] == [data["y"][j]], (hl, j)
    assert len(node_data(page, "highlight_edges")["xs"]) >= 1     # the upstream edge
    state = _eventually(lambda: node_data(page)["state"], lambda st: sum(st) == 2)
    assert sum(state) == 2                                         # two ops already visited
    assert _text(page, ".tv-upstream") == f"upstream gradient g = {summary_text(st.upstream[0])}"
    shown = page.locator(".tv-step").first.evaluate(
        "e => e.shadowRoot ? e.shadowRoot.textContent : e.textContent")
    for ig in st.input_grads:
        assert summary_text(ig["grad"]) in shown
    # running sums: a step whose input already had a gradient shows the total
    # (x * x: the program's Mul takes x twice, so x's second gradient adds to its first)
    acc = [(k, ig) for k, s in enumerate(steps) for ig in s.input_grads if ig["accumulated"]]
    assert acc and acc[0][0] > 2, [(s.op, s.input_grads) for s in steps]
    k, ig = acc[0]
    for _ in range(k - 2):
        nxt.click()
    _wait_title(page, lambda t: t.startswith(f"step {k + 1} "))
    shown = page.locator(".tv-step").first.evaluate(
        "e => e.shadowRoot ? e.shadowRoot.textContent : e.textContent")
    assert f"running sum = {summary_text(ig['total'])}" in shown
    # clicking a node jumps the player to its step
    matmul = next(s for s in steps if s.op == "MatMul")
    click_node(page, f"op{matmul.node}")
    page.locator(".bk-tab", has_text="Backward").first.click()
    _wait_title(page, lambda t: t.endswith("MatMul"))
    watch.check()


def test_why_cards_and_cut_highlight(main_server, watched_page):
    page, watch = watched_page
    open_dashboard(page, main_server.url)
    page.locator(".bk-tab", has_text="Why").first.click()
    # x and w are ok: their cards are folded under the summary line
    page.locator(".tv-why-summary", has_text="2 of 4 ok").wait_for()
    names = page.locator(".tv-why-name")
    texts = [names.nth(i).inner_text() for i in range(names.count())]
    assert len(texts) == 4 and all(n in t for n, t in zip(["x:0", "w:0", "c:0", "v:0"], texts)), texts
    messages = page.locator(".tv-why-message")
    assert messages.count() >= 2
    assert page.locator(".tv-why-fix").count() >= 1
    # the fourth source (v, used only inside stop_recording): show its cut
    page.locator(".tv-why-show button").nth(3).click()
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('highlight_nodes')"
                           ".data.role.includes('cut')")
    hl = node_data(page, "highlight_nodes")
    data = node_data(page)
    skipped = data["key"].index(_key(data, kind="skipped"))
    cut = [(x, y) for x, y, r in zip(hl["x"], hl["y"], hl["role"]) if r == "cut"]
    assert (data["x"][skipped], data["y"][skipped]) in cut
    watch.check()


def test_hostile_names_are_text(serve, recordings, watched_page):
    page, watch = watched_page
    server = serve(recordings["hostile"])
    open_dashboard(page, server.url)
    evil = "<img src=x onerror=alert(1)>"
    page.locator(".tabulator-cell", has_text=evil).first.wait_for()
    data = node_data(page)
    click_node(page, _key(data, label=evil[:21] + "…"))
    page.locator(".tv-node-name").first.wait_for()
    assert evil in _text(page, ".tv-node-name")
    page.locator(".bk-tab", has_text="Why").first.click()
    page.locator(".tv-why-name").first.wait_for(state="attached")   # an ok card is folded
    whys = page.locator(".tv-why-name")
    texts = " ".join(whys.nth(i).inner_text() for i in range(whys.count()))
    assert evil in texts and "<script>alert(2)</script>" in texts
    # the hover tooltip shows the name as text too
    xy = page.evaluate("""(key) => {
        const d = Bokeh.documents[0], src = d.get_model_by_name('nodes');
        const i = src.data.key.indexOf(key);
        const v = Bokeh.index.find_one_by_id(d.get_model_by_name('dag').id);
        const r = v.canvas_view.el.getBoundingClientRect();
        return [r.left + v.frame.x_scale.compute(src.data.x[i]),
                r.top + v.frame.y_scale.compute(src.data.y[i])]; }""", _key(data, label=evil[:21] + "…"))
    page.mouse.move(xy[0] - 5, xy[1] - 5)
    page.mouse.move(xy[0] + 1, xy[1] + 1, steps=3)
    tip = page.locator(".bk-tooltip-content").first
    tip.wait_for()
    assert evil in tip.inner_text()
    # no element was created from a name, and nothing fetched "x"
    assert page.locator("img[src='x']").count() == 0
    assert not any(r.endswith("/x") for r in watch.requests)
    page.wait_for_timeout(500)
    watch.check()


LIVE = """\
import sys, time
import tapeviz as tv
from tapeviz.recording import record

with record(sys.argv[1], full=True):
    x = tv.Variable(1.0, name="x")
    for step in range(6):
        with tv.GradientTape() as tape:
            loss = x * x * 3.0
        g = tape.gradient(loss, x)
        x.assign_sub(0.1 * g)
        tv.events.log_scalar("loss", float(loss), step)
        time.sleep(0.7)
"""


def test_follow_a_live_run_until_the_stream_ends(serve, tmp_path, watched_page):
    import subprocess
    import sys
    from conftest import env_with_repo
    page, watch = watched_page
    script = tmp_path / "live.py"
    script.write_text(LIVE)
    path = tmp_path / "live.tvz"
    producer = subprocess.Popen([sys.executable, str(script), str(path)], env=env_with_repo())
    try:
        server = serve(path, "--follow")
        open_dashboard(page, server.url)
        page.locator(".tv-status .tv-badge").first.wait_for()
        page.wait_for_function(
            "() => document.querySelector('.tv-status') !== null || true")
        deadline = time.time() + 60
        status = ""
        while time.time() < deadline:
            status = page.locator(".tv-status").first.evaluate(
                "e => e.shadowRoot ? e.shadowRoot.textContent : e.textContent")
            if "stream ended" in status and "6 gradient call(s)" in status:
                break
            time.sleep(0.3)
        status = status[status.find("tapeviz"):] if "tapeviz" in status else status[-300:]
        assert "stream ended" in status, status
        assert "6 tape(s)" in status and "6 gradient call(s)" in status, status
        assert producer.wait(timeout=30) == 0
        # the training chart got one norm per call and the loss
        page.locator(".bk-tab", has_text="Training").first.click()
        page.wait_for_function("() => { const s = Bokeh.documents[0].get_model_by_name('norm_points_0');"
                               " return s && s.data.x.length === 6; }")
        watch.check()
    finally:
        if producer.poll() is None:
            producer.kill()


def test_panel_serve_accepts_the_app_module(recordings, watched_page):
    """`panel serve tapeviz/ui/serve/app.py --args run.tvz`, Panel's own conventions."""
    import queue
    import re
    import subprocess
    import sys
    import threading
    from conftest import ROOT, env_with_repo
    page, watch = watched_page
    proc = subprocess.Popen([sys.executable, "-m", "panel", "serve", "tapeviz/ui/serve/app.py", "--port", "0",
                             "--address", "127.0.0.1", "--args", str(recordings["main"])],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
                            env=env_with_repo())
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l) for l in proc.stdout], daemon=True).start()
    try:
        url, log = None, []
        deadline = time.time() + 60
        while url is None and time.time() < deadline:
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                assert proc.poll() is None, "".join(log)
                continue
            log.append(line)
            m = re.search(r"Bokeh app running at: (http://[\w.]+:\d+/\w+)", line)
            url = m and m.group(1)
        assert url, "".join(log)
        open_dashboard(page, url)
        assert "MatMul" in node_data(page)["op"]
        watch.check()
        assert not [r for r in watch.requests if "mathjax" in r.lower()]
        assert not [r for r in watch.requests if "bokeh-gl" in r]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


BIG = """\
import tapeviz as tv
x = tv.Variable(1.0, name="x")
with tv.GradientTape() as tape:
    y = x
    for b in range(8):
        with tv.name_scope(f"block{b}"):
            for i in range(160):
                y = y * 1.0001 if i % 2 else y + 0.001
g = tape.gradient(y, x)
"""


def test_large_tape_opens_collapsed_and_expands_in_place(serve, tmp_path, watched_page):
    from conftest import record_program
    page, watch = watched_page
    server = serve(record_program(tmp_path, "big", BIG))
    open_dashboard(page, server.url)
    data = node_data(page)
    groups = [k for k in data["key"] if k.startswith("grp:")]
    assert len(groups) == 8 and len(data["key"]) < 20
    click_node(page, "grp:scope:block3")
    page.locator(".bk-btn", has_text="Expand group").first.click()
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('nodes').data.key.length > 100")
    keys = node_data(page)["key"]
    assert "grp:scope:block3" not in keys and "grp:scope:block2" in keys
    # labels: hidden while the whole tall graph is in view (too small to read), shown when
    # the view is zoomed onto a few nodes
    labels = "() => Bokeh.documents[0].get_model_by_name('node_labels').visible"
    page.locator(".bk-btn", has_text="Fit").first.click()
    page.wait_for_function(f"() => !({labels})()")
    inside = next(k for k in node_data(page)["key"] if k.startswith("op"))
    page.mouse.move(*node_xy(page, inside))
    for _ in range(60):                          # wheel-zoom onto it, as a user would
        if page.evaluate(labels):
            break
        page.mouse.wheel(0, -240)
        page.wait_for_timeout(80)
    assert page.evaluate(labels), "labels still hidden when zoomed onto a few nodes"
    page.locator(".bk-btn", has_text="Collapse all").first.click()
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('nodes').data.key.length < 20")
    watch.check()


def test_export_is_one_self_contained_page(recordings, tmp_path, watched_page):
    """`tapeviz export`: the page works from file:// with every other request blocked."""
    import subprocess
    import sys
    from conftest import ROOT, env_with_repo
    page, watch = watched_page
    out = tmp_path / "run.html"
    proc = subprocess.run([sys.executable, "-m", "tapeviz.cli", "export", str(recordings["main"]),
                           "-o", str(out)], capture_output=True, text=True, cwd=ROOT,
                          env=env_with_repo(), timeout=120)
    assert proc.returncode == 0 and out.exists(), proc.stdout + proc.stderr
    blocked = block_requests_except(page, ("file:",))
    page.goto(out.as_uri())
    page.wait_for_function("() => window.Bokeh && Bokeh.documents.length && "
                           "Bokeh.documents[0].roots().length > 0")
    doc_nodes = page.evaluate("() => Bokeh.documents[0].all_models && "
                              "[...Bokeh.documents[0].all_models].filter(m => m.name && "
                              "m.name.startsWith('nodes_')).map(m => m.name)")
    assert doc_nodes, "no graph in the exported page"
    name = doc_nodes[0]
    tid = name.split("_")[1]
    data = node_data(page, name)
    assert "MatMul" in data["op"] and "skipped" in data["kind"]
    # a real click on a node shows its inspector text, computed at export time
    page.mouse.click(*glyph_xy(page, f"dag_{tid}", name, "op", "MatMul"))
    page.wait_for_function(f"() => Bokeh.documents[0].get_model_by_name('inspector_{tid}')"
                           ".text.includes('MatMul')")
    body = page.evaluate("() => [...Bokeh.documents[0].all_models].filter(m => m.text !== undefined)"
                         ".map(m => m.text).join(' ')")
    assert "w:0" in body and "stop_recording" in body          # variables table and why cards
    assert blocked == [], blocked
    watch.check()


def test_two_sessions_do_not_share_state(main_server, browser, watched_page):
    """Two browser sessions on one server: selecting and stepping in one leaves the other be."""
    page, watch = watched_page
    other_context = browser.new_context(viewport={"width": 1400, "height": 1000})
    other = other_context.new_page()
    other_watch_errors = []
    other.on("console", lambda m: other_watch_errors.append(m.text) if m.type == "error" else None)
    try:
        open_dashboard(page, main_server.url)
        open_dashboard(other, main_server.url)
        page.locator(".bk-tab", has_text="Backward").first.click()
        _wait_title(page, lambda t: t.startswith("step 1 "))   # the player is drawn
        page.locator(".tv-player-buttons .bk-btn", has_text="next").first.click()
        _wait_title(page, lambda t: t.startswith("step 2"))
        data = node_data(page)
        click_node(page, _key(data, op="MatMul"))   # selects it (and jumps A's player to it)
        page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('nodes')"
                               ".selected.indices.length === 1")
        time.sleep(1.0)   # give a shared-state bug the time to reach the other page
        assert other.evaluate("() => Bokeh.documents[0].get_model_by_name('nodes')"
                              ".selected.indices.length") == 0
        other.locator(".bk-tab", has_text="Backward").first.click()
        assert _text(other, ".tv-step-title").startswith("step 1 ")
        assert other_watch_errors == []
    finally:
        other_context.close()
    watch.check()
