"""Two runs on one graph: ``tapeviz serve a.tvz --compare b.tvz``, and the folder view's
*Compare with* picker (:mod:`tapeviz.ui.serve.compare_picker`).

A :class:`CompareView` is a :class:`~tapeviz.ui.dashboard.dashboard.Dashboard` of run a over a
:class:`~tapeviz.ui.store.compare_store.CompareStore`, with around it: a toggle that colours the
graph by the relative difference of forward values or of gradients, the first divergence
(its op and source line on both sides, outlined on the graph, a button that shows it), a
comparison section at the top of the inspector (both values and their difference), and the
Training tab drawing both runs with the point where they part. Everything comes from the
diff the store holds (:func:`tapeviz.rundiff.compare_runs`).
"""
from __future__ import annotations

import os

import panel as pn
import param

from ..render.compare_cards import detail_html, first_html, legend_html
from ..render.compare_charts import overlay_charts
from ..render.html import esc
from ..store.compare_store import FIRST, MODES, comparison_for
from .dashboard import Dashboard
from .state import html_pane

DIVERGENCE = "divergence"        # the graph's highlight role of the first divergence


class CompareView(pn.viewable.Viewer):
    """The compare page's body over a :class:`CompareStore` (one per session; the store is
    shared)."""

    mode = param.Selector(default="forward", objects=list(MODES))

    def __init__(self, store, title: str = "tapeviz · compare", height: int = 600, **params):
        super().__init__(**params)
        self.store = store
        self.dashboard = dash = Dashboard(None, title=title, store=store, height=height)
        self.graph = dash.plot
        self.graph.lasting.add(DIVERGENCE)
        self.graph.use_fill("fill_forward")
        # the fills say how much a node differs, not its kind: the kinds' legend would
        # mislead (the compare legend above the graph replaces it)
        for legend in self.graph.figure.legend:
            legend.visible = False
        self.toggle = pn.widgets.RadioButtonGroup(
            options={v: k for k, v in MODES.items()}, value="forward",
            css_classes=["tv-compare-mode"])
        self.toggle.param.watch(lambda e: setattr(self, "mode", e.new), "value")
        self.show_first = pn.widgets.Button(label="Show first divergence", width=170,
                                            css_classes=["tv-compare-show"])
        self.show_first.on_click(lambda e: self.reveal_first())
        self.legend = html_pane(legend_html("forward"), css_classes=["tv-compare-legend"])
        self.first = html_pane(first_html(store), css_classes=["tv-compare-banner"])
        self.detail = html_pane("", css_classes=["tv-compare-detail"])
        # the comparison above the inspector's own view of run a's node
        dash.parts["Inspector"].panel().insert(2, self.detail)
        charts = overlay_charts(store, store.history_b, store.scalars_b)
        dash.parts["Training"].panel().objects = [
            pn.pane.Bokeh(charts, sizing_mode="stretch_width") if charts is not None else
            html_pane("<i>Neither run has gradient calls or reported scalars.</i>")]
        self.graph.param.watch(self._on_select, "selected")
        dash.state.param.watch(lambda e: self._on_select(), "tape")
        self._mark_first()
        self._layout = pn.Column(
            pn.Row(self.toggle, self.show_first, self.legend, sizing_mode="stretch_width"),
            self.first, dash, sizing_mode="stretch_width", css_classes=["tv-compare"])

    def __panel__(self):
        return self._layout

    @param.depends("mode", watch=True)
    def _on_mode(self):
        if self.toggle.value != self.mode:
            self.toggle.value = self.mode
        with self.graph.held():
            self.graph.use_fill(f"fill_{self.mode}")
            self.legend.object = legend_html(self.mode)
            self._mark_first()

    def _first_key(self):
        return self.store.first_keys().get(self.mode)

    def _mark_first(self):
        key = self._first_key()
        self.graph.highlight(DIVERGENCE, self._outline_keys(key) if key else [], color=FIRST)

    def _outline_keys(self, key) -> list:
        """``key`` and the keys of the collapsed groups that may hold it on a large graph
        (each scope around it, the block it is drawn in): the outline is drawn on whichever
        of them is shown, now and after a group is opened or closed."""
        tape = self.store.focus_tape
        if tape is None:
            tape = self.dashboard.state.tape
        node = next((n for n in self.store.graph(tape)["nodes"] if n["key"] == key), None)
        parts = str((node or {}).get("scope") or "").split("/")
        keys = [key] + [f"grp:scope:{'/'.join(parts[:d])}" for d in range(1, len(parts) + 1)
                        if parts[0]]
        group = ((self.graph.graph or {}).get("gmap") or {}).get(key)
        return keys + ([f"grp:{group}"] if group and f"grp:{group}" not in keys else [])

    def reveal_first(self):
        """Show the tape of the first divergence and select it (its inspector opens)."""
        key, tape = self._first_key(), self.store.focus_tape
        if key is None:
            return
        if tape is not None and tape != self.dashboard.state.tape:
            self.dashboard.state.param.update(pinned=True, tape=tape)
        if key in self.graph.index:
            self.graph.select(key)
            self.graph.zoom_to(key)
            self.graph.reveal()

    def _on_select(self, event=None):
        node = self.graph.node(self.graph.selected) if self.graph.selected else None
        try:
            self.detail.object = detail_html(self.store, node, self.dashboard.state.tape)
        except Exception as exc:       # one broken section must not blank the inspector
            self.detail.object = (f'<div class="tv-err">The comparison failed: '
                                  f'{esc(type(exc).__name__)}: {esc(exc)}</div>')


def compare_dashboard(path_a, path_b, title: str | None = None, **options) -> CompareView:
    """A session's :class:`CompareView` of two recording files; ``options`` as
    :func:`tapeviz.diff` takes them (tapes or calls on each side, tolerances)."""
    store = comparison_for(path_a, path_b, **options)
    title = title or (f"tapeviz · {os.path.basename(str(path_a))} vs "
                      f"{os.path.basename(str(path_b))}")
    return CompareView(store, title=title)

