"""Where a cold dashboard page open goes (not a test): one timeline per page, in headless chromium.

    .venv/bin/python benchmarks/page_open.py [--sizes 100 1000] [--runs 7] [--pause 2] [--res]
        [--before /path/to/another/checkout]

It serves ``tapeviz serve`` on a recorded chain of each size (as ``benchmarks/dashboard.py``
records it; with ``--before TREE`` also from that checkout, opened in turn with this one: a
paired before/after on a machine whose load moves) and three floors, served by one ``panel
serve`` that loads what tapeviz's pages load (no MathJax or WebGL bundle): ``floor`` (a Panel
BootstrapTemplate holding one Bokeh figure, the page ``dashboard.py``'s floor opens), ``bare``
(the same figure without a template) and ``empty`` (a Panel page holding one line of text). The
pages are opened in turn, ``--runs`` times each after one warm-up, each in a new browser
context (nothing cached), ``--pause`` seconds apart (a person does not open a tab the moment
the last one drew; ``tapeviz serve`` builds the next tab's session in that time). Printed
per page, medians in ms from ``page.goto``:

- ``html``: the page's HTML received (the server built the session first, unless a spare was
  ready); ``scripts``: the last script received; ``bokeh``: BokehJS and Panel parsed and run;
- ``ws``: the websocket open; ``pulled``: the document's JSON received; ``doc``: BokehJS built
  its models and views (``nodes``: the graph's data is in them); ``painted``: the next frame;
- ``wall``: ``page.goto`` until the graph (or, for ``empty``, the page) is painted, measured
  in Python; ``kB``/``files``: what the page loaded; ``models``: Bokeh models in the document.
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from dashboard import ARGS, CHROMIUM, FLOOR_APP, record, serve, socket_port, stop  # noqa: E402

BARE_APP = """\
import panel as pn
from tapeviz.private_apis import skip_mathjax, skip_webgl
skip_mathjax(); skip_webgl()
from bokeh.models import ColumnDataSource
from bokeh.plotting import figure
pn.extension()
fig = figure(height=400, sizing_mode="stretch_width")
fig.rect("x", "y", 1, 1, source=ColumnDataSource({"x": [0, 1], "y": [0, 1]}, name="nodes"))
pn.pane.Bokeh(fig, sizing_mode="stretch_width").servable()
"""
EMPTY_APP = """\
import panel as pn
from tapeviz.private_apis import skip_mathjax, skip_webgl
skip_mathjax(); skip_webgl()
pn.extension()
pn.pane.Str("empty").servable()
"""

# marks set in the page: the websocket's messages, BokehJS's arrival, the document, the paint
INIT = r"""
window.__tv = {ws: [], m: {}};
(() => {
  const WS = window.WebSocket, m = __tv.m;
  function W(...a) { const ws = new WS(...a);
    ws.addEventListener('open', () => m.ws = performance.now());
    ws.addEventListener('message', e => __tv.ws.push([performance.now(),
      typeof e.data === 'string' ? e.data.length : (e.data.size || e.data.byteLength || 0)]));
    return ws; }
  W.prototype = WS.prototype; Object.assign(W, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  window.WebSocket = W;
  const tick = () => {
    const now = performance.now(), B = window.Bokeh;
    if (!m.bokeh && B) m.bokeh = now;
    if (!m.doc && B && B.documents && B.documents.length && B.index && [...B.index.roots].length) {
      m.doc = now; requestAnimationFrame(() => m.painted = performance.now()); }
    if (m.doc && !m.nodes) { const n = B.documents[0].get_model_by_name('nodes');
      if (n && n.data.x && n.data.x.length > 0) {
        m.nodes = now; requestAnimationFrame(() => m.nodes_painted = performance.now()); } }
    if (!m.nodes) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();
"""
DONE = "(graph) => window.__tv && (graph ? __tv.m.nodes_painted : __tv.m.painted)"
COLLECT = """() => { const n = performance.getEntriesByType('navigation')[0];
  const r = performance.getEntriesByType('resource');
  const big = __tv.ws.filter(w => w[1] > 1000);
  return {html: n.responseEnd, scripts: Math.max(0, ...r.filter(e => e.initiatorType === 'script')
            .map(e => e.responseEnd)), kb: r.reduce((s, e) => s + e.encodedBodySize, 0) / 1024,
          files: r.length, ws_kb: __tv.ws.reduce((s, w) => s + w[1], 0) / 1024,
          pulled: big.length ? big[0][0] : null, models: Bokeh.documents[0].all_models.size,
          names: r.map(e => [e.name.split('/').pop().split('?')[0],
                             Math.round(e.encodedBodySize / 1024)]),
          ...__tv.m}; }"""
COLUMNS = ["wall", "html", "scripts", "bokeh", "ws", "pulled", "doc", "nodes", "painted", "kb",
           "files", "ws_kb", "models"]


def open_once(browser, url, graph):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.add_init_script(INIT)
        t = time.perf_counter()
        page.goto(url, wait_until="commit")
        page.wait_for_function(DONE, arg=graph, timeout=120_000, polling="raf")
        wall = time.perf_counter() - t
        out = page.evaluate(COLLECT)
        out["wall"] = 1000 * wall
        out["painted"] = out.get("nodes_painted") or out.get("painted")
        return out
    finally:
        context.close()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sizes", type=int, nargs="*", default=[100, 1000])
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--pause", type=float, default=2.0, help="seconds between two page opens")
    p.add_argument("--no-floors", action="store_true")
    p.add_argument("--before", default=None, help="another checkout of tapeviz to serve too")
    p.add_argument("--res", action="store_true", help="also list the files the pages loaded")
    args = p.parse_args(argv)
    if not CHROMIUM:
        raise SystemExit("chromium not found (apt-get install chromium)")
    from playwright.sync_api import sync_playwright
    procs, pages = [], []
    with tempfile.TemporaryDirectory(prefix="tapeviz-open-") as tmp, sync_playwright() as pw:
        work = pathlib.Path(tmp)
        try:
            for n in args.sizes:
                rec = record(n, work)
                proc, url = serve(rec)
                procs.append(proc)
                pages.append((f"tapeviz {n}", url, True))
                if args.before:
                    boot = (f"import sys; sys.path.insert(0, {str(args.before)!r}); "
                            "from tapeviz.cli import main; sys.exit(main())")
                    proc, url = serve(None, command=[sys.executable, "-c", boot, "serve",
                                                     str(rec), "--port", "0"])
                    procs.append(proc)
                    pages.append((f"before {n}", url, True))
            if not args.no_floors:
                for name, app in (("floor", FLOOR_APP), ("bare", BARE_APP), ("empty", EMPTY_APP)):
                    (work / f"{name}.py").write_text(app)
                apps = [str(work / f"{name}.py") for name in ("floor", "bare", "empty")]
                proc, url = serve(None, command=[sys.executable, "-m", "panel", "serve", *apps,
                                                 "--port", str(socket_port()), "--address",
                                                 "127.0.0.1", "--liveness"])
                procs.append(proc)
                pages += [("floor", url + "floor", True), ("bare", url + "bare", True),
                          ("empty", url + "empty", False)]
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            got = {name: [] for name, _, _ in pages}
            for name, url, graph in pages:        # a server's first session pays its imports
                open_once(browser, url, graph)
            for r in range(args.runs):
                for name, url, graph in pages:
                    time.sleep(args.pause)
                    got[name].append(open_once(browser, url, graph))
            browser.close()
        finally:
            for proc in procs:
                stop(proc)
    print("median ms".ljust(14) + "".join(c.rjust(8) for c in COLUMNS))
    for name, runs in got.items():
        cells = []
        for c in COLUMNS:
            vals = [r[c] for r in runs if r.get(c) is not None]
            cells.append(f"{statistics.median(vals):.0f}" if vals else "-")
        print(name.ljust(14) + "".join(x.rjust(8) for x in cells))
    if args.res:
        for name, runs in got.items():
            print(f"{name}: " + ", ".join(f"{f} {kb} kB" for f, kb in runs[0]["names"]))


if __name__ == "__main__":
    main()
