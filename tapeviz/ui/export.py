"""``tapeviz export run.tvz -o run.html``: one self-contained HTML page to share a run.

The page is built with Bokeh's ``file_html`` and inline resources (BokehJS and its CSS inside
the page), not with Panel's ``save`` (which still links component CSS from a CDN). It holds,
for the most recent tapes: the op graph (zoom, pan, hover, click a node to inspect it), the
backward-pass player, the explanations of the last gradient call (the Why tab open when one
is not a finite value), the watched variables, and the training charts of the whole run
(:mod:`tapeviz.ui.render.chart_plots`, as the Training tab draws them). The recording is read
into a store with the served dashboard's limits (``keep_tapes``, ``tapeviz export
--keep-tapes``), so the page holds the tapes that tell the run's story as the served page does
(:mod:`tapeviz.ui.store.story`: where gradients turned NaN/Inf, where a verdict changed, the
first calls, jumps and their lead-up), then the newest, and opens on the tape and call the
served page opens on; a flight recording's timeline of every call is above the tapes
(:mod:`tapeviz.ui.export_calls`). No server, no internet.

The player is the dashboard's, run by the browser: every backward step is formatted at export
time by :mod:`tapeviz.ui.render.steps` (the functions the served dashboard calls) and embedded, with
the graph rows it highlights, in a ``ColumnDataSource`` named ``steps_<tape>``; small CustomJS
callbacks step through it, and breakpoints are step indices found at export time.
"""
from __future__ import annotations

import os

from bokeh.embed import file_html
from bokeh.layouts import column, row
from bokeh.models import Button, ColumnDataSource, CustomJS, Div, Select, TabPanel, Tabs
from bokeh.resources import INLINE

from .graph import piecewise_layout
from .export_calls import call_label, flight_timeline, goto_select
from .render.cards import any_not_a_value, node_html, notes_html, why_cards_html
from .render.chart_plots import static_charts
from .graph.plot import HIGHLIGHT, GraphView
from .graph.group import collapse
from .render.html import CSS, esc, table
from .render.steps import breakpoint_step, step_html, step_keys
from .store.source import load_events
from .store.store import Store

MAX_TAPES = 8           # the newest tapes on the page, besides the story's
MAX_STORY = 24          # story tapes on the page (the best ranked, earliest first)
MAX_CALLS = 20          # per tape: the player offers the most recent gradient calls
MAX_STEPS = 5_000       # per tape: steps embedded in the page (a call is cut, with a note)


class TapesNotDrawn(Exception):
    """The page was written, but some tapes' views could not be drawn (the message names
    them and says why); the other tapes are on the page."""


def export(path, out=None, title: str | None = None, keep_tapes: int | None = None) -> str:
    """Write the page for recording ``path`` to ``out`` (default: ``path`` with ``.html``),
    from a store keeping ``keep_tapes`` tapes (default ``limits.KEEP_TAPES``, as served).
    Raises :class:`TapesNotDrawn` after writing it when a tape could not be drawn."""
    store = Store(max_tapes=keep_tapes, max_calls=200)
    events = load_events(path)
    store.ingest(events)
    store.warnings = list(events.warnings)
    store.sources = events.sources      # the source shown is the one the recording carries
    del events                # the store keeps what it draws
    out = out or os.path.splitext(os.fspath(path))[0] + ".html"
    title = title or f"tapeviz · {os.path.basename(os.fspath(path))}"
    failures: list = []
    page = build(store, title, failures)
    html = file_html(page, INLINE, title)
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(html)
    if failures:
        raise TapesNotDrawn("; ".join(failures) + f" (the page {out} holds the other tapes)")
    return out


def _div(text, **kw):
    return Div(text=text, stylesheets=[CSS], **kw)


SIDE = '<div style="width: 430px">{}</div>'   # a Div grows to its widest code line otherwise
#: a side panel (inspector, step, why cards) scrolls inside at the graph's height: a tape
#: tab is as tall as the tallest, and one long Why tab left a blank screen under every graph
SCROLLS = {"max-height": "600px", "overflow-y": "auto"}


