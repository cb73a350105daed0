"""The demo gallery in a real browser: the index, then every demo from the index's links.

The gallery is served once, as the README's first command does (``tapeviz gallery``, which runs
``panel serve demos/*.py --index index``), on a free port. Each demo page must draw its graph,
step its backward pass and show its explanations with no console error and no request that
leaves 127.0.0.1. Headless Debian chromium through Playwright; a missing chromium is a failure.
The tests at the end (no browser) check the pieces: the command line, the docstrings the index
reads, and a lesson run into events and a page, at once or live.
"""
from __future__ import annotations

import ast
import os
import re
import shutil
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tapeviz.ui.gallery import gallery, demo_runner as lesson

from conftest import PageWatch, Server, env_with_repo

ROOT = Path(__file__).resolve().parents[2]
DEMOS = gallery.demo_files(ROOT / "demos")
STEMS = [p.stem for p in DEMOS]
CHROMIUM = os.environ.get("TAPEVIZ_CHROMIUM") or shutil.which("chromium") or ""

WAIT_DOC = "() => window.Bokeh && Bokeh.documents.length > 0"
WAIT_GRAPH = ("() => { if (!(window.Bokeh && Bokeh.documents.length)) return false;"
              " const m = Bokeh.documents[0].get_model_by_name('nodes');"
              " return !!m && m.data.x.length > 0; }")


# ---- fixtures -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def served_gallery():
    if not CHROMIUM:
        pytest.fail("chromium not found: the gallery's browser tests need Debian's chromium "
                    "(apt-get install chromium, or ./run.sh setup) or TAPEVIZ_CHROMIUM")
    # the MLP demo trains for 2 epochs only in tests
    g = Server(["gallery", "--port", "0", "--liveness"],
               env=env_with_repo(TAPEVIZ_DEMO_EPOCHS="2"), start_timeout=90)
    try:
        yield g
    finally:
        g.stop()


@pytest.fixture
def watched(page):
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.set_default_timeout(60_000)
    return page, PageWatch(page)


@pytest.fixture(scope="module")
def index_links(served_gallery, browser):
    """The demo links the index page shows, read once in a browser."""
    page = browser.new_page()
    watch = PageWatch(page)
    try:
        page.goto(served_gallery.url)
        page.wait_for_function(WAIT_DOC)
        page.locator("a.tv-card").first.wait_for()
        links = page.eval_on_selector_all(
            "a.tv-card", "els => els.map(e => [e.dataset.demo, e.getAttribute('href')])")
        watch.check("index")
    finally:
        page.close()
    return dict(links)


# ---- tests --------------------------------------------------------------------------------

@pytest.mark.browser
def test_index_shows_a_card_per_demo_with_its_thumbnail(served_gallery, watched):
    page, watch = watched
    page.goto(served_gallery.url)
    page.wait_for_function(WAIT_DOC)
    cards = page.locator("a.tv-card")
    cards.first.wait_for()
    assert cards.count() == len(STEMS)
    for stem, card in zip(STEMS, (cards.nth(i) for i in range(cards.count()))):
        info = gallery.demo_info(ROOT / "demos" / f"{stem}.py")
        assert card.get_attribute("href") == f"./{stem}"
        assert info.title in card.inner_text()
        assert info.summary and info.summary[:40] in " ".join(card.inner_text().split())
    thumbs = sorted(p.stem for p in (ROOT / "demos" / "thumbnails").glob("*.png"))
    assert thumbs == STEMS, "every demo has a committed thumbnail (demos/make_thumbnails.py)"
    sizes = page.eval_on_selector_all(
        "a.tv-card img", "els => Promise.all(els.map(e => e.decode().then("
                         "() => [e.getAttribute('src'), e.naturalWidth], () => [e.getAttribute('src'), 0])))")
    assert len(sizes) == len(STEMS) and all(w > 0 for _, w in sizes), sizes
    # no title or summary runs out of its card (long API names such as
    # watch_accessed_variables=False must wrap, not be clipped)
    clipped = page.eval_on_selector_all(
        "a.tv-card .tv-text", "els => els.filter(e => e.scrollWidth > e.clientWidth)"
                              ".map(e => e.innerText.slice(0, 60))")
    assert clipped == [], clipped
    assert not [r for r in watch.requests if "mathjax" in r.lower()]   # no math to typeset
    watch.check("index")


@pytest.mark.browser
@pytest.mark.parametrize("stem", STEMS)
def test_demo_draws_steps_and_explains(served_gallery, index_links, watched, stem):
    page, watch = watched
    assert stem in index_links, f"the index has no link to {stem}"
    page.goto(served_gallery.url + index_links[stem].lstrip("./"))
    page.wait_for_function(WAIT_DOC)
    page.wait_for_function(WAIT_GRAPH)
    # the page shows the demo's title and what its script printed
    title = gallery.demo_info(ROOT / "demos" / f"{stem}.py").title
    assert title in page.title()
    # (the pane's HTML may be set after the document is idle: wait for it, as a reader would)
    printed = page.locator(".tv-out pre").first
    expect(printed).to_have_text(re.compile(r"\S"))
    assert printed.inner_text().strip() != "(nothing)", "the script printed nothing"
    assert page.get_by_text("def lesson(tf").count() >= 1        # the lesson's code is shown
    # step the backward pass
    page.locator(".bk-tab", has_text="Backward").first.click()
    head = page.locator(".tv-step-title").first
    no_steps = page.get_by_text("No backward steps for this call.").first   # nothing recorded
    expect(head.or_(no_steps)).to_be_visible()
    steps = 0
    if head.count():
        expect(head).to_have_text(re.compile(r"^\s*step 1 of \d+"))
        steps = int(re.match(r"\s*step 1 of (\d+)", head.inner_text()).group(1))
    if steps >= 2:
        page.locator(".tv-player-buttons .bk-btn", has_text="next").first.click()
        # (the server redraws the step's graph: under a full suite's load this took over the
        # 5 s `expect` waits by default, while the page's own actions wait up to 60 s)
        expect(head).to_have_text(re.compile(r"^\s*step 2 of "), timeout=60_000)
    # the explanations
    page.locator(".bk-tab", has_text="Why").first.click()
    page.locator(".tv-why-name").first.wait_for(state="attached")   # an ok card is folded
    assert page.locator(".tv-why-name").count() >= 1
    watch.check(stem)
    assert any("Websocket connection 0 is now open" in c for c in watch.console), watch.console[-5:]


