"""The exported page's ways to reach a gradient call: the *Go to gradient call* menu (every
call the page holds, marked with its worst verdict) and, for a flight recording, the timeline
of every call of the run (drawn by ``render.flight_plot``, as the served page draws it). A
click on a call of the timeline says what was kept of it and why
(:func:`~tapeviz.ui.store.flight_calls.call_text`, escaped here: names come from user code)
and, when the page holds the call, goes to it through the menu. Imports: Bokeh,
``render.flight_plot``, ``render.html``, ``store``.
"""
from __future__ import annotations

from bokeh.layouts import column
from bokeh.models import CustomJS, Div, Select

from .render.flight_plot import HINT, timeline_columns, timeline_figure
from .render.html import esc
from .store.flight_calls import call_text
from .store.store import Store

#: a gradient call's worst verdict, as the "Go to gradient call" menu marks it
_MARKS = (("nan", "NaN"), ("inf", "Inf"), ("none", "None"), ("zero", "zero"))

GOTO_JS = """
if (!this.value) return;
const [tab, tid, k] = this.value.split(":");
tabs.active = Number(tab);
const select = Bokeh.documents[0].get_model_by_name("call_select_" + tid);
if (select) select.value = k;
"""

TIMELINE_JS = """
const i = cb_obj.indices[0];
if (i === undefined) return;
note.text = '<span class="tv-small tv-flight-call">' + src.data.note[i] + '</span>';
if (src.data.goto[i]) {      // (through '' so that a second click on it goes there again)
  goto.value = '';
  goto.value = src.data.goto[i];
}
"""


def call_label(store: Store, call) -> str:
    names = ", ".join(store.tensor_name(r.get("id"), r.get("name", "")) for r in call["sources"][:3])
    return f"call {call['id']}: {call['method']}({names})"[:80]


def goto_select(store: Store, tapes: list, tabs, max_calls: int) -> tuple:
    """``(select, values)``: "Go to gradient call", every call the page holds (the last
    ``max_calls`` of each tape, as its player offers), in order, marked with its worst
    verdict; choosing one opens its tape's tab with its backward pass in the player.
    ``values`` maps a call id to its option's value."""
    options = []
    for tab, tid in enumerate(tapes):
        calls = [store.calls[c] for c in store.calls_for(tid)][-max_calls:]
        for k, call in enumerate(calls):
            verdicts = {r.get("verdict") for r in call.get("results") or []}
            mark = next((f" · {text}" for v, text in _MARKS if v in verdicts), "")
            options.append((call["id"], f"{tab}:{tid}:{k}", f"{call_label(store, call)}{mark}"))
    options.sort(key=lambda o: o[0])
    choices = [("", f"{len(options)} gradient calls held")] + [o[1:] for o in options]
    goto = Select(title="Go to gradient call", value="", options=choices, width=360,
                  name="goto_call")
    goto.js_on_change("value", CustomJS(args=dict(tabs=tabs), code=GOTO_JS))
    return goto, {call_id: value for call_id, value, _ in options}


def flight_timeline(store: Store, goto: Select, values: dict):
    """The timeline of every gradient call of a flight recording, with its note line; None
    for a recording without call summaries."""
    rows = list(store.flight.rows.values())
    if not rows:
        return None
    fig, source = timeline_figure(extra=("note", "goto"))
    data = timeline_columns(rows)
    data["goto"] = [values.get(row["call"], "") for row in rows]
    data["note"] = [esc(call_text(row, row["call"] in values)) for row in rows]
    source.data = data
    note = Div(text=f'<span class="tv-small">{esc(HINT)}</span>', sizing_mode="stretch_width",
               css_classes=["tv-flight-note"])
    source.selected.js_on_change("indices", CustomJS(
        args=dict(src=source, note=note, goto=goto), code=TIMELINE_JS))
    return column(fig, note, sizing_mode="stretch_width", css_classes=["tv-flight"])
