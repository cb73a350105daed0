"""Fixtures for the dashboard tests: recordings made by running small programs, the real
`tapeviz serve` server in a subprocess, and Playwright on Debian's chromium.

Browser tests FAIL (not skip) when chromium is missing: CI installs it."""
from __future__ import annotations

import os
import pathlib
import queue
import re
import shutil
import subprocess
import sys
import textwrap
import threading
import time
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("TAPEVIZ_CHROMIUM") or shutil.which("chromium") or ""
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def env_with_repo(**extra):
    env = dict(os.environ)
    # (no empty entry: Python reads one as the current folder)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    for var in ("TAPEVIZ_RECORD", "TAPEVIZ_RECORD_FULL", "_TAPEVIZ_RECORD_PID", "TAPEVIZ_EXPLAIN"):
        env.pop(var, None)
    env.update(extra)
    return env


def run_events(fn):
    """The events ``fn()`` emits."""
    from tapeviz import events as ev
    got = []
    with ev.subscribe(got.append):
        fn()
    return got


def sample_program():
    """A small run: a persistent tape, a value escaped to NumPy, a paused block, a
    stop_gradient, one gradient call over three variables."""
    import numpy as np
    import tapeviz as tv
    x = tv.Variable(3.0, name="x")
    c = tv.Variable(2.0, trainable=False, name="c")
    v = tv.Variable(5.0, name="v")
    with tv.GradientTape(persistent=True) as tape:
        y = x * x + c
        np.sin(x)
        with tape.stop_recording():
            q = v * 2.0
        loss = y + tv.stop_gradient(y) + q
    tape.gradient(loss, [x, c, v])


