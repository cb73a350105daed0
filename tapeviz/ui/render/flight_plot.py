"""The timeline of a flight recording as a Bokeh figure: one point per gradient call, from its
summary. The served dashboard (``dashboard/flight_timeline.py``) and the exported page
(``export.py``) both draw it from these two functions, so the two pages mark a call alike.

x is the call's index in the run, y its global gradient norm on a log axis (a call with no
drawable norm sits on a floor line): grey for a call kept as a summary only, blue for one kept
in full, orange for one that still had a None or zero gradient that began earlier (kept in
full only where it began), a red cross for an anomalous one, and a purple triangle on a
ceiling line for a call with a NaN or Inf gradient (its norm is not a number to draw).
Imports: Bokeh, ``chart_figures``, ``store.flight_calls``.
"""
from __future__ import annotations

import math

from bokeh.models import ColumnDataSource, HoverTool, TapTool

from .chart_figures import chart_figure
from ..store.flight_calls import ANOMALOUS, WHY_WORDS, nonfinite

HEIGHT = 170
STYLE = {"summary": ("#b0b0b0", "circle", 4), "full": ("#1f77b4", "circle", 7),
         "still": ("#ff7f0e", "circle", 6),
         "anomalous": ("#d62728", "x", 13), "nonfinite": ("#7b2cbf", "triangle", 13)}
HINT = ("Every gradient call of the run, from its summary: grey points are summaries only, "
        "blue ones were kept in full, orange ones still had a None or zero gradient that "
        "began at an earlier red cross, red crosses are anomalous, purple triangles on the "
        "top line had a NaN or Inf gradient. Click one.")
COLUMNS = ("x", "y", "call", "norm", "kept", "color", "marker", "size")


def timeline_figure(extra=()):
    """``(figure, source)``: the empty timeline, its points clickable; ``extra`` names more
    columns of the source (the exported page keeps each call's note there)."""
    source = ColumnDataSource({k: [] for k in (*COLUMNS, *extra)}, name="flight_calls")
    fig = chart_figure(height=HEIGHT, sizing_mode="stretch_width", y_axis_type="log",
                       name="flight_timeline", title="gradient calls (global norm): click one")
    dots = fig.scatter("x", "y", source=source, color="color", marker="marker", size="size",
                       line_width=2, nonselection_alpha=0.8)
    fig.add_tools(TapTool(renderers=[dots]), HoverTool(renderers=[dots], tooltips=[
        ("call", "#@x (call @call)"), ("norm", "@norm"), ("kept", "@kept")]))
    fig.xaxis.axis_label = "gradient call"
    # (a norm that varies within a decade gets linear ticks: at the default count their labels
    # overlap in a plot this short)
    fig.yaxis.ticker.desired_num_ticks = 3
    return fig, source


def timeline_columns(rows) -> dict:
    """The source's columns for ``rows`` (the store's flight rows, in call order)."""
    norms = [r["norm"] for r in rows]
    drawable = [n for n in norms if n is not None and math.isfinite(n) and n > 0]
    floor = min(drawable) / 10 if drawable else 1.0
    ceiling = max(drawable) * 10 if drawable else 10.0
    data = {k: [] for k in COLUMNS}
    for row, norm in zip(rows, norms):
        bad = nonfinite(row)
        style = ("nonfinite" if bad else "anomalous" if row["why"] in ANOMALOUS else
                 "still" if any(g["verdict"] in ("none", "zero") for g in row["still"])
                 else "full" if row["full"] else "summary")
        color, marker, size = STYLE[style]
        if style == "still" and row["full"]:
            size = STYLE["full"][2] + 1            # (kept in full: as big as a blue one)
        ok = norm is not None and math.isfinite(norm) and norm > 0
        data["x"].append(row["index"])
        data["y"].append(ceiling if bad else norm if ok else floor)
        data["call"].append(row["call"])
        data["norm"].append("NaN/Inf" if bad else "" if norm is None else f"{norm:.4g}")
        data["kept"].append(f"in full, as {WHY_WORDS[row['why']]}" if row["why"] in WHY_WORDS
                            else "summary only")
        data["color"].append(color)
        data["marker"].append(marker)
        data["size"].append(size)
    return data