def page_tapes(store: Store) -> list:
    """The tapes the page holds, in the store's order: the story's (the best ranked, at most
    MAX_STORY) and the newest MAX_TAPES, and the one the page opens on."""
    story = sorted((t for t in store.tapes if store.tape_ranks.get(t, 0) > 0),
                   key=lambda t: -store.tape_ranks[t])[:MAX_STORY]
    want = set(story) | set(list(store.tapes)[-MAX_TAPES:]) | {opening_tape(store)}
    return [t for t in store.tapes if t in want]


def opening_tape(store: Store):
    """The tape the served dashboard opens on (its run picker's choice)."""
    start = store.opening_call()
    return store.calls[start]["tape"] if start is not None else store.latest_tape()


def _why(store: Store, call) -> str:
    if call is None or not call.get("results"):
        return "<i>No finished gradient call on this tape.</i>" + notes_html(store)
    return (f'<div class="tv-h">Why: gradient call {esc(call["id"])} ({esc(call["method"])})</div>'
            + why_cards_html(store, call["results"], heatmaps=True)
            + notes_html(store))


def _variables(store: Store) -> str:
    rows = [[esc(r["name"]), esc(r["shape"]), esc(r["dtype"]), esc(r["trainable"]), esc(r["watched by"]),
             esc(r["value"]), esc(r["gradient"]), esc("" if r["norm"] is None else f'{r["norm"]:.4g}'),
             esc(r["verdict"]), esc(r["cause"])] for r in store.variables_rows()]
    if not rows:
        return "<i>No watched variables.</i>"
    # (one table for the page: the tabs above may show earlier calls, so it says which)
    calls = [v["call"] for v in store.variables.values() if v["call"] is not None]
    when = (f" at the last gradient call ({max(calls)}), whichever tab is open above"
            if calls else "")
    return f'<div class="tv-h">Watched variables{esc(when)}</div>' + table(
        rows, ["name", "shape", "dtype", "trainable", "watched by", "value", "gradient", "norm",
               "verdict", "cause"])


PLAYER_JS = """
const d = steps.data, c = calls.data;
const playing = (window._tvPlaying = window._tvPlaying || {});
const stop = () => {
  if (playing[tid]) { clearInterval(playing[tid]); delete playing[tid]; }
  play.label = '▶ play';
};
const go = (action) => {
  const k = Number(sel.value), n = c.n[k], start = c.start[k];
  let i = state.data.step[0];
  if (action === 'first' || action === 'call') i = 0;
  else if (action === 'prev') i -= 1;
  else if (action === 'next') i += 1;
  else if (action === 'last') i = n - 1;
  else if (action === 'nan' || action === 'zero') i = c[action][k];
  else if (action === 'node') {
    const want = nodes.selected.indices[0];
    i = -1;
    for (let r = start; r < start + n && want !== undefined; r++) {
      if (d.node[r] === want) { i = r - start; break; }
    }
  }
  if (i < 0 && (action === 'nan' || action === 'zero' || action === 'node')) {
    div.text = div.text.split('<div class="tv-err bp">')[0] +
               '<div class="tv-err bp">breakpoint not reached in this call</div>';
    return;
  }
  const hn = {x: [], y: [], w: [], h: [], color: [], role: []};
  const he = {xs: [], ys: [], color: [], role: []};
  const nd = nodes.data, states = new Array(nd.x.length).fill(0);
  if (n === 0) {
    div.text = '<i>No backward steps for this call.</i>' + c.note[k];
    i = 0;
  } else {
    i = Math.max(0, Math.min(n - 1, i));
    const r = start + i, j = d.node[r];
    div.text = d.html[r] + c.note[k];
    for (const v of d.visited[r]) states[v] = 1;
    if (j >= 0) {
      hn.x.push(nd.x[j]); hn.y.push(nd.y[j]); hn.w.push(nd.w[j] + 8); hn.h.push(nd.h[j] + 8);
      hn.color.push(color); hn.role.push('current');
    }
    for (const e of d.up[r]) {
      he.xs.push(edges.data.xs[e]); he.ys.push(edges.data.ys[e]);
      he.color.push(color); he.role.push('current');
    }
  }
  state.data = {step: [i]};
  nd.state = states;          // in place: a new `data` would refit the view
  nodes.change.emit();
  hl_nodes.data = hn;
  hl_edges.data = he;
};
if (action === 'play' && !playing[tid]) {
  play.label = '⏸ pause';
  playing[tid] = setInterval(() => {
    if (state.data.step[0] >= c.n[Number(sel.value)] - 1) stop(); else go('next');
  }, 700);
} else {
  stop();
  if (action !== 'play') go(action);
}
"""


