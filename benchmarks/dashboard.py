"""Dashboard speed (not a test): time from a recording to a drawn graph in the browser.

    .venv/bin/python benchmarks/dashboard.py [--sizes 100 1000 5000] [--json out.json]

For each size it records a tape of that many ops (a chain in name scopes of 50 ops, as a
layered model would be; the largest size once more in scopes of ``--big-group`` ops), serves it with ``tapeviz serve``, opens headless chromium and measures:

- ``record``: running the program with recording on (seconds);
- ``startup``: from starting ``tapeviz serve`` to the server answering (it parses the
  recording, imports the UI stack and lays out the graph before it listens);
- ``open``: from ``page.goto`` to the graph's nodes present in BokehJS (session, ingest,
  layout, first paint) -- the number a user waits for; ``open_warm`` is the best of three more
  tabs opened one after another (the first one closed), measured as ``floor`` is;
- ``expand``: pressing *Expand group* on a collapsed group until the new nodes are drawn;
- ``ingest``: events per second the store ingests in Python (what a live view can keep up with).
- ``switch`` (once, over the sizes): ``tapeviz serve DIR`` on a folder holding the recordings,
  one page open, a recording chosen in the header's picker: from the picker's change event
  (``performance.now()`` in the page) until the chosen recording's nodes are in BokehJS and
  the next frame has painted them. ``switch_cold_s`` is the first switch to each (parse,
  ingest, ``dot``), ``switch_s`` the median of ``--switch-runs`` more (parse and layout cached
  by the server); ``switch_kb`` what the websocket brought.
And once, ``floor``: the same ``open`` for a Panel page holding one Bokeh figure, what Panel,
Bokeh and chromium cost on this machine before tapeviz does anything; and ``live``: a producer writing as fast as it can while the dashboard follows it: events
per second shown in the page's status until "stream ended"; and ``hose``: a recorded run
appended to the followed file at once, so the rate is the dashboard's own capacity; and
``load`` (benchmarks/live_clicks.py): clicks answered while two tabs follow a writer of
``--load-rate`` events/s, against the same clicks on the finished file (``--load-only``: just
this one).
Without ``dot`` the layout falls back to ``graphviz-pure`` (set TAPEVIZ_DOT to compare).
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("TAPEVIZ_CHROMIUM") or shutil.which("chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

PROGRAM = """\
import sys
import tapeviz as tv
n, scope = int(sys.argv[1]), int(sys.argv[2])
x = tv.Variable(1.0, name="x")
with tv.GradientTape() as tape:
    y = x
    for b in range(max(n // scope, 1)):
        with tv.name_scope(f"layer{b}"):
            for i in range(min(scope, n)):
                y = y * 1.0001 if i % 2 else y + 0.001
g = tape.gradient(y, x)
"""

LIVE = """\
import sys
import tapeviz as tv
from tapeviz.recording import record
with record(sys.argv[1], full=True):
    x = tv.Variable(1.0, name="x")
    for step in range(int(sys.argv[2])):
        with tv.GradientTape() as tape:
            loss = tv.reduce_sum(x * x * 3.0 + 1.0)
        g = tape.gradient(loss, x)
        x.assign_sub(0.01 * g)
        tv.events.log_scalar("loss", float(loss), step)
"""


def env():
    e = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    e.pop("TAPEVIZ_RECORD", None)
    e.pop("_TAPEVIZ_RECORD_PID", None)
    return e


FLOOR_APP = """\
import panel as pn
from bokeh.models import ColumnDataSource
from bokeh.plotting import figure
pn.extension("tabulator")
fig = figure(height=400, sizing_mode="stretch_width")
fig.rect("x", "y", 1, 1, source=ColumnDataSource({"x": [0, 1], "y": [0, 1]}, name="nodes"))
pn.template.BootstrapTemplate(title="floor", main=[pn.pane.Bokeh(fig)]).servable()
"""


def serve(path, *extra, command=None, timeout=120):
    command = command or [sys.executable, "-m", "tapeviz.cli", "serve", str(path), "--port", "0"]
    proc = subprocess.Popen([*command, *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, cwd=ROOT, env=env())
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l) for l in proc.stdout], daemon=True).start()
    while True:
        line = lines.get(timeout=timeout)
        m = re.search(r"(http://(?:127\.0\.0\.1|localhost):\d+/)", line)
        if m:
            url = m.group(1)
            break
    import urllib.request
    for _ in range(600):
        try:
            urllib.request.urlopen(url + "liveness", timeout=2)
            break
        except OSError:
            time.sleep(0.1)
    return proc, url


def stop(proc):
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


NODES = "Bokeh.documents[0].get_model_by_name('nodes')"
WAIT = f"() => window.Bokeh && Bokeh.documents.length && {NODES} && {NODES}.data.x.length > 0"


def record(n, work, scope=50) -> pathlib.Path:
    prog = work / "prog.py"
    prog.write_text(PROGRAM)
    rec = work / f"tape{n}_{scope}.tvz"
    subprocess.run([sys.executable, str(prog), str(n), str(scope)], check=True, cwd=work,
                   env=dict(env(), TAPEVIZ_RECORD=str(rec), TAPEVIZ_RECORD_FULL="1"))
    return rec


def bench_size(browser, n, work, scope=50):
    out = {"ops": n, "scope": scope}
    t = time.perf_counter()
    rec = record(n, work, scope)
    out["record_s"] = round(time.perf_counter() - t, 2)
    out["events"] = sum(1 for _ in open(rec)) - 1
    sys.path.insert(0, str(ROOT))
    from tapeviz.ui.store.source import load_events
    from tapeviz.ui.store.store import Store
    events = load_events(rec)
    t = time.perf_counter()
    Store().ingest(events)
    out["ingest_events_per_s"] = int(len(events) / (time.perf_counter() - t))
    t = time.perf_counter()
    proc, url = serve(rec)
    out["startup_s"] = round(time.perf_counter() - t, 2)    # parse, import, lay out, listen
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(600_000)
        t = time.perf_counter()
        page.goto(url, wait_until="commit")
        page.wait_for_function(WAIT, timeout=300_000)
        out["open_s"] = round(time.perf_counter() - t, 2)
        out["nodes_drawn"] = page.evaluate(f"() => {NODES}.data.x.length")
        keys = page.evaluate(f"() => Array.from({NODES}.data.key)")
        group = next((k for k in keys if k.startswith("grp:")), None)
        if group:
            before = len(keys)
            page.evaluate(f"(k) => {{ const s = {NODES}; s.selected.indices = [s.data.key.indexOf(k)]; }}", group)
            btn = page.locator(".bk-btn", has_text="Expand group").first
            btn.wait_for(state="visible", timeout=60_000)
            t = time.perf_counter()
            btn.click()
            page.wait_for_function(f"(n) => {NODES}.data.x.length !== n", arg=before, timeout=300_000)
            out["expand_s"] = round(time.perf_counter() - t, 2)
        page.close()
        # as the floor is taken: no other tab open, best of three (parse and layout cached)
        out["open_warm_s"] = min(open_time(browser, url) for _ in range(3))
    finally:
        stop(proc)
    return out


def open_time(browser, url) -> float:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        t = time.perf_counter()
        page.goto(url, wait_until="commit")
        page.wait_for_function(WAIT, timeout=300_000)
        return round(time.perf_counter() - t, 2)
    finally:
        page.close()


def bench_floor(browser, work) -> dict:
    """The same measure on a Panel page holding one Bokeh figure of two boxes: what Panel,
    Bokeh and the browser cost on this machine before tapeviz does anything."""
    app = work / "floor.py"
    app.write_text(FLOOR_APP)
    port = socket_port()
    proc, url = serve(None, command=[sys.executable, "-m", "panel", "serve", str(app), "--port",
                                     str(port), "--address", "127.0.0.1", "--liveness"])
    try:
        open_time(browser, url + "floor")               # the first session pays the imports
        return {"floor_open_s": min(open_time(browser, url + "floor") for _ in range(3))}
    finally:
        stop(proc)


def socket_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bench_live(browser, work, steps=2000):
    script = work / "live.py"
    script.write_text(LIVE)
    rec = work / "live.tvz"
    producer = subprocess.Popen([sys.executable, str(script), str(rec), str(steps)], env=env(), cwd=work)
    proc, url = serve(rec, "--follow")
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(600_000)
        t = time.perf_counter()
        page.goto(url, wait_until="commit")
        page.wait_for_function(WAIT, timeout=300_000)
        status = page.locator(".tv-status").first     # Playwright pierces shadow roots
        text = ""
        while "stream ended" not in text and time.perf_counter() - t < 240:
            text = status.evaluate("e => e.shadowRoot ? e.shadowRoot.textContent : e.textContent")
            time.sleep(0.1)
        elapsed = time.perf_counter() - t
        n = int(re.search(r"(\d+) events", text).group(1))
        producer.wait(timeout=60)
        return {"live_steps": steps, "live_events": n, "live_s": round(elapsed, 2),
                "live_events_per_s": int(n / elapsed)}
    finally:
        stop(proc)
        if producer.poll() is None:
            producer.kill()


def bench_firehose(browser, work, steps=5000):
    """The live view's capacity: a recorded run is appended to a followed file as fast as the
    disk takes it (well under a second), so the rate the page reaches "stream ended" at is the
    dashboard's, not the producer's. Browser round trips are timed meanwhile (responsiveness)."""
    script = work / "live.py"
    script.write_text(LIVE)
    src = work / "hose_src.tvz"
    subprocess.run([sys.executable, str(script), str(src), str(steps)], env=env(), cwd=work, check=True)
    data = src.read_bytes()
    dst = work / "hose.tvz"
    proc, url = serve(dst, "--follow")
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(600_000)
        page.goto(url)
        status = page.locator(".tv-status").first
        status.wait_for()
        read = "e => e.shadowRoot ? e.shadowRoot.textContent : e.textContent"
        t0 = time.perf_counter()
        with open(dst, "ab") as fh:
            for i in range(0, len(data), 1 << 18):
                fh.write(data[i:i + (1 << 18)])
                fh.flush()
        written = time.perf_counter() - t0
        text, lags = "", []
        while "stream ended" not in text and time.perf_counter() - t0 < 300:
            t = time.perf_counter()
            text = status.evaluate(read)
            lags.append(time.perf_counter() - t)
            time.sleep(0.05)
        elapsed = time.perf_counter() - t0
        n = int(re.search(r"(\d+) events", text).group(1))
        return {"hose_events": n, "hose_written_s": round(written, 2), "hose_s": round(elapsed, 2),
                "hose_events_per_s": int(n / elapsed),
                "hose_max_roundtrip_ms": int(1000 * max(lags)) if lags else None}
    finally:
        stop(proc)


SWITCH_JS = """async ({name, before}) => {
  const doc = Bokeh.documents[0], src = doc.get_model_by_name('nodes');
  let status = null;
  for (const m of doc.all_models)
    if (m.css_classes && Array.from(m.css_classes).includes('tv-status')) { status = m; break; }
  const frame = () => new Promise(r => requestAnimationFrame(() => r()));
  const done = () => src.data.key.length > 0 && src.data.key.length !== before
                     && (!status || String(status.text).includes(name));
  while (!done()) await frame();
  await frame();                                 // the frame that paints the new data
  await new Promise(r => setTimeout(r, 0));
  return performance.now() - window.__tv_t0;
}"""
MARK_JS = ("el => el.addEventListener('change', () => { window.__tv_t0 = performance.now(); },"
           " {once: true, capture: true})")


def pick(page, picker, name) -> float:
    """Choose ``name`` in the folder's picker: ms from its change event until the recording's
    nodes are painted."""
    before = page.evaluate(f"() => {NODES}.data.key.length")
    picker.evaluate(MARK_JS)
    picker.select_option(name)
    return page.evaluate(SWITCH_JS, {"name": name, "before": before})


def bench_switch(browser, work, recs, runs=5) -> list:
    """``tapeviz serve DIR`` and the header's picker: from the picker's change event (a
    ``performance.now()`` mark in the page) until the chosen recording's nodes are in BokehJS
    and the next frame has painted them. The folder opens on a small recording, so the first
    switch to each size is cold (parse, ingest, ``dot``); the next ``runs`` are warm (parse
    and layout cached by the server). Bytes: what the websocket brought for the switch."""
    folder = work / "switch"
    folder.mkdir(exist_ok=True)
    names = {}
    for n, rec in recs.items():
        names[n] = f"tape{n}.tvz"
        shutil.copyfile(rec, folder / names[n])
    shutil.copyfile(record(10, work), folder / "start.tvz")     # the newest: opened first
    proc, url = serve(folder)
    got = {n: {"switch_ops": n, "runs_s": [], "bytes": []} for n in recs}
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(600_000)
        received = [0]
        page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda p: received.__setitem__(0, received[0] + len(p))))
        t = time.perf_counter()
        page.goto(url, wait_until="commit")
        page.wait_for_function(WAIT, timeout=300_000)
        opened = round(time.perf_counter() - t, 2)
        picker = page.locator(".tv-picker select")
        shown = "start.tvz"
        for r in range(runs + 1):
            for n in recs:
                if shown == names[n]:
                    # choosing what the picker shows fires no change event (so nothing would
                    # switch, and the wait below never end): with a single size, go back to
                    # the start recording first, untimed
                    pick(page, picker, "start.tvz")
                    page.wait_for_timeout(300)      # its late messages not in the next bytes
                received[0] = 0
                ms = pick(page, picker, names[n])
                shown = names[n]
                page.wait_for_timeout(300)          # late messages count in the bytes
                if r == 0:
                    got[n]["cold_s"] = round(ms / 1000, 3)
                    got[n]["cold_bytes"] = received[0]
                    got[n]["nodes_drawn"] = page.evaluate(f"() => {NODES}.data.key.length")
                else:
                    got[n]["runs_s"].append(round(ms / 1000, 3))
                    got[n]["bytes"].append(received[0])
        page.close()
    finally:
        stop(proc)
    import statistics
    out = []
    for n, g in got.items():
        out.append({"switch_ops": n, "switch_open_page_s": opened, "switch_cold_s": g["cold_s"],
                    "switch_s": statistics.median(g["runs_s"]), "switch_runs_s": g["runs_s"],
                    "switch_kb": int(statistics.median(g["bytes"]) / 1024),
                    "switch_cold_kb": int(g["cold_bytes"] / 1024),
                    "switch_nodes_drawn": g["nodes_drawn"]})
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sizes", type=int, nargs="*", default=[100, 1000, 5000])
    p.add_argument("--big-group", type=int, default=500,
                   help="also open the largest size in name scopes of this many ops and expand "
                        "one (0: skip)")
    p.add_argument("--live-steps", type=int, default=2000)
    p.add_argument("--switch-runs", type=int, default=5,
                   help="warm recording switches per size in an open page (0: skip)")
    p.add_argument("--switch-only", action="store_true",
                   help="only the recording switch (no floor, open, expand or live)")
    p.add_argument("--load-rate", type=int, default=10_000,
                   help="events/s of the writer two followed tabs are clicked under (0: skip)")
    p.add_argument("--load-clicks", type=int, default=10)
    p.add_argument("--load-only", action="store_true", help="only the clicks under load")
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    if not CHROMIUM:
        raise SystemExit("chromium not found (apt-get install chromium)")
    from playwright.sync_api import sync_playwright
    results = []
    with tempfile.TemporaryDirectory(prefix="tapeviz-bench-") as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        work = pathlib.Path(tmp)
        if args.load_only:
            args.switch_only, args.sizes, args.live_steps = True, [], 0
        if not args.switch_only:
            floor = bench_floor(browser, work)
            results.append(floor)
            print(json.dumps(floor), flush=True)
        runs = [(n, 50) for n in args.sizes]
        if args.sizes and args.big_group and not args.switch_only:
            runs.append((max(args.sizes), args.big_group))
        for n, scope in runs:
            if args.switch_only:
                record(n, work, scope)
                continue
            r = bench_size(browser, n, work, scope)
            results.append(r)
            print(json.dumps(r), flush=True)
        if args.switch_runs and args.sizes:
            for r in bench_switch(browser, work, {n: work / f"tape{n}_50.tvz" for n in args.sizes},
                                  args.switch_runs):
                results.append(r)
                print(json.dumps(r), flush=True)
        if args.live_steps and not args.switch_only:
            r = bench_live(browser, pathlib.Path(tmp), args.live_steps)
            results.append(r)
            print(json.dumps(r), flush=True)
            r = bench_firehose(browser, pathlib.Path(tmp), max(args.live_steps, 5000))
            results.append(r)
            print(json.dumps(r), flush=True)
        if args.load_rate and (args.load_only or not args.switch_only):
            from live_clicks import bench_clicks_under_load
            r = bench_clicks_under_load(browser, work, serve, stop, env, WAIT, args.load_rate,
                                        args.load_clicks)
            results.append(r)
            print(json.dumps(r), flush=True)
        browser.close()
    print(textwrap.dedent("""
        ops  scope  record_s  startup_s  open_s  open_warm_s  nodes_drawn  expand_s  ingest ev/s"""))
    for r in results:
        if "ops" in r:
            print(f"{r['ops']:>5}  {r['scope']:>5}  {r['record_s']:>8}  {r['startup_s']:>9}  {r['open_s']:>6}  "
                  f"{r['open_warm_s']:>11}  {r['nodes_drawn']:>11}  {r.get('expand_s', '-'):>8}  "
                  f"{r['ingest_events_per_s']:>11}")
        elif "hose_events" in r:
            print(f"live capacity: {r['hose_events']} events appended in {r['hose_written_s']} s, shown "
                  f"in {r['hose_s']} s -> {r['hose_events_per_s']} events/s; slowest page round "
                  f"trip meanwhile {r['hose_max_roundtrip_ms']} ms")
        elif "switch_ops" in r:
            print(f"switch to {r['switch_ops']:>5} ops in an open page: {r['switch_s']} s "
                  f"(median of {len(r['switch_runs_s'])}, {r['switch_kb']} KB), first time "
                  f"{r['switch_cold_s']} s ({r['switch_cold_kb']} KB); "
                  f"{r['switch_nodes_drawn']} nodes drawn")
        elif "click_ratio_median" in r:
            from live_clicks import summary
            print(summary(r))
        elif "floor_open_s" in r:
            print(f"floor: an empty Panel page with one Bokeh figure opens in {r['floor_open_s']} s")
        else:
            print(f"live: {r['live_events']} events in {r['live_s']} s -> {r['live_events_per_s']} events/s shown")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
