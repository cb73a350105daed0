"""The Training tab: the gradient norm of every variable over the gradient calls, and the
scalars a script reports (``tv.events.log_scalar``), drawn so that a broken run shows what
broke. A NaN, Inf, ``None`` or all-zero gradient and a non-finite scalar cannot sit on a log
(or any) axis: each gets a marker in a band under its plot, one shape per state, with a
count per state in the band's legend. Every variable is drawn, grouped by layer (one colour
per layer, one dash per variable in it), with a legend beside the plot (a click hides a
line) and, past ``PICKER_ABOVE`` variables, a picker. Scalars that differ in their last word
(``loss``, ``accuracy``) get plots of their own, so each has its own axis. A smoothing slider
draws an exponential moving average over the raw points.

The Jacobian tab is :mod:`tapeviz.ui.jacobian_view` (imported from here as before).
"""
from __future__ import annotations

import math

import panel as pn
from bokeh.layouts import column
from bokeh.models import ColumnDataSource, DataRange1d, HoverTool, LegendItem, TapTool
from bokeh.palettes import Category10_10

from .chart_figures import Band, chart_figure, side_legend
from .chart_series import (BAND_LABEL, ema, norm_rows, number, ordered_by_group,
                           scalar_group, value_state, variable_group, variable_name)
from .html import esc
from .jacobian_view import JacobianView  # noqa: F401  (the dashboard imports it from here)

LOADING = '<span class="tv-small">Loading the charts…</span>'
EMPTY = "<i>No gradient calls and no reported scalars yet.</i>"
PICKER_ABOVE = 12        # more variables than this: a picker to show some of them
DASHES = ("solid", "dashed", "dotted", "dotdash")
NORM_HEIGHT, SCALAR_HEIGHT = 260, 200
LAYER = "layer:"         # a picker value that stands for all the variables of a layer


