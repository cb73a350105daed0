"""Bokeh figures shared by the training charts: a plot whose wheel zooms only once clicked,
the band that marks what a plot cannot draw, and the legend beside a plot."""
from __future__ import annotations

import math

from bokeh import events
from bokeh.core.properties import value
from bokeh.models import (BasicTicker, BoxZoomTool, ColumnDataSource, CustomJS, FixedTicker,
                          HoverTool, Legend, LegendItem, PanTool, Range1d, ResetTool, TapTool,
                          WheelZoomTool)
from bokeh.plotting import figure

from ..store.chart_series import BAND_KINDS

LEGEND_ROW = 17          # px a legend entry takes at 8pt


def chart_figure(**kw):
    """A figure whose wheel zooms only after a click on it, until the pointer leaves it: a
    page scrolled with the wheel over a chart scrolls on (and does not squash the chart). Its
    x axis counts gradient calls or logged steps: whole numbers, so no tick between two."""
    wheel = WheelZoomTool()
    fig = figure(tools=[PanTool(), wheel, BoxZoomTool(), ResetTool()], **kw)
    fig.xaxis.ticker = BasicTicker(min_interval=1)
    fig.toolbar.active_scroll = None
    fig.js_on_event(events.Tap, CustomJS(args={"tool": wheel}, code="tool.active = true"))
    fig.js_on_event(events.MouseLeave, CustomJS(args={"tool": wheel}, code="tool.active = false"))
    fig.toolbar.logo = None
    return fig


def side_legend(fig, height: int, clickable: bool = True) -> Legend:
    """A legend outside the plot, on its right; a click on an entry hides its lines."""
    legend = Legend(items=[], label_text_font_size="8pt", glyph_height=12, spacing=1,
                    padding=4, margin=4, click_policy="hide" if clickable else "none",
                    nrows=max(1, (height - 40) // LEGEND_ROW))
    fig.add_layout(legend, "right")
    return legend


class Band:
    """A strip under a plot (sharing its x range) with one row per state the plot cannot
    draw (NaN, Inf, None, zero), a marker shape per state, a point per call or step in that
    state coloured as its series (series side by side within the row, so that none hides
    another), and a legend entry per state with its count."""

    def __init__(self, x_range, kinds: tuple, name: str, x_label: str, tooltips: list):
        self.kinds = [k for k in BAND_KINDS if k[0] in kinds]
        n = len(self.kinds)
        self.row = {kind: n - 1 - i for i, (kind, _, _) in enumerate(self.kinds)}  # top first
        self.fig = chart_figure(height=46 + 20 * n, sizing_mode="stretch_width",
                                x_range=x_range, y_range=Range1d(-0.5, n - 0.5),
                                name=name, x_axis_label=x_label, title=None)
        self.fig.yaxis.ticker = FixedTicker(ticks=list(range(n)))
        self.fig.yaxis.major_label_overrides = {self.row[k]: label for k, label, _ in self.kinds}
        self.fig.yaxis.minor_tick_line_color = None
        self.fig.ygrid.grid_line_color = None
        self.fig.min_border_top = 4
        self.sources, self.items = {}, {}
        scatters = []
        for kind, label, marker in self.kinds:
            src = self.sources[kind] = ColumnDataSource(
                {"x": [], "y": [], "call": [], "name": [], "color": [], "state": []},
                name=f"{name}_{kind}")
            scatters.append(self.fig.scatter("x", "y", source=src, marker=marker, size=9,
                                             line_width=2, color="color", fill_alpha=0.35,
                                             nonselection_alpha=0.6))
            # the legend's glyph: a grey marker of the kind (the points carry series colours)
            key = self.fig.scatter(x=[math.nan], y=[math.nan], marker=marker, size=9,
                                   line_width=2, color="#555555", fill_alpha=0.35)
            self.items[kind] = LegendItem(label=value(label), renderers=[key])
        self.legend = side_legend(self.fig, 46 + 20 * n, clickable=False)
        self.legend.items = list(self.items.values())
        self.scatters = scatters
        self.fig.add_tools(TapTool(renderers=scatters), HoverTool(renderers=scatters,
                                                                  tooltips=tooltips))

    def fill(self, points: dict, series: list) -> dict:
        """``points``: state -> list of (x, call, name, color); ``series``: the names in
        the order their markers stand within a row. Returns the count per state."""
        counts = {}
        slot = {n: i for i, n in enumerate(series)}
        width = 0.7 / max(len(series), 1)
        for kind, label, _ in self.kinds:
            rows = points.get(kind, [])
            counts[kind] = len(rows)
            self.sources[kind].data = {
                "x": [r[0] for r in rows], "call": [r[1] for r in rows],
                "y": [self.row[kind] + (slot.get(r[2], 0) + 0.5) * width - 0.35 for r in rows],
                "name": [r[2] for r in rows], "color": [r[3] for r in rows],
                "state": [label] * len(rows)}
            self.items[kind].label = value(f"{label} ({len(rows):,})")
        return counts
