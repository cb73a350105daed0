"""Clicks under load (part of benchmarks/dashboard.py): how long a click takes to be answered
while two tabs follow a fast writer, against the same clicks on the finished recording.

A writer process records a small training loop (two variables, so two nodes are in every
tape's graph) at about ``rate`` events a second; ``tapeviz serve --follow`` follows the file;
two headless chromium tabs open on it. Each click selects the graph node of ``x`` or ``w``
(alternately) in one tab (alternately) as a tap does, and is timed in the page, from the
selection to the frame that paints the inspector showing that variable. Meanwhile the page's
event count is read against the file's: the lag. Then the writer stops (closing the file), and
the same clicks are timed on that finished file served without ``--follow``: the ratio is
followed / finished.
"""
from __future__ import annotations

import pathlib
import statistics
import subprocess
import sys
import time

WRITER = """\
import os, signal, sys, tempfile, time
import tapeviz as tv
from tapeviz.recording import record
signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))     # close the recording on stop
path, rate = sys.argv[1], float(sys.argv[2])
x = tv.Variable(1.0, name="x")
w = tv.Variable(2.0, name="w")

def step(i):
    with tv.GradientTape() as tape:
        loss = tv.reduce_sum(x * x * 3.0 + w * w)
    gx, gw = tape.gradient(loss, [x, w])
    x.assign_sub(0.001 * gx)
    w.assign_sub(0.001 * gw)
    tv.events.log_scalar("loss", float(loss), i)

probe = os.path.join(tempfile.mkdtemp(), "probe.tvz")     # events a step, counted
with record(probe, full=True):
    for i in range(50):
        step(i)
per_step = (sum(1 for _ in open(probe, "rb")) - 2) / 50
os.unlink(probe)
with record(path, full=True):
    start, i = time.perf_counter(), 0
    while True:
        step(i)
        i += 1
        ahead = i * per_step / rate - (time.perf_counter() - start)
        if ahead > 0.005:
            time.sleep(ahead)
"""

# the in-page measure: select the node `key` as a tap does, then wait for the page to show
# the inspector of `name` (its node-name line, inside the panes' shadow roots) and for the
# frame that paints it
CLICK_JS = """async ({key, name, give_up}) => {
  const shown = (root) => {
    for (const e of root.querySelectorAll('*')) {
      if (e.classList.contains('tv-node-name') && e.textContent === name) return true;
      if (e.shadowRoot && shown(e.shadowRoot)) return true;
    }
    return false; };
  const src = Bokeh.documents[0].get_model_by_name('nodes');
  const frame = () => new Promise(r => requestAnimationFrame(() => r()));
  const t0 = performance.now();
  let i = src.data.key.indexOf(key);
  while (i < 0) { await frame(); i = src.data.key.indexOf(key); }
  src.selected.indices = [i];
  while (!shown(document)) {
    if (performance.now() - t0 > give_up) return -1;
    await frame();
    // the graph may be redrawn (a newer tape) before the selection reached the server
    const j = src.data.key.indexOf(key);
    if (j >= 0 && src.selected.indices[0] !== j) src.selected.indices = [j];
  }
  await frame();
  return performance.now() - t0;
}"""

STATUS_JS = """() => {
  for (const m of Bokeh.documents[0].all_models)
    if (m.css_classes && Array.from(m.css_classes).includes('tv-status')) return String(m.text);
  return '';
}"""


class FileCounter:
    """Events in a growing recording (its lines but the header), read incrementally."""

    def __init__(self, path):
        self.path, self.offset, self.lines = pathlib.Path(path), 0, 0

    def count(self) -> int:
        try:
            with open(self.path, "rb") as fh:
                fh.seek(self.offset)
                data = fh.read()
        except FileNotFoundError:
            return 0
        self.lines += data.count(b"\n")
        self.offset += len(data)
        return max(self.lines - 1, 0)


def shown_events(page) -> int:
    import re
    m = re.search(r"([\d,]+) events", page.evaluate(STATUS_JS))
    return int(m.group(1).replace(",", "")) if m else 0


def variable_keys(page) -> dict:
    data = page.evaluate("() => { const d = Bokeh.documents[0].get_model_by_name('nodes').data;"
                         " return {key: Array.from(d.key), label: Array.from(d.label)}; }")
    return {label.split(":")[0]: key for key, label in zip(data["key"], data["label"])
            if label in ("x:0", "w:0")}


GIVE_UP = 120.0      # s: a click not answered by then counts as this long


