"""`tv.show(...)` in a real Jupyter kernel (nbclient, headless): the widget's output is there and
Panel's JavaScript is inlined, so it renders with no internet."""
from __future__ import annotations

import json
import re

import jinja2
import nbclient   # the test extra installs these: a missing one is a failure, not a skip
import nbconvert
import nbformat
import pytest

from conftest import ROOT


def test_show_in_a_notebook_renders_offline(recordings):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
                                  "import tapeviz as tv"),
        nbformat.v4.new_code_cell(f"view = tv.show({str(recordings['main'])!r})\nview"),
        nbformat.v4.new_code_cell("with tv.GradientTape() as tape:\n"
                                  "    x = tv.constant(2.0); tape.watch(x); y = x * x\n"
                                  "tape.gradient(y, x)\n"
                                  "from tapeviz.ui.source import ListSource\n"
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
with tv.GradientTape(persistent=True) as tape:
    loss = xv * wv + xv
grads = tape.gradient(loss, [xv, wv])
tape.show()"""


def _script_srcs(page_html: str) -> set:
    return set(re.findall(r'<script[^>]*\ssrc="([^"]+)"', page_html)) | \
        set(re.findall(r'<link[^>]*\shref="(https?:[^"]+)"', page_html))


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
    default = nbconvert.HTMLExporter()
    default_html, _ = default.from_notebook_node(nb)
    assert _script_srcs(default_html) == {default.require_js_url, default.mathjax_url}, \
        "nbconvert's own page links changed: look again at OFFLINE_TEMPLATE"
    offline = nbconvert.HTMLExporter(
        template_name="lab", template_file="offline.html.j2",
        extra_loaders=[jinja2.DictLoader({"offline.html.j2": OFFLINE_TEMPLATE})])
    body, _ = offline.from_notebook_node(nb)
    assert _script_srcs(body) == set()
    out = tmp_path / "notebook.html"
    out.write_text(body, encoding="utf-8")

    blocked = []

    def route(r):
        if r.request.url.startswith(("file:", "data:", "blob:")):
            r.continue_()
        else:
            blocked.append(r.request.url)
            r.abort()
    page.route("**/*", route)
    page.goto(out.as_uri())
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