def _shown_key(key, view: GraphView, shown) -> str | None:
    """The drawn node of op ``key``: itself, or the collapsed group that holds it."""
    if key in view.index:
        return key
    group = (shown.get("gmap") or {}).get(key)
    return f"grp:{group}" if group is not None and f"grp:{group}" in view.index else None


def _player(store: Store, tid, view: GraphView, shown, why, start=None) -> tuple:
    """The backward player of tape ``tid``: widgets driven by CustomJS over embedded steps,
    and the callback that runs it to the selected node's step (None without a call). It
    opens on call ``start`` when the tape has it, else on its last call; choosing another
    call shows that call's cards in the ``why`` div too (a persistent tape's calls explain
    different sources)."""
    calls = [store.calls[c] for c in store.calls_for(tid)][-MAX_CALLS:]
    erow = {pair: j for j, pair in enumerate(view.edge_rows)}
    rows = {k: [] for k in ("call", "html", "node", "visited", "up")}
    meta = {k: [] for k in ("id", "start", "n", "nan", "zero", "note", "why")}
    if not calls:
        return _div("<i>No gradient call on this tape.</i>", width=440), None
    ns, budget = [], MAX_STEPS         # the most recent calls first
    for call in reversed(calls):
        ns.insert(0, min(len(call["steps"]), budget))
        budget -= ns[0]
    for k, (call, n) in enumerate(zip(calls, ns)):
        note = ""
        if n < len(call["steps"]):
            note = (f'<div class="tv-small">the page holds the first {n} of {len(call["steps"])} '
                    "steps of this call; open the recording with <code>tapeviz serve</code> "
                    "for all of them.</div>")
        meta["id"].append(call["id"]); meta["start"].append(len(rows["html"])); meta["n"].append(n)
        meta["note"].append(note)
        meta["why"].append(SIDE.format(_why(store, call)) if len(calls) > 1 else "")
        for kind in ("nan", "zero"):
            i = breakpoint_step(call, kind)
            meta[kind].append(-1 if i is None or i >= n else i)
        for i in range(n):
            key, visited, up = step_keys(call, i, view.edge_rows)
            shown_key = _shown_key(key, view, shown)
            drawn = {view.index[v] for v in (_shown_key(v, view, shown) for v in visited) if v}
            rows["call"].append(k)
            rows["html"].append(step_html(store, call, i))
            rows["node"].append(view.index[shown_key] if shown_key else -1)
            rows["visited"].append(sorted(drawn))
            rows["up"].append([erow[e] for e in up if e in erow])
    steps = ColumnDataSource(rows, name=f"steps_{tid}")
    meta_src = ColumnDataSource(meta, name=f"calls_{tid}")
    state = ColumnDataSource({"step": [0]}, name=f"player_{tid}")
    k = next((j for j, c in enumerate(calls) if c["id"] == start), len(calls) - 1)
    div = _div((rows["html"][meta["start"][k]] if meta["n"][k]
                else "<i>No backward steps for this call.</i>") + meta["note"][k],
               width=440, name=f"step_{tid}", css_classes=["tv-export-step"], styles=SCROLLS)
    if meta["n"][k]:          # the page opens on step 1 of the last call, as the dashboard does
        key, visited, up = step_keys(calls[k], 0, view.edge_rows)
        view.set_states([v for v in (_shown_key(x, view, shown) for x in visited) if v])
        view.highlight("current", [_shown_key(key, view, shown) or key], up)
    select = Select(title="Gradient call", value=str(k), width=300, name=f"call_select_{tid}",
                    options=[(str(j), call_label(store, c)) for j, c in enumerate(calls)])
    buttons = {a: Button(label=label, width=w, name=f"{a}_{tid}") for a, label, w in (
        ("first", "« first", 65), ("prev", "◀ prev", 70), ("next", "next ▶", 70),
        ("last", "last »", 65),
        ("play", "▶ play", 80), ("nan", "▶ first NaN/Inf", 125), ("zero", "▶ first zero grad", 135),
        ("node", "▶ selected node", 130))}
    args = dict(steps=steps, calls=meta_src, sel=select, nodes=view.nodes, edges=view.edges,
                hl_nodes=view.hl_nodes, hl_edges=view.hl_edges, div=div, state=state,
                play=buttons["play"], tid=str(tid), color=HIGHLIGHT["current"])
    for action, button in buttons.items():
        button.js_on_event("button_click", CustomJS(args={**args, "action": action}, code=PLAYER_JS))
    select.js_on_change("value", CustomJS(args={**args, "action": "call"}, code=PLAYER_JS))
    if len(calls) > 1:
        select.js_on_change("value", CustomJS(args=dict(calls=meta_src, why=why), code=(
            "const h = calls.data.why[Number(cb_obj.value)]; if (h) why.text = h;")))
    controls = column(select, row(*(buttons[a] for a in ("first", "prev", "next", "last", "play"))),
                      row(buttons["nan"], buttons["zero"], buttons["node"]), div, width=440)
    return controls, CustomJS(args={**args, "action": "node"}, code=PLAYER_JS)


