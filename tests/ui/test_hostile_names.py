"""A name from the user's files (a recording, a served folder, a script) is text on every page
tapeviz makes: the page header and the browser tab's ``<title>`` included.

Each entry point gets the name ``<img src=x onerror=window.__xss=1>``: in a real browser no
script may run (``window.__xss`` stays unset, no dialog, no console error), no ``<img>`` may
appear, and the name must be readable as text.
"""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from conftest import WAIT_GRAPH, Server, env_with_repo

HOSTILE = "<img src=x onerror=window.__xss=1>"

#: ``<img src="x">`` elements anywhere in the page, inside Bokeh's shadow roots too.
INJECTED_IMAGES = """() => {
    let found = 0;
    const walk = (root) => root.querySelectorAll('*').forEach((el) => {
        if (el.tagName === 'IMG' && el.getAttribute('src') === 'x') found += 1;
        if (el.shadowRoot) walk(el.shadowRoot);
    });
    walk(document);
    return found; }"""

SCRIPT = """\
import time
import tapeviz as tv
x = tv.Variable(3.0, name="x")
with tv.GradientTape() as tape:
    y = x * x
tape.gradient(y, x)
time.sleep(600)
"""


def assert_shown_as_text(page, watch, title: str, header: str):
    """``title`` is the tab's title, the element ``header`` (a selector) ends with the name,
    and nothing of the name ran or became an element."""
    assert page.title() == title
    assert page.locator(header).first.inner_text().strip().endswith(title.split("· ", 1)[1])
    assert page.evaluate(INJECTED_IMAGES) == 0, "the name became an <img> element"
    assert page.evaluate("() => window.__xss") is None, "the name's onerror ran"
    watch.check()


def open_served(page, server):
    page.goto(server.url)
    page.wait_for_function(WAIT_GRAPH, timeout=60_000)


@pytest.mark.browser
def test_serve_a_recording_with_a_hostile_name(recordings, tmp_path, watched_page):
    page, watch = watched_page
    name = f"{HOSTILE}.tvz"
    shutil.copy(recordings["main"], tmp_path / name)
    server = Server(["serve", str(tmp_path / name), "--port", "0"])
    try:
        open_served(page, server)
        assert_shown_as_text(page, watch, f"tapeviz · {name}", "a.title")
    finally:
        server.stop()


@pytest.mark.browser
def test_serve_a_folder_with_a_hostile_name(recordings, tmp_path, watched_page):
    page, watch = watched_page
    folder = tmp_path / HOSTILE
    folder.mkdir()
    shutil.copy(recordings["main"], folder / f"{HOSTILE}.tvz")
    server = Server(["serve", str(folder), "--port", "0"])
    try:
        open_served(page, server)
        assert_shown_as_text(page, watch, f"tapeviz · {HOSTILE}/", "a.title")
        assert page.locator("select").first.input_value() == f"{HOSTILE}.tvz"
    finally:
        server.stop()


@pytest.mark.browser
def test_run_a_script_with_a_hostile_name(tmp_path, watched_page):
    page, watch = watched_page
    script = tmp_path / f"{HOSTILE}.py"
    script.write_text(SCRIPT)
    server = Server(["run", "--port", "0", str(script)])
    try:
        open_served(page, server)
        assert_shown_as_text(page, watch, f"tapeviz · {HOSTILE}.py", "a.title")
    finally:
        server.stop()


@pytest.mark.browser
def test_export_a_recording_with_a_hostile_name(recordings, tmp_path, watched_page):
    page, watch = watched_page
    name = f"{HOSTILE}.tvz"
    shutil.copy(recordings["main"], tmp_path / name)
    out = tmp_path / "page.html"
    proc = subprocess.run([sys.executable, "-m", "tapeviz.cli", "export", str(tmp_path / name),
                           "-o", str(out)], capture_output=True, text=True, timeout=300,
                          env=env_with_repo())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    page.goto(out.as_uri())
    page.wait_for_function("() => window.Bokeh && Bokeh.documents.length > 0")
    page.locator("h2").first.wait_for()
    assert_shown_as_text(page, watch, f"tapeviz · {name}", "h2")


def test_a_gallery_demo_with_a_hostile_title_is_served_as_text():
    """``tapeviz gallery --demos DIR``: a demo's title is its docstring's first line."""
    import warnings

    from bokeh.document import Document
    from bokeh.embed import file_html
    from bokeh.resources import CDN

    from tapeviz.ui.gallery.gallery import demo_page
    doc = Document()
    demo_page(f"{HOSTILE}\n\nA lesson.", []).server_doc(doc)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        html = file_html(doc, CDN, doc.title, template=doc.template,
                         template_variables=doc.template_variables)
    assert HOSTILE not in html
    assert doc.title == f"tapeviz gallery · {HOSTILE}"