def record_program(directory: pathlib.Path, name: str, code: str) -> pathlib.Path:
    """Write ``code`` to ``name.py``, run it with TAPEVIZ_RECORD set, return the recording."""
    script = directory / f"{name}.py"
    script.write_text(textwrap.dedent(code))
    out = directory / f"{name}.tvz"
    proc = subprocess.run([sys.executable, str(script)], cwd=directory, capture_output=True,
                          text=True, timeout=120,
                          env=env_with_repo(TAPEVIZ_RECORD=str(out), TAPEVIZ_RECORD_FULL="1"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert out.exists() and out.stat().st_size > 0, "the program recorded nothing"
    return out


PROGRAM = """\
import numpy as np
import tapeviz as tv

x = tv.Variable(3.0, name="x")
w = tv.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
c = tv.Variable(2.0, trainable=False, name="c")
v = tv.Variable(5.0, name="v")
k = tv.constant([1.0, 2.0])
with tv.GradientTape(persistent=True) as tape:
    y = x * x + c
    z = tv.reduce_sum(tv.matmul(w, tv.reshape(k, (2, 1))))
    escaped = np.sin(x)
    with tape.stop_recording():
        q = v * 2.0
    loss = y + z + tv.stop_gradient(z) + q
grads = tape.gradient(loss, [x, w, c, v])
x.assign_add(1.0)
"""

HOSTILE = """\
import tapeviz as tv

evil = tv.Variable(1.0, name="<img src=x onerror=alert(1)>")
other = tv.Variable(2.0, name="<script>alert(2)</script>")
with tv.GradientTape() as tape:
    y = evil * other
g = tape.gradient(y, [evil, other, tv.constant(1.0)])
"""


@pytest.fixture(scope="session")
def recordings(tmp_path_factory):
    d = tmp_path_factory.mktemp("recordings")
    return {"main": record_program(d, "main_prog", PROGRAM),
            "hostile": record_program(d, "hostile_prog", HOSTILE)}


def next_match(lines: queue.Queue, proc, pattern, timeout=60):
    """The first line taken from ``lines`` (a process's output, line by line) that matches
    ``pattern``, as a re.Match; None when ``proc`` exits or ``timeout`` seconds pass first."""
    end = time.time() + timeout
    while time.time() < end:
        try:
            line = lines.get(timeout=0.5)
        except queue.Empty:
            if proc.poll() is not None:
                return None
            continue
        m = re.search(pattern, line)
        if m:
            return m
    return None


def wait_live(url, timeout=60) -> bool:
    """True once the server at ``url`` answers its /liveness (False after ``timeout``)."""
    end = time.time() + timeout
    while time.time() < end:
        try:
            with urllib.request.urlopen(url + "liveness", timeout=2) as r:
                if r.status == 200:
                    return True
        except OSError:
            time.sleep(0.2)
    return False


#: the pages watched during the running test and the servers running: what their consoles and
#: logs said goes into a failed test's report
_WATCHES: list = []
_SERVERS: list = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed browser test's report ends with what its pages' consoles and the running
    servers said: a click the server never answered is told apart from one whose callback
    failed and from a page that threw while applying the answer."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        for i, watch in enumerate(_WATCHES):
            thrown = [e for e in watch.errors if e.startswith("pageerror:")]
            lines = [*watch.console[-40:], *thrown[-10:]]
            report.sections.append((f"browser console of page {i}", "\n".join(lines)))
        for server in _SERVERS:
            if server.proc.poll() is None:
                report.sections.append((f"log of {' '.join(server.proc.args[2:5])}",
                                        "".join(server.log[-150:])))
    if report.when == "teardown":
        _WATCHES.clear()


class Server:
    """``python -m tapeviz.cli ARGS`` (or another ``module``) in a subprocess (serve or
    gallery), read until it prints a URL (``url_pattern``) and its /liveness answers."""

    def __init__(self, args, env=None, start_timeout=60, cwd=ROOT,
                 url_pattern=r"(http://127\.0\.0\.1:\d+/)", module="tapeviz.cli"):
        self.proc = subprocess.Popen([sys.executable, "-m", module, *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     cwd=cwd, env=env or env_with_repo())
        _SERVERS.append(self)
        self.url_pattern = url_pattern
        self.lines: queue.Queue = queue.Queue()
        self.log: list = []
        threading.Thread(target=self._read, daemon=True).start()
        self.url = self._wait_url(start_timeout)
        self._wait_live()

    def _read(self):
        for line in self.proc.stdout:
            self.log.append(line)
            self.lines.put(line)

    def _wait_url(self, timeout=60):
        m = next_match(self.lines, self.proc, self.url_pattern, timeout)
        if m:
            self.match = m
            return m.group(1)
        self.stop()
        pytest.fail("tapeviz did not start:\n" + "".join(self.log[-60:]))

    def _wait_live(self, timeout=60):
        if not wait_live(self.url, timeout):
            self.stop()
            pytest.fail("tapeviz never became live:\n" + "".join(self.log[-60:]))

    def stop(self):
        if self in _SERVERS:
            _SERVERS.remove(self)
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)   # tapeviz gallery forwards SIGTERM to panel serve
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


#: the corpus script whose NaN card and integer cut the graph tests check (truth by hand there)
WARMUP = pathlib.Path(__file__).parents[1] / "broken_runs" / "warmup_that_never_stops.py"


@pytest.fixture(scope="session")
def warmup_recording(tmp_path_factory) -> pathlib.Path:
    """WARMUP recorded in full, in this process (as `tv.record` in a user's notebook)."""
    import runpy
    import warnings

    import tapeviz as tv
    out = tmp_path_factory.mktemp("warmup") / "run.tvz"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with tv.record(str(out), full=True):
            runpy.run_path(str(WARMUP), run_name="__main__")
    return out


@pytest.fixture(scope="session")
def serve():
    servers = []

    def start(*args, env=None):
        s = Server(["serve", *map(str, args), "--port", "0"], env=env)
        servers.append(s)
        return s
    yield start
    for s in servers:
        s.stop()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not CHROMIUM:
        pytest.fail("chromium not found: install Debian's chromium (apt-get install chromium) "
                    "or set TAPEVIZ_CHROMIUM; browser tests cannot run without it")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ARGS}


class PageWatch:
    """Console errors, page errors, dialogs and requests that leave the machine."""

    def __init__(self, page):
        _WATCHES.append(self)
        self.errors, self.external, self.dialogs, self.requests = [], [], [], []
        self.console = []
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on("dialog", self._dialog)
        page.on("request", self._request)

    def _console(self, msg):
        self.console.append(msg.text)
        if msg.type == "error":
            self.errors.append(msg.text)

    def _dialog(self, dialog):
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def _request(self, request):
        self.requests.append(request.url)
        host = re.match(r"^[a-z]+://([^/:]+)", request.url)
        if host and host.group(1) not in ("127.0.0.1", "localhost"):
            self.external.append(request.url)

    def check(self, where=""):
        at = f"{where}: " if where else ""
        assert self.errors == [], (f"{at}console errors: {self.errors}; requests that left "
                                   f"127.0.0.1: {self.external}")
        assert self.external == [], f"{at}requests that left 127.0.0.1: {self.external}"
        assert self.dialogs == [], f"{at}a dialog opened (script ran): {self.dialogs}"


@pytest.fixture
def watched_page(page):
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.set_default_timeout(60_000)
    return page, PageWatch(page)


WAIT_GRAPH = ("() => window.Bokeh && Bokeh.documents.length && "
              "Bokeh.documents[0].get_model_by_name('nodes') && "
              "Bokeh.documents[0].get_model_by_name('nodes').data.x.length > 0")


def block_requests_except(page, allowed) -> list:
    """Abort every request of ``page`` whose URL does not start with one of ``allowed`` (a
    tuple of prefixes); the list returned fills with the URLs aborted."""
    blocked = []

    def route(r):
        if r.request.url.startswith(allowed):
            r.continue_()
        else:
            blocked.append(r.request.url)
            r.abort()
    page.route("**/*", route)
    return blocked


def open_dashboard(page, url):
    page.goto(url)
    page.wait_for_function(WAIT_GRAPH, timeout=60_000)


def node_data(page, name="nodes"):
    return page.evaluate(f"() => {{ const d = Bokeh.documents[0].get_model_by_name('{name}').data;"
                         " const o = {}; for (const k in d) o[k] = Array.from(d[k]); return o; }")


def click_node(page, key):
    """A real mouse click on the node ``key`` of the graph, once the node stays put: a note
    that appears above the graph (the reader's warnings, a live status) moves the canvas, and
    a click aimed before the move lands beside the node. The pointer first leaves the graph:
    the hover card of the node it rests on can sit over the next node (as for a user)."""
    page.mouse.move(1, 1)
    xy = node_xy(page, key)
    for _ in range(50):
        page.wait_for_timeout(100)
        again = node_xy(page, key)
        if again == xy:
            break
        xy = again
    page.mouse.click(*xy)


def click_until(click, shown, tries=3):
    """Call ``click()`` until ``shown()`` (which raises when what the click should show does
    not come) succeeds, and return what ``shown()`` returns. BokehJS takes a press that lasts
    too long for a tap, not a click: on a loaded machine the browser can see the mouse-up late
    and drop the click, where a user would simply click again."""
    for attempt in range(tries):
        click()
        try:
            return shown()
        except Exception:   # noqa: BLE001  (playwright's TimeoutError: click again)
            if attempt == tries - 1:
                raise


def select_node(page, key, tries=3):
    """Click the node ``key`` until the graph has it selected."""
    wait = ("(key) => { const n = Bokeh.documents[0].get_model_by_name('nodes');"
            " return n.selected.indices.length === 1 &&"
            " n.data.key[n.selected.indices[0]] === key; }")
    click_until(lambda: click_node(page, key),
                lambda: page.wait_for_function(wait, arg=key, timeout=10_000), tries)


def glyph_xy(page, plot, source, column, value):
    """Where the point whose ``column`` is ``value`` in the data source named ``source`` is
    drawn on the plot named ``plot``, in CSS pixels."""
    return page.evaluate("""([plot, source, column, value]) => {
        const d = Bokeh.documents[0], src = d.get_model_by_name(source);
        const i = src.data[column].indexOf(value);
        const v = Bokeh.index.find_one_by_id(d.get_model_by_name(plot).id);
        const r = v.canvas_view.el.getBoundingClientRect();
        return [r.left + v.frame.x_scale.compute(src.data.x[i]),
                r.top + v.frame.y_scale.compute(src.data.y[i])]; }""",
                         [plot, source, column, value])


def node_xy(page, key):
    """Where the node ``key`` is on the page, in CSS pixels."""
    return glyph_xy(page, "dag", "nodes", "key", key)