def _tape_view(store: Store, tid, start=None) -> object:
    graph = store.graph(tid)
    shown = collapse(graph)
    lay = piecewise_layout.layout_graph(shown, shown.get("units"))
    view = GraphView(height=560, python_callbacks=False)
    view.show(shown, lay)
    view.figure.name = f"dag_{tid}"
    view.nodes.name = f"nodes_{tid}"
    view.nodes.data = {**view.nodes.data, "info": [SIDE.format(node_html(store, n, heatmaps=False, context=2)) for n in shown["nodes"]
                                                   if n["key"] in lay.nodes]}
    inspector = _div("<i>Click a node to inspect it.</i>", width=440, name=f"inspector_{tid}",
                     styles=SCROLLS,
                     css_classes=["tv-export-inspector"])
    calls = store.calls_for(tid)
    last = store.calls.get(start if start in calls else calls[-1]) if calls else None
    why = _div(SIDE.format(_why(store, last)), width=440, name=f"why_{tid}", styles=SCROLLS)
    player, to_node = _player(store, tid, view, shown, why, start)
    # as in the served dashboard: a None, zero, NaN or Inf gradient opens the Why tab
    broken = any_not_a_value((last or {}).get("results"))
    side = Tabs(tabs=[TabPanel(child=inspector, title="Inspector"),
                      TabPanel(child=player, title="Backward"),
                      TabPanel(child=why, title="Why")], width=460, name=f"side_{tid}",
                active=2 if broken else 0)
    # a click shows the node in the inspector; on the Backward tab it runs to the node's step
    view.nodes.selected.js_on_change("indices", CustomJS(args=dict(src=view.nodes, div=inspector,
                                                                   side=side), code="""
        const i = cb_obj.indices[0];
        div.text = (i === undefined) ? '<i>Click a node to inspect it.</i>' : src.data.info[i];
        if (i !== undefined && side.active !== 1) side.active = 0;
    """))
    if to_node is not None:
        view.nodes.selected.js_on_change("indices", CustomJS(args=dict(side=side, run=to_node), code="""
            if (side.active === 1 && cb_obj.indices.length) run.execute(cb_obj);
        """))
    note = ""
    if shown.get("collapsed"):
        note = (f'<div class="tv-small">{len(graph["nodes"])} nodes, shown grouped by scope; '
                "open the recording with <code>tapeviz serve</code> to expand groups.</div>")
    view.figure.sizing_mode = "stretch_width"
    return column(_div(note), row(view.figure, side, sizing_mode="stretch_width"),
                  sizing_mode="stretch_width")


