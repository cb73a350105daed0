"""`tv.show(...)` / `tape.show()` in notebooks, with no internet:

- in a real Jupyter kernel (nbclient, headless): the widget's output is there and Panel's
  JavaScript is inlined;
- that notebook converted by nbconvert to one HTML file and opened from file:// in chromium with
  every other request aborted: the graphs are drawn, with no console error;
- in a live JupyterLab and a live Jupyter Notebook 7 (`jupyter lab` / `jupyter notebook`
  subprocesses on a loopback port with a token), opened in chromium with every request not to
  that server aborted: run all cells, the dashboard renders in the output area, and a click on a
  node goes through the kernel and back."""
from __future__ import annotations

import json
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.request

import jinja2
import nbclient   # the test extra installs these: a missing one is a failure, not a skip
import nbconvert
import nbformat
import pytest

from conftest import ROOT, block_requests_except, env_with_repo


@pytest.mark.slow
def test_show_in_a_notebook_renders_offline(recordings):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
                                  "import tapeviz as tv"),
        nbformat.v4.new_code_cell(f"view = tv.show({str(recordings['main'])!r})\nview"),
        nbformat.v4.new_code_cell("with tv.GradientTape() as tape:\n"
                                  "    x = tv.constant(2.0); tape.watch(x); y = x * x\n"
                                  "tape.gradient(y, x)\n"
                                  "from tapeviz.ui.store.source import ListSource\n"
                                  "len(view.store.tapes), view.store.latest_tape() is not None"),
    ]
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=180,
                                     resources={"metadata": {"path": str(ROOT)}})
    client.execute()
    outputs = nb.cells[1].outputs
    types = {k for o in outputs for k in o.get("data", {})}
    assert "application/vnd.holoviews_exec.v0+json" in types, types
    assert "application/vnd.holoviews_load.v0+json" in types, types
    loads = [o["data"]["application/vnd.holoviews_load.v0+json"] for o in outputs
             if "application/vnd.holoviews_load.v0+json" in o.get("data", {})]
    text = json.dumps(loads)
    # inline: the loader carries the code itself and names no CDN script or stylesheet
    assert len(text) > 1_000_000
    for m in re.finditer(r'(js_urls|css_urls)\W+\[([^\]]*)\]', text):
        assert "cdn." not in m.group(2), m.group(0)[:300]
    assert nb.cells[2].outputs[-1]["data"]["text/plain"] == "(1, True)"


# nbconvert's lab template loads require.js and MathJax 2 from cdnjs for every page, whatever the
# notebook holds. This template drops those two blocks (and nothing else), so a request or a
# console error left in the converted page can only come from the notebook's own outputs.
OFFLINE_TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
"""

TAPE_CELL = """\
xv = tv.Variable(3.0, name="xvar")
wv = tv.Variable(2.0, name="wvar")
with tv.GradientTape() as tape:
    loss = xv * wv + xv
