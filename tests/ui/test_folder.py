"""`tapeviz serve DIR`: a picker of the folder's recordings in an open dashboard. Python side
(the folder's safety, nothing stale after a switch) and in chromium (switch, click, switch
back, a broken file)."""
from __future__ import annotations

import os

import pytest

from conftest import PROGRAM, click_node, node_data, open_dashboard, record_program

OTHER = """\
import tapeviz as tv

a = tv.Variable([0.5, 1.5], name="alpha")
with tv.GradientTape() as tape:
    s = tv.reduce_sum(tv.exp(tv.sin(a)))
tape.gradient(s, a)
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """main.tvz (oldest), other.tvz (newest: opened first), broken.tvz, and files that must
    never be listed or opened."""
    d = tmp_path_factory.mktemp("runs")
    main = record_program(d, "main", PROGRAM)
    other = record_program(d, "other", OTHER)
    (d / "broken.tvz").write_text("this is not a recording\n")
    (d / "notes.txt").write_text("not a recording")
    outside = d.parent / f"{d.name}-outside.tvz"
    outside.write_bytes(main.read_bytes())
    (d / "escape.tvz").symlink_to(outside)
    os.utime(main, (1_000_000, 1_000_000))
    os.utime(d / "broken.tvz", (2_000_000, 2_000_000))
    return d


def test_folder_lists_recordings_newest_first_and_rejects_escapes(folder):
    from tapeviz.ui.serve.recording_picker import RecordingFolder
    f = RecordingFolder(folder)
    assert f.names() == ["other.tvz", "broken.tvz", "main.tvz"]
    assert f.path("main.tvz") == os.path.realpath(folder / "main.tvz")
    for bad in ("../main.tvz", "escape.tvz", "notes.txt", "/etc/passwd", "sub/main.tvz",
                str(folder / "main.tvz"), "..", "", None, "main.tvz\0"):
        assert f.path(bad) is None, bad


def test_switching_recordings_keeps_nothing_of_the_previous_one(folder):
    from tapeviz.ui.serve.recording_picker import FolderDashboard
    f = FolderDashboard(folder)
    d = f.dashboard
    assert f.shown == "other.tvz" and not f.message.visible
    assert "Sin" in d.plot.nodes.data["op"]
    assert f.open("main.tvz")
    ops = set(d.plot.nodes.data["op"])
    assert "MatMul" in ops and "Sin" not in ops
    key = next(k for k, op in zip(d.plot.keys, d.plot.nodes.data["op"]) if op == "MatMul")
    d.plot.select(key)
    d.parts["Backward"].player.value = 2
    d.parts["Why"].show_cut(0)
    assert "MatMul" in d.parts["Inspector"].html.object and d.plot.hl_nodes.data["x"]
    assert f.open("other.tvz")
    assert d.plot.selected == "" and "Click a node" in d.parts["Inspector"].html.object
    assert d.state.step == 0 and d.parts["Backward"].player.value == 0
    assert d.plot.hl_nodes.data["role"] == ["current"]       # the new call's first step only
    assert "MatMul" not in d.plot.nodes.data["op"]
    assert "main" not in d.live.status.object and "other.tvz" in d.live.status.object
    names = set(d.parts["Variables"].table.value["name"])
    assert any(n.startswith("alpha") for n in names) and not any(n.startswith("w") for n in names)
    assert not f.open("broken.tvz")                # the page says why and keeps the run it had
    assert f.message.visible and "broken.tvz" in f.message.object
    assert "still showing other.tvz" in f.message.object and "Sin" in d.plot.nodes.data["op"]
    assert not f.open("../main.tvz") and not f.open("escape.tvz")


def test_sessions_and_switches_share_one_ingest_per_recording(folder):
    from tapeviz.ui.serve.recording_picker import FolderDashboard
    a, b = FolderDashboard(folder), FolderDashboard(folder)
    store = a.dashboard.store
    assert b.dashboard.store is store
    n, version = store.n_events, store.version
    assert a.open("main.tvz") and a.open("other.tvz")
    assert a.dashboard.store is store and (store.n_events, store.version) == (n, version)


def test_a_switch_sends_data_into_the_page_it_has(folder):
    """Picking a recording again refills the page's models: it neither adds, drops nor
    re-parents any, nor gives them other stylesheets. Each of those makes Bokeh walk every
    model of the page (0.05-0.1 s each); a switch took four times as long when the *Compare
    with* picker set the page's children again on every pick, which reset the stylesheets of
    the panes the new run then changed."""
    import panel as pn
    from bokeh.document import Document
    from bokeh.document.events import ModelChangedEvent
    from tapeviz.ui.serve.compare_picker import ComparePicker
    from tapeviz.ui.serve.recording_picker import FolderDashboard
    f = FolderDashboard(folder)
    ComparePicker(f)
    doc = Document()
    pn.template.BootstrapTemplate(main=[f.main], header=[f.header]).server_doc(doc)
    f.picker.value = "main.tvz"             # each recording shown once: the models it needs
    f.picker.value = "other.tvz"
    models = {m.id for m in doc.models}
    changed = []
    doc.on_change(lambda e: changed.append(e))
    f.picker.value = "main.tvz"
    assert "MatMul" in f.dashboard.plot.nodes.data["op"]     # the switch happened
    assert {m.id for m in doc.models} == models
    attrs = {(type(e.model).__name__, e.attr) for e in changed
             if isinstance(e, ModelChangedEvent)}
    assert ("HTML", "text") in attrs                          # the status line, cards
    assert not {a for a in attrs if a[1] in ("children", "stylesheets")}, attrs


def test_empty_folder_says_so(tmp_path):
    from tapeviz.ui.serve.recording_picker import FolderDashboard
    f = FolderDashboard(tmp_path)
    assert f.message.visible and "No recordings" in f.message.object
    assert f.dashboard.plot.keys == []


def _walk(obj):
    yield obj
    for child in getattr(obj, "objects", None) or []:
        yield from _walk(child)


def test_the_app_with_no_recording_offers_the_current_folders_and_says_how(folder, tmp_path,
                                                                           monkeypatch):
    """`panel serve tapeviz/ui/serve/app.py` with no argument: the recordings of the folder it runs
    in, and how to pass one (it showed an empty "no recording" page with no hint)."""
    from tapeviz.ui.serve.app import make_app
    monkeypatch.delenv("TAPEVIZ_RECORDING", raising=False)
    monkeypatch.chdir(folder)
    page = make_app()
    hint = page.main[0]
    assert "--args run.tvz" in hint.object and "pick one" in hint.object
    pickers = [o for o in _walk(page.header) if getattr(o, "options", None)]
    assert pickers and pickers[0].options[:3] == ["other.tvz", "broken.tvz", "main.tvz"]
    hostile = tmp_path / "<img src=x onerror=alert(1)>"
    hostile.mkdir()
    monkeypatch.chdir(hostile)
    text = make_app().main[0].object
    assert "holds none" in text and "--args run.tvz" in text and "<img" not in text


@pytest.mark.slow
def test_serve_folder_and_follow_is_refused(folder):
    import subprocess
    import sys
    from conftest import ROOT, env_with_repo
    out = subprocess.run([sys.executable, "-m", "tapeviz.cli", "serve", str(folder), "--follow"],
                         capture_output=True, text=True, cwd=ROOT, env=env_with_repo(), timeout=60)
    assert out.returncode != 0 and "folder" in out.stderr


PICKER = ".tv-picker select"


def _ops(page):
    return set(node_data(page)["op"])


def _pick(page, name, has_op):
    page.locator(PICKER).select_option(name)
    page.wait_for_function("(op) => Bokeh.documents[0].get_model_by_name('nodes').data.op"
                           ".includes(op)", arg=has_op)


@pytest.mark.browser
def test_picker_switches_recordings_in_the_open_page(serve, folder, watched_page):
    page, watch = watched_page
    server = serve(folder)
    open_dashboard(page, server.url)
    assert page.locator(PICKER).input_value() == "other.tvz"
    assert page.locator(f"{PICKER} option").all_inner_texts() == ["other.tvz", "broken.tvz",
                                                                   "main.tvz"]
    assert {"Sin", "Exp"} <= _ops(page)

    _pick(page, "main.tvz", "MatMul")
    assert "Sin" not in _ops(page)
    click_node(page, next(k for k, op in zip(node_data(page)["key"], node_data(page)["op"])
                          if op == "MatMul"))
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('nodes')"
                           ".selected.indices.length === 1")
    page.locator(".tv-node-title", has_text="MatMul").first.wait_for()
    page.locator(".tabulator-cell", has_text="w:0").first.wait_for()     # its variables

    _pick(page, "other.tvz", "Sin")
    assert "MatMul" not in _ops(page)
    assert page.evaluate("() => Bokeh.documents[0].get_model_by_name('nodes')"
                         ".selected.indices.length") == 0
    page.locator(".tv-inspector", has_text="Click a node").first.wait_for()

    page.locator(PICKER).select_option("broken.tvz")
    alert = page.locator(".tv-open-error", has_text="Cannot open broken.tvz").first
    alert.wait_for()
    text = alert.evaluate("e => e.shadowRoot ? e.shadowRoot.textContent : e.textContent")
    assert "still showing other.tvz" in text and "not a tapeviz recording" in text
    assert "Sin" in _ops(page)
    _pick(page, "main.tvz", "MatMul")              # and the page keeps working
    alert.wait_for(state="hidden")
    page.wait_for_timeout(300)
    watch.check()
    # the page offers only the folder's own recordings (not the symlink that leaves it)
    offered = page.locator(PICKER + " option").all_text_contents()
    assert "main.tvz" in offered and "escape.tvz" not in offered, offered