def _warnings_note(warnings) -> str:
    """What the reader skipped or read differently, said once at the top of the page."""
    if not warnings:
        return ""
    text = f"{len(warnings)} recording warning(s): {warnings[0]}"
    if len(warnings) > 1:
        text += f"; last: {warnings[-1]}"
    return f'<div class="tv-err tv-warnings">{esc(text)}</div>'


def _omitted_note(store: Store, tapes: list) -> str:
    """Which tapes the page holds, when it does not hold them all: a reader looking for an
    early gradient call must learn it is left out, not that it never happened."""
    if len(tapes) >= len(store.tapes):
        return ""
    held = ", ".join(str(t) for t in tapes)
    return (f'<div class="tv-small tv-export-omitted">This page holds {len(tapes)} of the '
            f'{len(store.tapes)} tapes the dashboard holds (those that tell the story: where '
            "gradients turned NaN/Inf, where a verdict changed, the first calls, jumps and "
            f"their lead-up; then the newest): tapes {esc(held)}. Open the recording with "
            "<code>tapeviz serve</code> for the others.</div>")


def build(store: Store, title: str, failures: list | None = None):
    """The page's Bokeh layout; a tape whose view raises shows the error in its tab, and the
    error is appended to ``failures``."""
    tapes = page_tapes(store)
    began = {store.calls[c]["tape"]: c for c in sorted(store.pinned_calls, reverse=True)
             if c in store.calls}
    opening, start = opening_tape(store), store.opening_call()
    head = _div(f'<h2 style="margin:4px 0">{esc(title)}</h2><div class="tv-small">'
                f'{esc(store.n_events)} events · {esc(store.counts_text())} · '
                'exported by tapeviz</div>'
                + _omitted_note(store, tapes) + _warnings_note(store.warnings),
                sizing_mode="stretch_width")
    panels, active = [], 0
    for tid in tapes:
        if tid == opening:
            active = len(panels)
        try:
            child = _tape_view(store, tid, start)
        except Exception as exc:      # one tape that cannot be drawn must not lose the rest
            why = f"tape {tid} could not be drawn: {type(exc).__name__}: {exc}"
            child = _div(f'<div class="tv-err">{esc(why)}</div>')
            if failures is not None:
                failures.append(why)
        label = f"tape {tid}"
        if tid in began:
            nan = any(r.get("verdict") == "nan" for r in store.calls[began[tid]]["results"])
            label += f" · {'NaN' if nan else 'Inf'} began"
        panels.append(TabPanel(child=child, title=label))
    body = (Tabs(tabs=panels, active=active, sizing_mode="stretch_width", name="tapes")
            if panels else _div("<i>No tapes.</i>"))
    parts = [head]
    if panels:
        goto, values = goto_select(store, tapes, body, MAX_CALLS)
        parts = [row(head, goto, sizing_mode="stretch_width")]
        timeline = flight_timeline(store, goto, values)
        if timeline is not None:
            parts.append(timeline)
    parts += [body, _div(_variables(store), sizing_mode="stretch_width")]
    charts = static_charts(store)
    if charts is not None:
        parts += [_div('<div class="tv-h">Training</div>'), charts]
    return column(*parts, sizing_mode="stretch_width")