class TrainingCharts:
    """Gradient norms per variable and reported scalars, with their bands. Clicking a point
    shows that gradient call and its tape, or says that the tape is no longer kept."""

    def __init__(self, dashboard):
        self.dash = dashboard
        self.log = pn.widgets.Checkbox(label="log scale", value=True, width=90, align="center")
        self.smooth = pn.widgets.FloatSlider(label="smoothing (EMA)", start=0.0, end=0.99,
                                             step=0.01, value=0.0, width=170)
        self.pick = pn.widgets.MultiChoice(label="variables shown (all when none is picked)",
                                           options=[], visible=False, width=420)
        self.info = pn.pane.HTML(LOADING, sizing_mode="stretch_width", align="center",
                                 css_classes=["tv-chart-info"])
        self.note = pn.pane.Alert("", alert_type="warning", visible=False,
                                  sizing_mode="stretch_width", css_classes=["tv-chart-note"])
        self.col = pn.Column(pn.Row(self.log, self.smooth, self.pick, self.info,
                                    sizing_mode="stretch_width"),
                             self.note, sizing_mode="stretch_width")
        self.built = False        # figures are built on first data: they cost time
        self._sig = None
        self.log.param.watch(lambda e: self._show_scale(), "value")
        self.smooth.param.watch(lambda e: self._fill(), "value")
        self.pick.param.watch(lambda e: self._apply_visibility(), "value")

    def panel(self):
        return self.col

    def reset(self):
        """Forget the charts of the run shown before: the next update builds them afresh."""
        self._sig = None
        self.info.object = LOADING
        self.note.visible = False
        self.pick.param.update(options=[], value=[], visible=False)
        if self.built:            # (re-laying out the column costs a model walk)
            self.built = False
            self.col.objects = self.col.objects[:2]

    # ---- building ------------------------------------------------------------------------
    def _build(self):
        self.built = True
        self.vars: dict = {}          # name -> {"src", "renderers", "color", ...}
        self.hidden: set = set()      # hidden with a click on the legend
        self.rows: dict = {}          # name -> rows of chart_series.norm_rows
        self._syncing = False
        x_range = DataRange1d()
        self.norm_figs, self.legends, self.taps, self.hovers = {}, {}, {}, {}
        for scale in ("log", "linear"):
            fig = chart_figure(height=NORM_HEIGHT, sizing_mode="stretch_width", y_axis_type=scale,
                               x_range=x_range, name=f"norms_{scale}",
                               title="gradient norm per variable (click a point to inspect that call)")
            fig.min_border_bottom = 4
            self.norm_figs[scale] = fig
            self.legends[scale] = side_legend(fig, NORM_HEIGHT)
            self.taps[scale] = TapTool(renderers=[])
            self.hovers[scale] = HoverTool(renderers=[], tooltips=[
                ("variable", "@name"), ("call", "@call"), ("norm", "@norm")])
            fig.add_tools(self.taps[scale], self.hovers[scale])
        self.band = Band(x_range, ("nan", "inf", "none", "zero"), "norm_band", "gradient call",
                         [("variable", "@name"), ("call", "@call"), ("gradient", "@state")])
        for src in self.band.sources.values():
            src.selected.on_change("indices", self._tapped(src))
        self.norm_layout = column(*self.norm_figs.values(), self.band.fig,
                                  sizing_mode="stretch_width")
        self._show_scale()
        self.col.append(pn.pane.Bokeh(self.norm_layout, sizing_mode="stretch_width"))
        self.scalars = None           # built with the first reported scalar

    def _add_variable(self, name: str, color: str, dash: str):
        src = ColumnDataSource({k: [] for k in ("x", "call", "name", "norm", "y_lin", "y_log",
                                                "s_lin", "s_log")},
                               name=f"norm_points_{len(self.vars)}")
        renderers = []
        items = []
        for scale, fig in self.norm_figs.items():
            y = "lin" if scale == "linear" else "log"
            line = fig.line("x", f"s_{y}", source=src, color=color, line_dash=dash, line_width=1.5)
            dots = fig.scatter("x", f"y_{y}", source=src, color=color, size=5,
                               nonselection_alpha=0.6)
            self.taps[scale].renderers = self.taps[scale].renderers + [dots]
            self.hovers[scale].renderers = self.hovers[scale].renderers + [dots]
            items.append((scale, LegendItem(label=variable_name(name), renderers=[line, dots])))
            renderers += [line, dots]
        for r in renderers:
            r.on_change("visible", self._legend_toggled(name))
        src.selected.on_change("indices", self._tapped(src))
        self.vars[name] = {"src": src, "renderers": renderers, "items": items, "color": color}

    # ---- updating ------------------------------------------------------------------------
    def update(self):
        store = self.dash.store
        hist = store.history
        sig = (len(hist), hist[-1]["call"] if hist else None, len(store.scalars),
               sum(len(v) for v in store.scalars.values()))
        if sig == self._sig:
            return
        self._sig = sig
        if not hist and not store.scalars:
            self.info.object = EMPTY
            return
        if not self.built:
            self._build()
        calls, self.rows = norm_rows(list(hist))
        self._colour_new_variables()
        if store.scalars and self.scalars is None:
            self.scalars = ScalarPlots(self)
            self.col.append(self.scalars.pane)
        self._fill()
        self._apply_visibility()
        self._calls = len(calls)
        self._update_info()

    def _colour_new_variables(self):
        names = ordered_by_group(list(self.rows))
        groups = list(dict.fromkeys(variable_group(n) for n in names))
        members: dict = {}
        for n in names:
            g = variable_group(n)
            members[g] = members.get(g, -1) + 1
            if n not in self.vars:
                gi = groups.index(g)
                self._add_variable(n, Category10_10[gi % 10],
                                   DASHES[(members[g] + gi // 10) % len(DASHES)])
        if list(self.vars) != names:          # keep each layer's variables together
            self.vars = {n: self.vars[n] for n in names}
        options = {}
        if len(names) > PICKER_ABOVE:      # each layer of several variables, then each one
            for g in groups:
                size = sum(variable_group(n) == g for n in names)
                if size > 1:
                    options[f"{g}/ (layer: {size} variables)"] = LAYER + g
            options.update({variable_name(n): n for n in names})
        if self.pick.options != options:
            self.pick.param.update(options=options, visible=bool(options),
                                   value=[v for v in self.pick.value if v in options.values()])

    def _fill(self):
        """Each variable's points and smoothed line, and the scalars' (from the last rows)."""
        if not self.built:
            return
        w = self.smooth.value
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
                "y_lin": y_lin, "y_log": y_log, "s_lin": ema(y_lin, w), "s_log": ema(y_log, w)}
        if self.scalars is not None:
            self.scalars.fill(w)

    def _listed(self) -> list:
        """The variables picked (a variable or its layer), all when none is."""
        picked = set(self.pick.value)
        return [n for n in self.vars
                if not picked or n in picked or LAYER + variable_group(n) in picked]

    def _shown(self) -> list:
        return [n for n in self._listed() if n not in self.hidden]

    def _apply_visibility(self):
        """Lines, legend entries and band points of the picked variables not hidden."""
        if not self.built:
            return
        listed = self._listed()
        self._syncing = True
        try:
            for n, v in self.vars.items():
                on = n in listed and n not in self.hidden
                for r in v["renderers"]:
                    if r.visible != on:
                        r.visible = on
            for scale, legend in self.legends.items():
                legend.items = [item for n in listed for s, item in self.vars[n]["items"]
                                if s == scale]
        finally:
            self._syncing = False
        points: dict = {}
        for n in self._shown():
            for x, call, _tape, state, _norm in self.rows.get(n, []):
                if state in BAND_LABEL:
                    points.setdefault(state, []).append((x, call, variable_name(n),
                                                         self.vars[n]["color"]))
        self.counts = self.band.fill(points, [variable_name(n) for n in self._shown()])

    def _legend_toggled(self, name):
        def changed(attr, old, new):
            if self._syncing or old == new:
                return
            if new:
                self.hidden.discard(name)
            else:
                self.hidden.add(name)
            self._apply_visibility()      # the other scale's lines and the band follow
            self._update_info()
        return changed

    def _show_scale(self):
        if self.built:
            self.norm_figs["log"].visible = self.log.value
            self.norm_figs["linear"].visible = not self.log.value

    def _update_info(self):
        bad = ", ".join(f"{self.counts[k]:,} {BAND_LABEL[k]}" for k in self.counts if self.counts[k])
        shown = len(self._shown())
        text = (f"{self._calls:,} gradient call{'s' * (self._calls != 1)} · "
                f"{len(self.vars)} variable{'s' * (len(self.vars) != 1)}"
                + (f" ({shown} shown)" if shown != len(self.vars) else "")
                + (f" · norms not drawable: {bad}" if bad else "")
                + " · click a chart, then the wheel zooms it")
        self.info.object = f'<span style="font-size:12px">{esc(text)}</span>'

    # ---- clicks --------------------------------------------------------------------------
    def _tapped(self, src):
        def tapped(attr, old, new):
            if new:
                self.open_call(src.data["call"][new[0]])
        return tapped

    def open_call(self, call_id):
        """Show gradient call ``call_id`` and its tape, or say why it cannot be shown."""
        store = self.dash.store
        call = store.calls.get(call_id)
        tape = call["tape"] if call else next((h["tape"] for h in store.history
                                               if h["call"] == call_id), None)
        if call is None or tape not in store.tapes:
            self.note.object = esc(
                f"Gradient call {call_id} (tape {tape}) is no longer kept: this view keeps the "
                f"last {store.max_tapes} tapes and {store.max_calls} gradient calls, and drops "
                "older ones (their norms stay in the chart). Click a newer point to inspect it.")
            self.note.visible = True
            return
        self.note.visible = False
        self.dash.select_call(call_id)


class ScalarPlots:
    """One plot per quantity of the reported scalars (those sharing their name's last word
    share it: ``loss`` and ``val_loss``), a common step axis, and a band for the values a plot
    cannot draw."""

    def __init__(self, charts: TrainingCharts):
        self.charts = charts
        self.x_range = DataRange1d()
        self.figs: dict = {}          # group -> figure
        self.legends: dict = {}       # group -> its legend
        self.series: dict = {}        # name -> {"src", "color"}
        self.band = Band(self.x_range, ("nan", "inf", "none"), "scalar_band", "step",
                         [("scalar", "@name"), ("step", "@call"), ("value", "@state")])
        self.layout = column(self.band.fig, sizing_mode="stretch_width")
        self.pane = pn.pane.Bokeh(self.layout, sizing_mode="stretch_width")

    def _series(self, name: str) -> dict:
        s = self.series.get(name)
        if s is None:
            group = scalar_group(name)
            fig = self.figs.get(group)
            if fig is None:
                fig = self.figs[group] = chart_figure(
                    height=SCALAR_HEIGHT, sizing_mode="stretch_width", x_range=self.x_range,
                    title=f"reported scalar: {group}", name=f"scalars_{len(self.figs)}")
                self.legends[group] = side_legend(fig, SCALAR_HEIGHT)
                fig.add_tools(HoverTool(tooltips=[("scalar", "@name"), ("step", "@x"),
                                                  ("value", "@value")]))
                self.layout.children.insert(len(self.figs) - 1, fig)
            color = Category10_10[len(self.series) % 10]
            src = ColumnDataSource({"x": [], "value": [], "y": [], "s": [], "name": []},
                                   name=f"scalar_points_{len(self.series)}")
            line = fig.line("x", "s", source=src, color=color, line_width=1.5)
            dots = fig.scatter("x", "y", source=src, color=color, size=4)
            self.legends[group].items = self.legends[group].items + [
                LegendItem(label=name, renderers=[line, dots])]
            s = self.series[name] = {"src": src, "color": color}
        return s

    def fill(self, weight: float):
        points: dict = {}
        for name, series in list(self.charts.dash.store.scalars.items()):
            s = self._series(str(name))
            steps = [p[0] for p in series]
            values = [number(p[1]) for p in series]
            ys = [v if value_state(v) == "value" else math.nan for v in values]
            s["src"].data = {"x": steps, "value": [math.nan if v is None else v for v in values],
                             "y": ys, "s": ema(ys, weight), "name": [str(name)] * len(steps)}
            for step, v in zip(steps, values):
                state = value_state(v)
                if state != "value":
                    points.setdefault(state, []).append((step, step, str(name), s["color"]))
        self.counts = self.band.fill(points, [str(n) for n in self.series])