def click_round(pages, clicks, counter=None, rate=None) -> dict:
    """``clicks`` clicks, alternating tabs and variables; each one's answer time in s, and
    (with ``counter``) how far the page was behind the file at each click."""
    times, behind = [], []
    for i in range(clicks):
        page = pages[i % len(pages)]
        keys = variable_keys(page)
        name = ("x", "w")[(i // len(pages)) % 2]
        ms = page.evaluate(CLICK_JS, {"key": keys[name], "name": name + ":0",
                                      "give_up": GIVE_UP * 1000})
        times.append(GIVE_UP if ms < 0 else ms / 1000)
        if counter is not None:
            behind.append(max(counter.count() - shown_events(page), 0))
        print(f"  click {i + 1}: {times[-1]:.3f} s" +
              (f", {behind[-1]:,} events behind" if behind else ""), file=sys.stderr, flush=True)
        time.sleep(0.5)          # a user's pace
    out = {"click_median_s": round(statistics.median(times), 3),
           "click_max_s": round(max(times), 3), "clicks_s": [round(t, 3) for t in times]}
    if behind:
        out["behind_median_events"] = int(statistics.median(behind))
        out["behind_max_events"] = max(behind)
        if rate:
            out["behind_max_s"] = round(max(behind) / rate, 2)
    return out


def open_tabs(browser, url, n=2, wait=None):
    pages = []
    for _ in range(n):
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(300_000)
        page.goto(url, wait_until="commit")
        page.wait_for_function(wait, timeout=300_000)
        page.wait_for_function("() => { const d = Bokeh.documents[0].get_model_by_name('nodes')"
                               ".data; return Array.from(d.label).includes('x:0'); }")
        pages.append(page)
    return pages


def bench_clicks_under_load(browser, work, serve, stop, env, wait, rate=10_000, clicks=10,
                            warm=20.0) -> dict:
    """See the module docstring. ``warm``: seconds the writer runs with both tabs open before
    the clicks (the backlog a user meets after a while)."""
    script = work / "writer.py"
    script.write_text(WRITER)
    rec = work / "load.tvz"
    writer = subprocess.Popen([sys.executable, str(script), str(rec), str(rate)], env=env(),
                              cwd=work)
    counter = FileCounter(rec)
    out = {"load_rate_target": rate}
    try:
        proc, url = serve(rec, "--follow")
        try:
            print("clicks under load: opening two tabs", file=sys.stderr, flush=True)
            pages = open_tabs(browser, url, wait=wait)
            print(f"  open; {counter.count():,} events in the file", file=sys.stderr, flush=True)
            t0, n0 = time.perf_counter(), counter.count()
            time.sleep(warm)
            out.update({"followed_" + k: v for k, v in
                        click_round(pages, clicks, counter, rate).items()})
            out["load_rate"] = int((counter.count() - n0) / (time.perf_counter() - t0))
            out["followed_shown_events"] = max(shown_events(p) for p in pages)
            for p in pages:
                p.close()
        finally:
            stop(proc)
    finally:
        writer.terminate()
        writer.wait(timeout=60)
    out["finished_events"] = counter.count()
    print(f"  the same clicks on the finished file ({out['finished_events']:,} events)",
          file=sys.stderr, flush=True)
    proc, url = serve(rec, timeout=1200)     # (it parses the whole file before it listens)
    try:
        pages = open_tabs(browser, url, wait=wait)
        out.update({"finished_" + k: v for k, v in click_round(pages, clicks).items()})
        for p in pages:
            p.close()
    finally:
        stop(proc)
    out["click_ratio_median"] = round(out["followed_click_median_s"] /
                                      out["finished_click_median_s"], 2)
    out["click_ratio_max"] = round(out["followed_click_max_s"] / out["finished_click_max_s"], 2)
    return out


def summary(r) -> str:
    return (f"clicks while two tabs follow a {r['load_rate']:,} events/s writer: median "
            f"{r['followed_click_median_s']} s, max {r['followed_click_max_s']} s; on the "
            f"finished file ({r['finished_events']:,} events): median "
            f"{r['finished_click_median_s']} s, max {r['finished_click_max_s']} s; ratio "
            f"{r['click_ratio_median']}x (median), {r['click_ratio_max']}x (max); behind the "
            f"file: median {r.get('followed_behind_median_events', 0):,} events, max "
            f"{r.get('followed_behind_max_events', 0):,} ({r.get('followed_behind_max_s', 0)} s)")
