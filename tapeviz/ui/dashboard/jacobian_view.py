"""The Jacobian tab: a heatmap of each result of a ``jacobian`` / ``batch_jacobian`` call
(Hessians from nested tapes included), from the values the result summaries carry when
small: rows are target elements, columns source elements, one cell each."""
from __future__ import annotations

import numpy as np
import panel as pn
import param
from bokeh.models import ColorBar, ColumnDataSource, FixedTicker, HoverTool, LinearColorMapper
from bokeh.palettes import RdBu11
from bokeh.plotting import figure

from ..render.html import _flat, _num, esc
from ..store.limits import clip_summary
from .state import Component

JACOBIAN_METHODS = ("jacobian", "batch_jacobian")


class JacobianView(Component):
    """The heatmaps of the shown gradient call when it is a Jacobian, else of the last one."""

    label = "Jacobian"
    area = "bottom"

    def __init__(self, state, plot, **params):
        super().__init__(state, plot, **params)
        self.col = pn.Column(sizing_mode="stretch_width")
        self._none = pn.pane.HTML("<i>No jacobian or batch_jacobian call in this run.</i>")
        self._shown = None

    def body(self) -> list:
        return [self.col]

    def reset(self):
        self._shown = None
        if self.col.objects != [self._none]:
            self.col.objects = []

    @param.depends("state.call", "state.drawn", watch=True)
    def _on_call(self):
        self.guarded(self.refresh)

    def refresh(self, force: bool = False) -> None:
        store = self.store
        call = store.calls.get(self.state.call)
        if call is None or call["method"] not in JACOBIAN_METHODS or not call.get("results"):
            call = next((c for c in reversed(store.calls.values())
                         if c["method"] in JACOBIAN_METHODS and c.get("results")), None)
        key = (call or {}).get("id"), len((call or {}).get("results") or [])
        if key == self._shown:
            return
        self._shown = key
        if call is None:
            # the same pane each time: new panes are new models for the page to build
            if self.col.objects != [self._none]:
                self.col.objects = [self._none]
            return
        objs = [pn.pane.HTML(f"<b>{esc(call['method'])}</b> (call {esc(call['id'])}, "
                             f"tape {esc(call['tape'])})")]
        tshape = (call["targets"][0].get("shape") if call["targets"] else []) or []
        for r in call["results"]:
            ref = r.get("tensor") or {}
            name = store.tensor_name(ref.get("id"), ref.get("name", "?"))
            g = clip_summary(r.get("grad"))
            if not g or "value" not in g:
                objs.append(pn.pane.HTML(f"{esc(name)}: " + (
                    "None" if not g else "too large to show (only a summary was recorded)")))
                continue
            objs.append(pn.pane.HTML(f"∂target/∂{esc(name)} &nbsp;"
                                     f"<span class=\"tv-small\">{esc(list(g.get('shape') or []))}"
                                     "</span>", margin=(10, 10, 0, 10)))
            objs.append(heatmap(jacobian_matrix(g, tshape)))
        self.col.objects = objs


def jacobian_matrix(grad: dict, target_shape) -> np.ndarray:
    """A Jacobian's recorded value as a matrix: one row per target element (when its size
    divides the value's, else one row)."""
    vals = np.array([_num(v) for v in _flat(grad["value"])], dtype=float)
    n_t = int(np.prod(target_shape)) if target_shape else 1
    if n_t < 1 or vals.size % n_t:
        n_t = 1
    return vals.reshape(n_t, -1)


def heatmap(mat: np.ndarray):
    """One rect per cell (row 0 at the top), coloured on a range symmetric about 0 from the
    largest finite magnitude (1 when there is none or it is 0, so an all-zero or all-NaN
    Jacobian still draws its cells); NaN cells purple, Inf ones at the palette's ends."""
    finite = np.abs(mat[np.isfinite(mat)])
    hi = float(finite.max()) if finite.size and finite.max() > 0 else 1.0
    rows, cols = mat.shape
    r, c = np.divmod(np.arange(mat.size), cols)
    src = ColumnDataSource({"x": c + 0.5, "y": r + 0.5, "row": r, "col": c,
                            "value": mat.ravel()}, name="jacobian_cells")
    cell = max(12, min(48, 480 // max(rows, cols)))
    fig = figure(height=70 + cell * rows, width=150 + cell * cols, x_range=(0, cols),
                 y_range=(rows, 0), tools="reset,save", name="jacobian", toolbar_location="above",
                 x_axis_label="source element", y_axis_label="target element")
    fig.toolbar.logo = None
    for axis, n in ((fig.xaxis, cols), (fig.yaxis, rows)):     # a tick per cell, at its middle
        step = max(1, n // 12)
        axis.ticker = FixedTicker(ticks=[i + 0.5 for i in range(0, n, step)])
        axis.major_label_overrides = {i + 0.5: str(i) for i in range(0, n, step)}
        axis.minor_tick_line_color = None
    mapper = LinearColorMapper(palette=list(reversed(RdBu11)), low=-hi, high=hi,
                               nan_color="#9467bd")
    cells = fig.rect("x", "y", 1, 1, source=src, line_color=None,
                     fill_color={"field": "value", "transform": mapper})
    fig.add_tools(HoverTool(renderers=[cells], tooltips=[("row", "@row"), ("col", "@col"),
                                                         ("value", "@value")]))
    fig.grid.visible = False
    fig.add_layout(ColorBar(color_mapper=mapper, width=8), "right")
    return pn.pane.Bokeh(fig)
