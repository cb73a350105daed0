"""The compare view's Training tab: both runs' gradient norms (per variable) and reported
scalars on shared axes, run a solid and run b dashed in the same colour, and a vertical
line at the first point where they part.

Run b's gradient calls are drawn at the call of run a the diff paired them with (so step k
meets step k); where the runs part is the first pair of calls with a gradient that differs,
as the diff says. Scalars are compared step by step with the diff's tolerance.
"""
from __future__ import annotations

import math

from bokeh.layouts import column
from bokeh.models import ColumnDataSource, HoverTool, Label, LegendItem, Span

from .chart_figures import chart_figure, side_legend
from .chart_plots import line_styles
from ..store.chart_series import norm_rows, value_state
from ..store.compare_store import FIRST

HEIGHT = 240


def part_call(result):
    """The call of run a where the runs' gradients first part (None: they never do)."""
    differing = {g.call_a for g in result.gradients if g.differs}
    for ca, cb in result.calls:
        if ca in differing or (ca is None) != (cb is None):
            return ca
    return None


def part_step(result, scalars_a: dict, scalars_b: dict):
    """The first step at which a scalar reported by both runs differs beyond tolerance."""
    first = None
    for name, series_a in scalars_a.items():
        by_step = {p[0]: p[1] for p in scalars_b.get(name, ())}
        for step, value, *_ in series_a:
            other = by_step.get(step)
            if other is None or value is None:
                continue
            same = (value == other or (math.isnan(value) and math.isnan(other)) or
                    abs(value - other) <= result.atol + result.rtol * abs(other))
            if not same:
                first = step if first is None else min(first, step)
                break
    return first


def _x_of_b(result) -> dict:
    """Call of b -> the x it is drawn at: its partner's call, else after the last of a."""
    mapping, last = {}, 0
    for ca, cb in result.calls:
        if ca is not None:
            last = max(last, ca)
    extra = 0
    for ca, cb in result.calls:
        if cb is None:
            continue
        if ca is None:
            extra += 1
            mapping[cb] = last + extra
        else:
            mapping[cb] = ca
    return mapping


def _mark(fig, x, text):
    fig.add_layout(Span(location=x, dimension="height", line_color=FIRST, line_width=2,
                        line_dash="dashed", name="part_line"))
    fig.add_layout(Label(x=x, y=4, x_units="data", y_units="screen", text=text,
                         text_font_size="11px", text_color=FIRST, x_offset=-4,
                         text_align="right",
                         name="part_label"))


def overlay_charts(store, history_b, scalars_b: dict):
    """The Bokeh layout of both runs' norms and scalars, or None when neither has any."""
    result = store.result
    parts = []
    _, rows_a = norm_rows(list(store.history))
    x_of_b = _x_of_b(result)
    b_rows = [dict(h, call=x_of_b[h["call"]]) for h in history_b if h.get("call") in x_of_b]
    _, rows_b = norm_rows(b_rows)
    if rows_a or rows_b:
        fig = chart_figure(height=HEIGHT, sizing_mode="stretch_width", y_axis_type="log",
                           name="compare_norms", title="gradient norm per variable: "
                           "run a solid, run b dashed (at the call of a it pairs with)")
        legend = side_legend(fig, HEIGHT)
        styles = line_styles(list(dict.fromkeys([*rows_a, *rows_b])))
        items = []
        for name, (color, _) in styles.items():
            for side, rows, dash in (("a", rows_a, "solid"), ("b", rows_b, "dashed")):
                pts = [(r[0], r[4]) for r in rows.get(name, []) if r[3] == "value" and r[4]]
                src = ColumnDataSource({"x": [p[0] for p in pts], "y": [p[1] for p in pts],
                                        "name": [f"{name} ({side})"] * len(pts)},
                                       name=f"compare_norm_{side}")
                line = fig.line("x", "y", source=src, color=color, line_dash=dash,
                                line_width=1.6)
                dots = fig.scatter("x", "y", source=src, color=color, size=4)
                items.append(LegendItem(label=f"{name} ({side})", renderers=[line, dots]))
        legend.items = items
        fig.add_tools(HoverTool(tooltips=[("", "@name"), ("call", "@x"), ("norm", "@y")]))
        fig.xaxis.axis_label = "gradient call (of run a)"
        call = part_call(result)
        if call is not None:
            _mark(fig, call, f"runs part: call {call}")
        parts.append(fig)
    if store.scalars or scalars_b:
        fig = chart_figure(height=HEIGHT, sizing_mode="stretch_width", name="compare_scalars",
                           title="reported scalars: run a solid, run b dashed")
        legend = side_legend(fig, HEIGHT)
        names = list(dict.fromkeys([*store.scalars, *scalars_b]))
        styles = line_styles(names)
        items = []
        for name in names:
            color = styles[name][0]
            for side, series, dash in (("a", store.scalars.get(name, ()), "solid"),
                                       ("b", scalars_b.get(name, ()), "dashed")):
                pts = [(p[0], p[1]) for p in series if value_state(p[1]) == "value"]
                src = ColumnDataSource({"x": [p[0] for p in pts], "y": [p[1] for p in pts],
                                        "name": [f"{name} ({side})"] * len(pts)},
                                       name=f"compare_scalar_{side}")
                line = fig.line("x", "y", source=src, color=color, line_dash=dash,
                                line_width=1.6)
                items.append(LegendItem(label=f"{name} ({side})", renderers=[line]))
        legend.items = items
        fig.add_tools(HoverTool(tooltips=[("", "@name"), ("step", "@x"), ("value", "@y")]))
        step = part_step(result, store.scalars, scalars_b)
        if step is not None:
            _mark(fig, step, f"runs part: step {step}")
        parts.append(fig)
    return column(*parts, sizing_mode="stretch_width") if parts else None
