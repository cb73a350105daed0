"""The training charts' plots, in Bokeh alone (no Panel): what the served Training tab
(:mod:`tapeviz.ui.dashboard.charts`, which adds the widgets) and the exported page draw.

:class:`NormPlots` holds the gradient norm of every variable over the gradient calls, on a log
and a linear axis, with the band of what no axis can draw (NaN, Inf, ``None``, zero);
:class:`ScalarPlots` one plot per quantity of the reported scalars with its own band.
:func:`line_styles` gives every variable its colour (one per layer) and dash (one per variable
in its layer). A page without a server (the export) builds them with ``python_callbacks=False``:
the legend still hides a line with a click, in the browser; opening a call needs a server.
"""
from __future__ import annotations

import math

from bokeh.layouts import column
from bokeh.models import ColumnDataSource, DataRange1d, HoverTool, LegendItem, TapTool
from bokeh.palettes import Category10_10

from .chart_figures import Band, chart_figure, side_legend
from ..store.chart_series import (BAND_LABEL, ema, norm_rows, number, ordered_by_group, scalar_group,
                           value_state, variable_group, variable_name)

DASHES = ("solid", "dashed", "dotted", "dotdash")
NORM_HEIGHT, SCALAR_HEIGHT = 260, 200


def line_styles(names) -> dict:
    """``{name: (colour, dash)}`` in drawing order: each layer's variables together, one
    colour per layer, one dash per variable within it."""
    names = ordered_by_group(list(names))
    groups = list(dict.fromkeys(variable_group(n) for n in names))
    members: dict = {}
    styles = {}
    for n in names:
        g = variable_group(n)
        members[g] = members.get(g, -1) + 1
        gi = groups.index(g)
        styles[n] = (Category10_10[gi % 10], DASHES[(members[g] + gi // 10) % len(DASHES)])
    return styles


class NormPlots:
    """Gradient norms per variable (log and linear figures sharing an x range) and their band.
    ``on_tap(call)``: a point or band marker was clicked; ``on_legend(name, visible)``: a
    legend click hid or showed a variable's lines (both only with ``python_callbacks``)."""

    def __init__(self, python_callbacks: bool = True, on_tap=None, on_legend=None):
        self.python_callbacks = python_callbacks
        self.on_tap, self.on_legend = on_tap, on_legend
        self.vars: dict = {}          # name -> {"src", "renderers", "items", "color"}
        self.rows: dict = {}          # name -> rows of chart_series.norm_rows
        self.syncing = False          # set while the code (not a click) changes visibility
        x_range = DataRange1d()
        self.figs, self.legends, self.taps, self.hovers = {}, {}, {}, {}
        for scale in ("log", "linear"):
            fig = chart_figure(height=NORM_HEIGHT, sizing_mode="stretch_width", y_axis_type=scale,
                               x_range=x_range, name=f"norms_{scale}",
                               title="gradient norm per variable"
                               + (" (click a point to inspect that call)" if python_callbacks
                                  else ""))
            fig.min_border_bottom = 4
            self.figs[scale] = fig
            self.legends[scale] = side_legend(fig, NORM_HEIGHT)
            self.taps[scale] = TapTool(renderers=[])
            self.hovers[scale] = HoverTool(renderers=[], tooltips=[
                ("variable", "@name"), ("call", "@call"), ("norm", "@norm")])
            fig.add_tools(self.taps[scale], self.hovers[scale])
        self.band = Band(x_range, ("nan", "inf", "none", "zero"), "norm_band",
                         "gradient call (its id; the scalars' x below is the logged step)",
                         [("variable", "@name"), ("call", "@call"), ("gradient", "@state")])
        for src in self.band.sources.values():
            self._watch_taps(src)
        self.layout = column(*self.figs.values(), self.band.fig, sizing_mode="stretch_width")
        self.counts: dict = {}

    def _watch_taps(self, src):
        if self.python_callbacks and self.on_tap is not None:
            src.selected.on_change("indices", lambda attr, old, new: new and self.on_tap(
                src.data["call"][new[0]]))

    def set_rows(self, history) -> list:
        """Read the store's history rows; add the variables seen for the first time. Returns
        the gradient calls, in order."""
        calls, self.rows = norm_rows(list(history))
        styles = line_styles(self.rows)
        for name, (color, dash) in styles.items():
            if name not in self.vars:
                self._add_variable(name, color, dash)
        if list(self.vars) != list(styles):          # keep each layer's variables together
            self.vars = {n: self.vars[n] for n in styles}
        return calls

    def _add_variable(self, name: str, color: str, dash: str):
        src = ColumnDataSource({k: [] for k in ("x", "call", "name", "norm", "y_lin", "y_log",
                                                "s_lin", "s_log")},
                               name=f"norm_points_{len(self.vars)}")
        renderers, items = [], []
        for scale, fig in self.figs.items():
            y = "lin" if scale == "linear" else "log"
            line = fig.line("x", f"s_{y}", source=src, color=color, line_dash=dash, line_width=1.5)
            dots = fig.scatter("x", f"y_{y}", source=src, color=color, size=5,
                               nonselection_alpha=0.6)
            self.taps[scale].renderers = self.taps[scale].renderers + [dots]
            self.hovers[scale].renderers = self.hovers[scale].renderers + [dots]
            items.append((scale, LegendItem(label=variable_name(name), renderers=[line, dots])))
            renderers += [line, dots]
        if self.python_callbacks and self.on_legend is not None:
            for r in renderers:
                r.on_change("visible", self._legend_clicked(name))
        self._watch_taps(src)
        self.vars[name] = {"src": src, "renderers": renderers, "items": items, "color": color}

    def _legend_clicked(self, name):
        def changed(attr, old, new):
            if not self.syncing and old != new:
                self.on_legend(name, new)
        return changed

    def fill(self, weight: float):
        """Each variable's points and its smoothed line (EMA with ``weight``)."""
        for name, rows in self.rows.items():
            norms = [r[4] for r in rows]
            y_lin = [0.0 if r[3] == "zero" else (v if r[3] == "value" else math.nan)
                     for r, v in zip(rows, norms)]
            y_log = [v if r[3] == "value" and v is not None and v > 0 else math.nan
                     for r, v in zip(rows, norms)]
            self.vars[name]["src"].data = {
                "x": [r[0] for r in rows], "call": [r[1] for r in rows],
                "name": [name] * len(rows),
                "norm": [math.nan if v is None else v for v in norms],
                "y_lin": y_lin, "y_log": y_log, "s_lin": ema(y_lin, weight),
                "s_log": ema(y_log, weight)}

    def show(self, listed: list, hidden: set):
        """Lines and legend entries of the ``listed`` variables (those in ``hidden`` greyed
        out of the plot), and the band's points of the ones drawn."""
        self.syncing = True
        try:
            for n, v in self.vars.items():
                on = n in listed and n not in hidden
                for r in v["renderers"]:
                    if r.visible != on:
                        r.visible = on
            for scale, legend in self.legends.items():
                legend.items = [item for n in listed for s, item in self.vars[n]["items"]
                                if s == scale]
        finally:
            self.syncing = False
        shown = [n for n in listed if n not in hidden]
        points: dict = {}
        for n in shown:
            for x, call, _tape, state, _norm in self.rows.get(n, []):
                if state in BAND_LABEL:
                    points.setdefault(state, []).append((x, call, variable_name(n),
                                                         self.vars[n]["color"]))
        self.counts = self.band.fill(points, [variable_name(n) for n in shown])

    def set_scale(self, log: bool):
        self.figs["log"].visible = log
        self.figs["linear"].visible = not log


class ScalarPlots:
    """One plot per quantity of the reported scalars (those sharing their name's last word
    share it: ``loss`` and ``val_loss``), a common step axis, and a band for the values a plot
    cannot draw. Each quantity has a log and a linear figure: :meth:`set_scale` shows the log
    one where it can draw every value and helps (``log_wanted``: all positive and spanning at
    least ``LOG_SPAN`` decades), so a loss that diverges to 1e27 does not flatten its healthy
    phase into a line at 0."""

    LOG_SPAN = 2.0

    def __init__(self):
        self.x_range = DataRange1d()
        self.figs: dict = {}          # group -> {"log": figure, "linear": figure}
        self.legends: dict = {}       # (group, scale) -> its legend
        self.series: dict = {}        # name -> {"src", "color", "group"}
        self.log = True
        self.band = Band(self.x_range, ("nan", "inf", "none"), "scalar_band",
                         "step (as given to log_scalar; the norms' x is the gradient call)",
                         [("scalar", "@name"), ("step", "@call"), ("value", "@state")])
        self.layout = column(self.band.fig, sizing_mode="stretch_width")
        self.counts: dict = {}

    def _figures(self, group: str) -> dict:
        figs = self.figs.get(group)
        if figs is None:
            figs = self.figs[group] = {}
            at = len(self.layout.children) - 1        # above the band
            for scale in ("log", "linear"):
                fig = figs[scale] = chart_figure(
                    height=SCALAR_HEIGHT, sizing_mode="stretch_width", x_range=self.x_range,
                    y_axis_type=scale, title=f"reported scalar: {group} ({scale} scale)",
                    name=f"scalars_{len(self.figs) - 1}_{scale}", visible=scale == "linear")
                self.legends[group, scale] = side_legend(fig, SCALAR_HEIGHT)
                fig.add_tools(HoverTool(tooltips=[("scalar", "@name"), ("step", "@x"),
                                                  ("value", "@value")]))
                self.layout.children.insert(at, fig)
                at += 1
        return figs

    def _series(self, name: str) -> dict:
        s = self.series.get(name)
        if s is None:
            group = scalar_group(name)
            figs = self._figures(group)
            color = Category10_10[len(self.series) % 10]
            src = ColumnDataSource({"x": [], "value": [], "y": [], "s": [], "y_log": [],
                                    "s_log": [], "name": []},
                                   name=f"scalar_points_{len(self.series)}")
            for scale, fig in figs.items():
                y = "_log" if scale == "log" else ""
                line = fig.line("x", "s" + y, source=src, color=color, line_width=1.5)
                dots = fig.scatter("x", "y" + y, source=src, color=color, size=4)
                legend = self.legends[group, scale]
                legend.items = legend.items + [LegendItem(label=name, renderers=[line, dots])]
            s = self.series[name] = {"src": src, "color": color, "group": group}
        return s

    def fill(self, scalars: dict, weight: float):
        """``scalars``: the store's name -> [(step, value, seq)]; lines smoothed with
        ``weight``."""
        points: dict = {}
        for name, series in list(scalars.items()):
            s = self._series(str(name))
            steps = [p[0] for p in series]
            values = [number(p[1]) for p in series]
            ys = [v if value_state(v) == "value" else math.nan for v in values]
            y_log = [v if v > 0 else math.nan for v in ys]
            s["src"].data = {"x": steps, "value": [math.nan if v is None else v for v in values],
                             "y": ys, "s": ema(ys, weight), "y_log": y_log,
                             "s_log": ema(y_log, weight), "name": [str(name)] * len(steps)}
            for step, v in zip(steps, values):
                state = value_state(v)
                if state != "value":
                    points.setdefault(state, []).append((step, step, str(name), s["color"]))
        self.counts = self.band.fill(points, [str(n) for n in self.series])
        self.set_scale(self.log)

    def log_wanted(self, group: str) -> bool:
        """A log axis draws every finite value of ``group`` (all positive) and they span at
        least ``LOG_SPAN`` decades: on a linear axis the small ones would be a flat line."""
        ys = [v for s in self.series.values() if s["group"] == group
              for v in s["src"].data["y"] if math.isfinite(v)]
        if not ys or min(ys) <= 0:
            return False
        return math.log10(max(ys) / min(ys)) >= self.LOG_SPAN

    def set_scale(self, log: bool):
        """The log figure of each quantity where ``log`` is asked and it is wanted, else the
        linear one."""
        self.log = log
        for group, figs in self.figs.items():
            on = log and self.log_wanted(group)
            if figs["log"].visible != on:
                figs["log"].visible = on
            if figs["linear"].visible == on:
                figs["linear"].visible = not on


def static_charts(store):
    """The training charts of a whole run for a page without a server (the export): norms on
    a log axis with their band, then the scalars; None when the run has neither."""
    if not store.history and not store.scalars:
        return None
    norms = NormPlots(python_callbacks=False)
    norms.set_rows(store.history)
    norms.fill(0.0)
    norms.show(list(norms.vars), set())
    parts = [norms.figs["log"], norms.band.fig] if norms.vars else []
    if store.scalars:
        scalars = ScalarPlots()
        scalars.fill(store.scalars, 0.0)
        parts.append(scalars.layout)
    return column(*parts, sizing_mode="stretch_width")