grads = tape.gradient(loss, [xv, wv])
tape.show()"""      # after a one-shot tape's gradient: a kernel keeps its values for the view


def _script_srcs(page_html: str) -> set:
    return set(re.findall(r'<script[^>]*\ssrc="([^"]+)"', page_html)) | \
        set(re.findall(r'<link[^>]*\shref="(https?:[^"]+)"', page_html))


def _open_offline(page, nb, out) -> list:
    """Convert the executed notebook ``nb`` to one HTML file (``out``) as nbconvert does, with
    no link of nbconvert's own, and open it from file:// with every other request aborted;
    returns the list of the requests aborted."""
    default = nbconvert.HTMLExporter()
    default_html, _ = default.from_notebook_node(nb)
    assert _script_srcs(default_html) == {default.require_js_url, default.mathjax_url}, \
        "nbconvert's own page links changed: look again at OFFLINE_TEMPLATE"
    offline = nbconvert.HTMLExporter(
        template_name="lab", template_file="offline.html.j2",
        extra_loaders=[jinja2.DictLoader({"offline.html.j2": OFFLINE_TEMPLATE})])
    body, _ = offline.from_notebook_node(nb)
    assert _script_srcs(body) == set()
    out.write_text(body, encoding="utf-8")
    blocked = block_requests_except(page, ("file:", "data:", "blob:"))
    page.goto(out.as_uri())
    return blocked


def _recorded_names(recording) -> tuple:
    """Names of the ops a tape recorded and of the watched variables, from the JSON lines."""
    ops, variables = set(), set()
    with open(recording, encoding="utf-8") as fh:
        for line in fh:
            e = json.loads(line)
            if e.get("kind") == "op_recorded" and e.get("tapes"):
                ops.add(e["op"])
            if e.get("kind") == "watched" and (e.get("tensor") or {}).get("kind") == "variable":
                variables.add(e["tensor"]["name"])
    return ops, variables


@pytest.mark.browser
@pytest.mark.filterwarnings("ignore:Your element with mimetype")     # nbconvert, empty outputs
def test_notebook_converted_to_html_draws_the_graph_offline(recordings, tmp_path, watched_page):
    """`tape.show()` and `tv.show(path)` run by a kernel, converted by nbconvert to one HTML file
    and opened from file:// with every other request aborted: both graphs are drawn, with the
    recorded op and variable names, and nothing logs an error."""
    page, watch = watched_page
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
                                  "import tapeviz as tv"),
        nbformat.v4.new_code_cell(TAPE_CELL),
        nbformat.v4.new_code_cell(f"tv.show({str(recordings['main'])!r})"),
    ]
    nbclient.NotebookClient(nb, kernel_name="python3", timeout=180,
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    blocked = _open_offline(page, nb, tmp_path / "notebook.html")
    page.wait_for_function("() => window.Bokeh && Bokeh.documents.filter(d => "
                           "d.get_model_by_name('nodes') && "
                           "d.get_model_by_name('nodes').data.x.length > 0).length === 2")
    drawn = page.evaluate("""() => Bokeh.documents.filter(d => d.get_model_by_name('nodes')).map(d => {
        const src = d.get_model_by_name('nodes'), fig = d.get_model_by_name('dag');
        const view = Bokeh.index.find_one_by_id(fig.id);
        const box = view.canvas_view.el.getBoundingClientRect();
        const labels = Bokeh.index.find_one_by_id(d.get_model_by_name('node_labels').id);
        return {labels: Array.from(src.data.label), ops: Array.from(src.data.op), width: box.width, height: box.height,
                labels_visible: d.get_model_by_name('node_labels').visible,
                labels_drawn: labels !== undefined && labels !== null,
                frame: [view.frame.bbox.width, view.frame.bbox.height]}; })""")
    assert len(drawn) == 2
    ops, variables = _recorded_names(recordings["main"])
    assert {"MatMul", "StopGradient"} <= ops and {"x:0", "w:0"} <= variables
    # one view per cell (documents come in no fixed order): the tape's, the recording's
    assert any({"xvar:0", "wvar:0"} <= set(v["labels"]) and {"Mul", "AddV2"} <= set(v["ops"])
               for v in drawn), drawn
    assert any(variables <= set(v["labels"]) and ops <= set(v["ops"]) for v in drawn), \
        (ops, variables, drawn)
    for view in drawn:
        assert view["width"] > 300 and view["height"] > 300, view
        assert min(view["frame"]) > 100 and view["labels_visible"] and view["labels_drawn"], view
    # names as page text: the variables tables of both views
    for name in ("xvar:0", "wvar:0", "x:0", "w:0"):
        cell = page.locator(".tabulator-cell", has_text=re.compile(f"^{re.escape(name)}$")).first
        assert cell.is_visible(), name
    assert blocked == [], blocked
    watch.check()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module", params=["lab", "notebook"])
def jupyter_lab(request, tmp_path_factory):
    """`jupyter lab`, or Jupyter Notebook 7 (`jupyter notebook`), on a free loopback port with
    a token, its config, runtime, settings and workspaces in a temp dir; yields (base url,
    token, notebook dir, the URL path that opens a notebook)."""
    flavour = request.param
    work = tmp_path_factory.mktemp(flavour)
    port, token = _free_port(), secrets.token_hex(16)
    env = env_with_repo(JUPYTER_CONFIG_DIR=str(work / ".config"),
                        JUPYTER_RUNTIME_DIR=str(work / ".runtime"),
                        JUPYTERLAB_SETTINGS_DIR=str(work / ".settings"),
                        JUPYTERLAB_WORKSPACES_DIR=str(work / ".workspaces"))
    log = open(work / "lab.log", "w+")
    common = ["--allow-root", "--no-browser", "--ip", "127.0.0.1", f"--port={port}",
              "--port-retries=0", f"--IdentityProvider.token={token}",
              f"--ServerApp.root_dir={work}"]
    if flavour == "lab":
        command = [sys.executable, "-m", "jupyterlab", *common,
                   "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=None",
                   "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
        opens = "/lab/tree/{name}?reset"     # ?reset: a fresh workspace, this notebook only
    else:
        command = [sys.executable, "-m", "notebook", *common,
                   "--JupyterNotebookApp.expose_app_in_browser=True"]
        opens = "/notebooks/{name}?"
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=work)
    try:
        deadline = time.time() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}",
                                            timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.3)
            if proc.poll() is not None or time.time() > deadline:
                log.seek(0)
                pytest.fail(f"jupyter {flavour} did not start:\n" + log.read()[-4000:])
        yield f"http://127.0.0.1:{port}", token, work, opens
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def _run_in_lab(jupyter_lab, page, watch, name) -> list:
    """Write a notebook showing TAPE_CELL, open it in JupyterLab (or Notebook 7) with every
    request that is not to its server aborted, run all cells, wait for the graph; return the
    blocked list."""
    base, token, work, opens = jupyter_lab
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
                                          "import tapeviz as tv"),
                nbformat.v4.new_code_cell(TAPE_CELL)]
    nbformat.write(nb, str(work / f"{name}.ipynb"))
    blocked = block_requests_except(
        page, (base + "/", base.replace("http", "ws") + "/", "data:", "blob:"))
    stacks = []
    page.on("pageerror", lambda e: stacks.append(getattr(e, "stack", "") or ""))
    page.goto(base + opens.format(name=f"{name}.ipynb") + f"&token={token}")
    page.wait_for_function("""(path) => { const w = window.jupyterapp &&
        [...jupyterapp.shell.widgets('main')].find(w => w.context && w.context.path === path);
        if (!w || !(w.sessionContext.session && w.sessionContext.session.kernel)) return false;
        jupyterapp.shell.activateById(w.id); return jupyterapp.shell.currentWidget === w; }""",
                           arg=f"{name}.ipynb", timeout=120_000)
    _forgive_frontend_errors_at_load(page, watch, stacks)
    page.evaluate("() => jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function("() => window.Bokeh && Bokeh.documents.some(d => "
                           "d.get_model_by_name('nodes') && "
                           "d.get_model_by_name('nodes').data.x.length > 0)", timeout=120_000)
    page.locator(".jp-OutputArea-output .tv-dashboard").first.wait_for()
    return blocked


def _forgive_frontend_errors_at_load(page, watch, stacks):
    """Jupyter Notebook 7.6.5 throws "Cannot read properties of undefined (reading 'schema')"
    from its own bundle while the page loads, before any cell runs (it does so on a notebook
    holding only `1+1`, with Panel's extension disabled too). Errors raised before the cells
    run and thrown from the frontend's own scripts are dropped; any other error still fails."""
    page.wait_for_timeout(500)
    before = [e for e in watch.errors if e.startswith("pageerror:")]
    for message, stack in zip(before, stacks):
        if "/static/notebook/" in stack and "/static/notebook/" in stack.split("\n")[1]:
            watch.errors.remove(message)


def _click_mul(page):
    """A real click on the Mul node; its inspector title comes back from the kernel."""
    xy = page.evaluate("""() => {
        const d = Bokeh.documents.find(d => d.get_model_by_name('nodes'));
        const src = d.get_model_by_name('nodes'), i = src.data.label.indexOf('Mul');
        const v = Bokeh.index.find_one_by_id(d.get_model_by_name('dag').id);
        v.canvas_view.el.scrollIntoView({block: 'center'});
        const r = v.canvas_view.el.getBoundingClientRect();
        return [r.left + v.frame.x_scale.compute(src.data.x[i]),
                r.top + v.frame.y_scale.compute(src.data.y[i])]; }""")
    page.mouse.click(*xy)
    title = page.locator(".tv-inspector .tv-node-title").first
    title.wait_for(timeout=60_000)
    assert title.inner_text().startswith("Mul")


@pytest.mark.browser
@pytest.mark.slow
def test_show_renders_offline_in_live_jupyter(jupyter_lab, watched_page):
    """A real JupyterLab or Jupyter Notebook 7: open a notebook, run all cells; `tape.show()` draws its graph and its
    tables in the output area with nothing fetched from off the machine and no console error;
    a click on a node goes through the kernel and comes back as the inspector's text."""
    page, watch = watched_page
    blocked = _run_in_lab(jupyter_lab, page, watch, "render")
    labels = page.evaluate("() => Array.from(Bokeh.documents.find(d => d.get_model_by_name('nodes'))"
                           ".get_model_by_name('nodes').data.label)")
    assert {"xvar:0", "wvar:0", "Mul", "AddV2"} <= set(labels), labels
    cell = page.locator(".jp-OutputArea-output .tabulator-cell",
                        has_text=re.compile("^xvar:0$")).first
    cell.wait_for()
    assert cell.is_visible()
    assert blocked == [], blocked
    watch.check("render")
    _click_mul(page)


class OffMachineRequest(AssertionError):
    """The page asked for something off the machine (the one failure the xfail below expects)."""


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.xfail(strict=True, raises=OffMachineRequest, reason=(
    "Panel 1.9.4: an HTML pane updated through the notebook comm re-sends its stylesheets as "
    "imports from cdn.holoviz.org (css/loading.css, theme/default.css, theme/native.css) even "
    "with inline=True; Panel inlines them only on first render (see holoviz/panel#8707). "
    "strict: this test fails once Panel fixes it, so the note can go."))
def test_live_notebook_updates_stay_offline(jupyter_lab, watched_page):
    page, watch = watched_page
    blocked = _run_in_lab(jupyter_lab, page, watch, "update")
    assert blocked == [], blocked
    _click_mul(page)
    page.wait_for_timeout(1500)
    if blocked:
        # only the stylesheets the reason names are the known failure; anything else that
        # leaves the machine is a failure of its own, not the expected one
        unknown = [u for u in blocked if not re.fullmatch(
            r"https://cdn\.holoviz\.org/panel/[^/]+/dist/(css/loading\.css(\?v=[\w.]+)?|"
            r"bundled/theme/(default|native)\.css)", u)]
        assert not unknown, f"requests that left the machine after a click: {unknown}"
        raise OffMachineRequest(f"requests that left the machine after a click: {blocked}")
    watch.check("after a click")
