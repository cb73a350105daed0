"""Training charts (gradient norm per variable over gradient calls, reported scalars such as
the loss) and the Jacobian / Hessian heatmap of a ``jacobian`` call."""
from __future__ import annotations

import math

import numpy as np
import panel as pn
from bokeh.models import ColumnDataSource, HoverTool, LinearColorMapper, TapTool, ColorBar
from bokeh.palettes import Category10_10, RdBu11
from bokeh.plotting import figure

from .html import _num, _flat, esc
from .limits import clip_summary

MAX_LINES = 10


class TrainingCharts:
    """Gradient norms per variable (one line each, log scale optional) and reported scalars.
    Clicking a point of the norm chart shows that gradient call and its tape."""

    def __init__(self, dashboard):
        self.dash = dashboard
        self.log = pn.widgets.Checkbox(label="log scale", value=True, width=100)
        self.info = pn.pane.HTML("<i>No gradient calls yet.</i>", sizing_mode="stretch_width")
        self.col = pn.Column(pn.Row(self.log, self.info), sizing_mode="stretch_width")
        self.figs = None          # built on first data: constructing figures costs time
        self._sig = None
        self.log.param.watch(self._on_log, "value")

    def reset(self):
        """Forget the charts of the run shown before (its variables and scalars): the next
        update builds them afresh for the new run."""
        self._sig = None
        self.info.object = "<i>No gradient calls yet.</i>"
        if self.figs is not None:      # (re-laying out the column costs a model walk)
            self.figs = None
            self.col.objects = self.col.objects[:1]

    def _on_log(self, event):
        if self.figs is not None:
            self.pane.object = self.figs["log" if event.new else "linear"]

    def _build(self):
        self.norm_src = ColumnDataSource({"x": [], "y": [], "call": [], "name": [], "color": []},
                                         name="norm_points")
        self.line_srcs: dict = {}
        self.scalar_srcs: dict = {}
        self.figs = {scale: self._norm_figure(scale) for scale in ("linear", "log")}
        self.loss_fig = None
        self.pane = pn.pane.Bokeh(self.figs["log" if self.log.value else "linear"],
                                  sizing_mode="stretch_width")
        self.loss_pane = None    # added with its figure (toggling a Bokeh pane's visibility
                                 # trips Panel 1.9's stylesheet sync)
        self.norm_src.selected.on_change("indices", self._on_tap)
        self.col.append(self.pane)

    def _norm_figure(self, scale):
        fig = figure(height=240, sizing_mode="stretch_width", y_axis_type=scale,
                     title="gradient norm per variable (click a point to inspect that call)",
                     tools="pan,wheel_zoom,box_zoom,reset", name=f"norms_{scale}",
                     x_axis_label="gradient call")
        r = fig.scatter("x", "y", source=self.norm_src, size=6, color="color",
                        nonselection_alpha=0.6)
        fig.add_tools(TapTool(renderers=[r]),
                      HoverTool(renderers=[r], tooltips=[("variable", "@name"), ("call", "@call"),
                                                         ("norm", "@y")]))
        return fig

    def panel(self):
        return self.col

    def update(self):
        store = self.dash.store
        hist = list(store.history)
        names = []
        for h in hist:
            if h["name"] not in names and h["norm"] is not None:
                names.append(h["name"])
        shown = names[:MAX_LINES]
        calls = sorted({h["call"] for h in hist})
        pos = {c: i for i, c in enumerate(calls)}
        sig = (len(hist), hist[-1]["call"] if hist else None, len(store.scalars),
               sum(len(v) for v in store.scalars.values()))
        if sig == self._sig:
            return
        self._sig = sig
        if not hist and not store.scalars:
            return
        if self.figs is None:
            self._build()
        xs, ys, cs, ns, cols = [], [], [], [], []
        per = {n: ([], []) for n in shown}
        for h in hist:
            if h["name"] in per and h["norm"] is not None and math.isfinite(h["norm"]):
                y = h["norm"] if h["norm"] > 0 else float("nan")
                per[h["name"]][0].append(pos[h["call"]]); per[h["name"]][1].append(y)
                xs.append(pos[h["call"]]); ys.append(y); cs.append(h["call"]); ns.append(h["name"])
                cols.append(Category10_10[shown.index(h["name"]) % 10])
        for i, n in enumerate(shown):
            if n not in self.line_srcs:
                src = self.line_srcs[n] = ColumnDataSource({"x": [], "y": []})
                for fig in self.figs.values():
                    fig.line("x", "y", source=src, color=Category10_10[i % 10], legend_label=n)
                    fig.legend.location = "top_right"
                    fig.legend.label_text_font_size = "8pt"
            self.line_srcs[n].data = {"x": per[n][0], "y": per[n][1]}
        self.norm_src.data = {"x": xs, "y": ys, "call": cs, "name": ns, "color": cols}
        extra = f" ({len(names) - MAX_LINES} more variables not drawn)" if len(names) > MAX_LINES else ""
        self.info.object = f'<span style="font-size:12px">{len(calls)} gradient calls{esc(extra)}</span>'
        if store.scalars and self.loss_fig is None:
            self.loss_fig = figure(height=220, sizing_mode="stretch_width", title="reported scalars",
                                   tools="pan,wheel_zoom,box_zoom,reset", name="scalars_fig",
                                   x_axis_label="step")
            self.loss_fig.line([0], [0], alpha=0)    # a renderer before the first series
            self.loss_pane = pn.pane.Bokeh(self.loss_fig, sizing_mode="stretch_width")
            self.col.append(self.loss_pane)
        for i, (name, series) in enumerate(store.scalars.items()):
            if i >= MAX_LINES:
                break
            if name not in self.scalar_srcs:
                src = self.scalar_srcs[name] = ColumnDataSource({"x": [], "y": []})
                self.loss_fig.line("x", "y", source=src, color=Category10_10[i % 10], legend_label=name)
                self.loss_fig.legend.label_text_font_size = "8pt"
            pts = list(series)
            self.scalar_srcs[name].data = {"x": [p[0] for p in pts], "y": [p[1] for p in pts]}

    def _on_tap(self, attr, old, new):
        if new:
            call = self.norm_src.data["call"][new[0]]
            self.dash.select_call(call)


