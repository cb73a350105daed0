"""The timeline of a flight recording above the graph: every gradient call of the run, from
its summary, drawn by ``render.flight_plot`` (see there for what each mark means). A click on
a call kept in full shows that call and its tape in the dashboard; on any call, a note says
what was kept of it and why (:func:`~tapeviz.ui.store.flight_calls.call_text`). Shown only for
a recording that has call summaries. Imports: Panel, ``render.flight_plot``, ``render.html``,
``store.flight_calls``.
"""
from __future__ import annotations

import panel as pn

from ..render.flight_plot import HINT, timeline_columns, timeline_figure
from ..render.html import esc
from ..store.flight_calls import call_text
from .state import Component


class FlightTimeline(Component):
    """The timeline's plot and note, above the graph."""

    label = "Flight"
    area = "top"

    def __init__(self, state, plot, **params):
        super().__init__(state, plot, **params)
        self.fig, self.source = timeline_figure()
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
        data = timeline_columns(list(rows.values()))
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
