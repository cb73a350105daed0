"""The timeline of a flight recording: every gradient call of the run, from its summary.

One point per call (x: its index in the run, y: its global gradient norm on a log axis; a
call with no drawable norm sits on the floor line): grey for a call kept as a summary only,
blue for one kept in full, orange for one that still had a None or zero gradient that began
earlier (kept in full only where it began), a red cross for an anomalous one, and a purple
triangle on a ceiling line for a call with a NaN or Inf gradient (its norm is not a number to
draw). A click on a call kept in full shows that call and its tape in the dashboard; on any
call, a note says what was kept of it and why (:func:`~tapeviz.ui.flight_calls.call_text`).
Shown only for a recording that has call summaries. Imports: Panel, Bokeh,
``render.chart_figures``, ``render.html``, ``store.flight_calls``.
"""
from __future__ import annotations

import math

import panel as pn
from bokeh.models import ColumnDataSource, HoverTool, TapTool

from ..render.chart_figures import chart_figure
from ..render.html import esc
from ..store.flight_calls import ANOMALOUS, call_text, nonfinite
from .state import Component

HEIGHT = 170
STYLE = {"summary": ("#b0b0b0", "circle", 4), "full": ("#1f77b4", "circle", 7),
         "still": ("#ff7f0e", "circle", 6),
         "anomalous": ("#d62728", "x", 13), "nonfinite": ("#7b2cbf", "triangle", 13)}
HINT = ("Every gradient call of the run, from its summary: grey points are summaries only, "
        "blue ones were kept in full, orange ones still had a None or zero gradient that "
        "began at an earlier red cross, red crosses are anomalous, purple triangles on the "
        "top line had a NaN or Inf gradient. Click one.")


class FlightTimeline(Component):
    """The timeline's plot and note, above the graph."""

    label = "Flight"
    area = "top"

    def __init__(self, state, plot, **params):
        super().__init__(state, plot, **params)
        self.source = ColumnDataSource({k: [] for k in ("x", "y", "call", "norm", "kept",
                                                        "color", "marker", "size")},
                                       name="flight_calls")
        self.fig = chart_figure(height=HEIGHT, sizing_mode="stretch_width", y_axis_type="log",
                                name="flight_timeline",
                                title="gradient calls (global norm): click one")
        dots = self.fig.scatter("x", "y", source=self.source, color="color", marker="marker",
                                size="size", line_width=2, nonselection_alpha=0.8)
        self.fig.add_tools(TapTool(renderers=[dots]), HoverTool(renderers=[dots], tooltips=[
            ("call", "#@x (call @call)"), ("norm", "@norm"), ("kept", "@kept")]))
        self.fig.xaxis.axis_label = "gradient call"
        # (a norm that varies within a decade gets linear ticks: at the default count their
        # labels overlap in a plot this short)
        self.fig.yaxis.ticker.desired_num_ticks = 3
        self.note = pn.pane.HTML(f'<span class="tv-small">{esc(HINT)}</span>',
                                 sizing_mode="stretch_width", css_classes=["tv-flight-note"])
        self.column = pn.Column(pn.pane.Bokeh(self.fig, sizing_mode="stretch_width"), self.note,
                               sizing_mode="stretch_width", visible=False,
                               css_classes=["tv-flight"])
        self._drawn = None
        self.source.selected.on_change("indices", self._tapped)

    def body(self) -> list:
        return [self.column]

    def reset(self) -> None:
        """Forget the run shown before (the next update draws the new one's calls)."""
        self._drawn = None
        self.note.object = f'<span class="tv-small">{esc(HINT)}</span>'

    def refresh(self, force: bool = False) -> None:
        rows = self.store.flight.rows
        key = (len(rows), next(reversed(rows), None),
               sum(r["full"] for r in rows.values()) if rows else 0)
        if key == self._drawn:
            return
        self._drawn = key
        self.column.visible = bool(rows)
        if not rows:
            self.source.data = {k: [] for k in self.source.data}
            return
        norms = [r["norm"] for r in rows.values()]
        drawable = [n for n in norms if n is not None and math.isfinite(n) and n > 0]
        floor = min(drawable) / 10 if drawable else 1.0
        ceiling = max(drawable) * 10 if drawable else 10.0
        data = {k: [] for k in self.source.data}
        for row, norm in zip(rows.values(), norms):
            bad = nonfinite(row)
            style = ("nonfinite" if bad else "anomalous" if row["why"] in ANOMALOUS else
                     "still" if row.get("still") else "full" if row["full"] else "summary")
            color, marker, size = STYLE[style]
            if style == "still" and row["full"]:
                size = STYLE["full"][2] + 1            # (kept in full: as big as a blue one)
            ok = norm is not None and math.isfinite(norm) and norm > 0
            data["x"].append(row["index"])
            data["y"].append(ceiling if bad else norm if ok else floor)
            data["call"].append(row["call"])
            data["norm"].append("NaN/Inf" if bad else "" if norm is None else f"{norm:.4g}")
            data["kept"].append(row["why"] or "summary only")
            data["color"].append(color)
            data["marker"].append(marker)
            data["size"].append(size)
        self.source.data = data

    def _tapped(self, attr, old, new):
        if new:
            self.show(self.source.data["x"][new[0]])

    def show(self, index: int) -> None:
        """What a click on call ``index`` does: select it if its events are here, and say."""
        store = self.store
        row = store.flight.rows.get(index)
        if row is None:
            return
        call = store.calls.get(row["call"])
        shown = row["full"] and call is not None and call["tape"] in store.tapes
        if shown:
            self.state.show_call(row["call"])
        self.note.object = (f'<span class="tv-flight-call">{esc(call_text(row, shown))}'
                            "</span>")