def test_gallery_command_line():
    command = gallery.build_command(["--port", "5123", "--show"])
    cmd = command.argv
    # panel's serve command through tapeviz's own start-up code: never `python -m`, which
    # puts the current folder on sys.path
    assert cmd[1:3] == ["-c", gallery.PANEL_SERVE] and cmd[4] == "serve"
    assert Path(cmd[3]) == Path(gallery.__file__).resolve().parents[2]   # the tapeviz package
    assert command.env == {} and command.url == "http://127.0.0.1:5123/"
    served = [Path(c).name for c in cmd if c.endswith(".py")]
    assert served == [f"{s}.py" for s in STEMS] + ["index.py"]
    assert "make_thumbnails.py" not in served
    i = cmd.index("--index")
    assert cmd[i + 1] == "index"
    assert cmd[cmd.index("--address") + 1] == "127.0.0.1"
    assert cmd[cmd.index("--port") + 1] == "5123" and "--show" in cmd
    static = cmd[cmd.index("--static-dirs") + 1]
    assert static == f"thumbnails={ROOT / 'demos' / 'thumbnails'}"


def test_gallery_command_on_a_network_address_carries_its_token():
    command = gallery.build_command(["--address", "0.0.0.0", "--port", "5123",
                                     "--allow-origin", "myhost.example"])
    token = command.env["TAPEVIZ_TOKEN"]
    assert command.url == f"http://myhost.example:5123/?token={token}" and len(token) >= 32
    assert command.env["BOKEH_SIGN_SESSIONS"] == "yes" and command.env["BOKEH_SECRET_KEY"]
    cmd = command.argv
    assert Path(cmd[cmd.index("--auth-module") + 1]).name == "token_auth.py"
    origins = [cmd[i + 1] for i, c in enumerate(cmd) if c == "--allow-websocket-origin"]
    assert origins == ["myhost.example:5123", "127.0.0.1:5123", "localhost:5123"]
    assert "--show" not in cmd and "*" not in " ".join(cmd)
    with pytest.raises(ValueError, match="without its token"):
        gallery.build_command(["--address", "0.0.0.0", "--allow-origin", "h:1", "--show"])


def test_demo_docstrings_give_the_index_a_title_and_summary():
    for path in DEMOS:
        info = gallery.demo_info(path)
        assert info.title and info.summary.endswith("."), path.name
        assert ast.get_docstring(ast.parse(path.read_text())).startswith(info.title)


def _load(stem):
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"demo_{stem}", ROOT / "demos" / f"{stem}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_run_lesson_captures_events_output_and_explanations():
    import tapeviz as tf
    demo = _load(next(s for s in STEMS if "what_is_watched" in s))
    events, output = lesson.run_lesson(demo.lesson, tf)
    assert output.splitlines()[:4] == ["tv.Tensor(6.0, shape=(), dtype=float32)", "None", "None", "None"]
    kinds = {e.kind for e in events}
    assert {"op_defined", "tape_opened", "op_recorded", "gradient_started", "gradient_finished"} <= kinds
    causes = [r["cause"] for e in events if e.kind == "gradient_finished" for r in e.results]
    assert {"not_trainable", "replaced_variable", "not_watched"} <= set(causes)


def test_demo_page_builds_and_opens_on_the_first_gradient_call():
    import panel as pn
    import tapeviz as tf
    demo = _load(next(s for s in STEMS if "none_causes" in s))
    events, output = lesson.run_lesson(demo.lesson, tf)
    page = gallery.demo_page(demo.__doc__, events, output=output)
    assert isinstance(page, pn.template.BootstrapTemplate)
    assert "Gradients that become None" in page.title
    dash = gallery._dashboard(events, "t")
    first = next(e.call for e in events if e.kind == "gradient_started")
    assert dash.state.call == first      # the NumPy lesson: its tape recorded x**2, then the escape
    assert len(dash.plot.nodes.data["x"]) > 0


def test_live_lesson_streams_events_and_output():
    import tapeviz as tf
    demo = _load(next(s for s in STEMS if "square" in s))
    live = lesson.LiveLesson(demo.lesson, tf)
    assert live.poll() == [] and not live.ended
    live.start()
    seen, end = [], time.time() + 60
    while not live.ended and time.time() < end:
        seen += live.poll()
        time.sleep(0.05)
    seen += live.poll()
    assert live.ended
    assert live.output.startswith("tv.Tensor(6.0, shape=(), dtype=float32)\n6.0\n")
    assert sum(e.kind == "gradient_finished" for e in seen) >= 2
