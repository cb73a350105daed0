"""Two tabs following a file a fast writer fills: a click in each is answered while the page
is still catching up with the file (the user comes before ingestion), and both reach the
newest tape when the writer closes the file."""
from __future__ import annotations

import json
import os
import time

import pytest

from conftest import open_dashboard, record_program, select_node

pytestmark = pytest.mark.browser

TRAINING = """\
import tapeviz as tv
x = tv.Variable(1.0, name="x")
w = tv.Variable(2.0, name="w")
for step in range(6000):
    with tv.GradientTape() as tape:
        loss = tv.reduce_sum(x * x * 3.0 + w * w)
    gx, gw = tape.gradient(loss, [x, w])
    x.assign_sub(0.001 * gx)
    w.assign_sub(0.001 * gw)
"""

MODEL_TEXT = """(cls) => {
  for (const m of Bokeh.documents[0].all_models)
    if (m.css_classes && Array.from(m.css_classes).includes(cls)) return String(m.text);
  return '';
}"""

# the status line at the moment the page shows the inspector of `name` (null until then)
ANSWERED = """(name) => {
  const shown = (root) => {
    for (const e of root.querySelectorAll('*')) {
      if (e.classList.contains('tv-node-name') && e.textContent === name) return true;
      if (e.shadowRoot && shown(e.shadowRoot)) return true;
    }
    return false; };
  if (!shown(document)) return null;
  for (const m of Bokeh.documents[0].all_models)
    if (m.css_classes && Array.from(m.css_classes).includes('tv-status')) return String(m.text);
  return '';
}"""


def _node_key(page, label):
    data = page.evaluate("() => { const d = Bokeh.documents[0].get_model_by_name('nodes').data;"
                         " return {key: Array.from(d.key), label: Array.from(d.label)}; }")
    return data["key"][data["label"].index(label)]


def test_two_tabs_follow_a_fast_writer_answer_clicks_and_reach_the_newest_tape(
        serve, tmp_path, browser, watched_page):
    run = record_program(tmp_path, "training", TRAINING)
    lines = run.read_bytes().split(b"\n")
    header = json.loads(lines[0])
    header["pid"] = os.getpid()          # the writer is this process: alive while it writes
    body = [l for l in lines[1:] if l]
    newest_tape = max(json.loads(l)["tape"] for l in body if b'"tape_opened"' in l)
    path = tmp_path / "live.tvz"
    path.write_bytes(json.dumps(header).encode() + b"\n" + b"\n".join(body[:400]) + b"\n")
    server = serve(path, "--follow")
    page, watch = watched_page
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    other = context.new_page()
    other.set_default_timeout(60_000)
    try:
        tabs = [page, other]
        for tab in tabs:
            open_dashboard(tab, server.url)
            tab.wait_for_function("() => Array.from(Bokeh.documents[0]"
                                  ".get_model_by_name('nodes').data.label).includes('w:0')")
        with open(path, "ab") as fh:     # the rest of the run, as fast as the disk takes it
            rest = b"\n".join(body[400:]) + b"\n"
            for i in range(0, len(rest), 1 << 18):
                fh.write(rest[i:i + (1 << 18)])
                fh.flush()
        for tab in tabs:                 # each tab says it is behind the file ...
            tab.wait_for_function(f"() => ({MODEL_TEXT})('tv-status').includes('events behind')")
        for tab, name in ((page, "x:0"), (other, "w:0")):
            select_node(tab, _node_key(tab, name))
            status = tab.wait_for_function(ANSWERED, arg=name).json_value()
            # ... and answers the click before it has caught up
            assert "events behind" in status, status
        for tab in tabs:
            for _ in range(600):
                status = tab.evaluate(f"() => ({MODEL_TEXT})('tv-status')")
                if "stream ended" in status:
                    break
                time.sleep(0.5)
            assert "stream ended" in status, status
            # the Tape selector (the page's first) shows the run's last tape
            shown = tab.locator("select").first.evaluate("e => e.options[e.selectedIndex].text")
            assert str(shown).startswith(f"tape {newest_tape} "), shown
    finally:
        context.close()
    watch.check()