class JacobianView:
    """A heatmap of each result of a ``jacobian`` / ``batch_jacobian`` call (values come in the
    result summaries when small): rows are target elements, columns source elements."""

    def __init__(self, dashboard):
        self.dash = dashboard
        self.col = pn.Column(sizing_mode="stretch_width")
        self._none = pn.pane.HTML("<i>No jacobian or batch_jacobian call in this run.</i>")
        self._shown = None

    def panel(self):
        return self.col

    def reset(self):
        self._shown = None
        if self.col.objects != [self._none]:
            self.col.objects = []

    def update(self):
        store = self.dash.store
        call = store.calls.get(self.dash.call)
        jac = [c for c in store.calls.values() if c["method"] in ("jacobian", "batch_jacobian")
               and c.get("results")]
        if call is None or call["method"] not in ("jacobian", "batch_jacobian") or not call.get("results"):
            call = jac[-1] if jac else None
        key = (call or {}).get("id"), len((call or {}).get("results") or [])
        if key == self._shown:
            return
        self._shown = key
        if call is None:
            # the same pane each time: new panes are new models for the page to build
            if self.col.objects != [self._none]:
                self.col.objects = [self._none]
            return
        objs = [pn.pane.HTML(f"<b>{esc(call['method'])}</b> (call {esc(call['id'])}, tape {esc(call['tape'])})")]
        tshape = (call["targets"][0].get("shape") if call["targets"] else []) or []
        for r in call["results"]:
            ref = r.get("tensor") or {}
            name = store.tensor_name(ref.get("id"), ref.get("name", "?"))
            g = clip_summary(r.get("grad"))
            if not g or "value" not in g:
                objs.append(pn.pane.HTML(f"{esc(name)}: {'None' if not g else 'too large to show (only a summary was recorded)'}"))
                continue
            vals = np.array([_num(v) for v in _flat(g["value"])], dtype=float)
            n_t = int(np.prod(tshape)) if tshape else 1
            if vals.size % max(n_t, 1):
                n_t = 1
            mat = vals.reshape(max(n_t, 1), -1)
            objs.append(self._heat(mat, f"∂target/∂{name}  {list(g.get('shape') or [])}"))
        self.col.objects = objs

    def _heat(self, mat, title):
        hi = float(np.nanmax(np.abs(mat[np.isfinite(mat)]))) if np.isfinite(mat).any() else 1.0
        hi = hi or 1.0
        rows, cols = mat.shape
        fig = figure(height=min(420, 80 + 22 * rows), width=min(700, 120 + 22 * cols), title=title,
                     x_range=(0, cols), y_range=(rows, 0), tools="hover,reset,save", name="jacobian",
                     tooltips=[("row", "$y{0}"), ("col", "$x{0}"), ("value", "@image")])
        mapper = LinearColorMapper(palette=list(reversed(RdBu11)), low=-hi, high=hi, nan_color="#9467bd")
        fig.image(image=[mat], x=0, y=rows, dw=cols, dh=rows, color_mapper=mapper)
        fig.add_layout(ColorBar(color_mapper=mapper, width=8), "right")
        return pn.pane.Bokeh(fig)
