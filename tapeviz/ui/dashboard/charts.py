"""The Training tab: the gradient norm of every variable over the gradient calls, and the
scalars a script reports (``tv.events.log_scalar``), drawn so that a broken run shows what
broke. A NaN, Inf, ``None`` or all-zero gradient and a non-finite scalar cannot sit on a log
(or any) axis: each gets a marker in a band under its plot, one shape per state, with a
count per state in the band's legend. Every variable is drawn, grouped by layer (one colour
per layer, one dash per variable in it), with a legend beside the plot (a click hides a
line) and, past ``PICKER_ABOVE`` variables, a picker. Scalars that differ in their last word
(``loss``, ``accuracy``) get plots of their own, so each has its own axis. A smoothing slider
draws an exponential moving average over the raw points. The plots themselves are Bokeh
alone (:mod:`tapeviz.ui.render.chart_plots`, which the exported page draws too); this module adds
the Panel widgets around them.

The Jacobian tab is :mod:`tapeviz.ui.dashboard.jacobian_view`.
"""
from __future__ import annotations

import panel as pn
import param

from ..render.chart_plots import NormPlots, ScalarPlots
from ..store.chart_series import BAND_LABEL, variable_group, variable_name
from ..store.flight_calls import call_text
from ..render.html import esc
from .state import Component

LOADING = '<span class="tv-small">Loading the charts…</span>'
EMPTY = "<i>No gradient calls and no reported scalars yet.</i>"
PICKER_ABOVE = 12        # more variables than this: a picker to show some of them
LAYER = "layer:"         # a picker value that stands for all the variables of a layer


class TrainingCharts(Component):
    """The Training tab: the widgets (log scale, smoothing, picker, notes) around the plots of
    :mod:`tapeviz.ui.render.chart_plots`. Clicking a point shows that gradient call and its tape, or
    says that the tape is no longer kept; a legend click hides a variable on both scales and
    in the band. Hidden, the charts wait (``lazy``): redrawing thousands of points a second in
    a tab nobody looks at kept the browser busy for most of a second while a fast run
    streamed."""

    label = "Training"
    area = "bottom"
    lazy = True

    def __init__(self, state, plot, **params):
        super().__init__(state, plot, **params)
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
        self.norms: NormPlots | None = None
        self.scalars: ScalarPlots | None = None
        self._sig = None
        self.log.param.watch(lambda e: self._show_scale(), "value")
        self.smooth.param.watch(lambda e: self._fill(), "value")
        self.pick.param.watch(lambda e: self._apply_visibility(), "value")

    def body(self) -> list:
        return [self.col]

    @property
    def vars(self) -> dict:
        return self.norms.vars if self.norms is not None else {}

    @property
    def norm_figs(self) -> dict:
        return self.norms.figs if self.norms is not None else {}

    def reset(self):
        """Forget the charts of the run shown before: the next update builds them afresh."""
        self._sig = None
        self.info.object = LOADING
        self.note.visible = False
        self.pick.param.update(options=[], value=[], visible=False)
        if self.built:            # (re-laying out the column costs a model walk)
            self.built = False
            self.col.objects = self.col.objects[:2]

    def _build(self):
        self.built = True
        self.hidden: set = set()      # hidden with a click on the legend
        self.norms = NormPlots(on_tap=self.open_call, on_legend=self._legend_toggled)
        self.scalars = None           # built with the first reported scalar
        self._panes: list = []        # the plots' panes, put in the page once filled

    def _attach(self, layout):
        """Put a filled plot in the page (in one message, not one per glyph)."""
        pane = pn.pane.Bokeh(layout, sizing_mode="stretch_width")
        self._panes.append(layout)
        self.col.append(pane)

    # ---- updating ------------------------------------------------------------------------
    def refresh(self, force: bool = False) -> None:
        store = self.store
        hist = store.history
        sig = (len(hist), hist[-1]["call"] if hist else None, len(store.scalars),
               sum(len(v) for v in store.scalars.values()))
        if sig == self._sig:
            return
        self._sig = sig
        if not hist and not store.scalars:
            self.info.object = EMPTY
            return
        # every change of this refresh goes to the browser as one message, and the plots
        # enter the page only once filled: added to a plot already shown, each of the 60
        # glyphs, sources and legend changes of a 141-call, 11-variable run was a message
        # and a re-layout of its own (tens of seconds of browser time)
        with pn.io.hold():
            if not self.built:
                self._build()
            calls = self.norms.set_rows(hist)
            self._update_picker()
            if store.scalars and self.scalars is None:
                self.scalars = ScalarPlots()
            self._fill()
            self._apply_visibility()
            self._show_scale()
            for layout in (self.norms.layout, self.scalars and self.scalars.layout):
                if layout is not None and layout not in self._panes:
                    self._attach(layout)
            self._calls = len(calls)
            self._update_info()

    def _update_picker(self):
        names = list(self.vars)
        groups = list(dict.fromkeys(variable_group(n) for n in names))
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
        self.norms.fill(self.smooth.value)
        if self.scalars is not None:
            self.scalars.fill(self.store.scalars, self.smooth.value)

    def _listed(self) -> list:
        """The variables picked (a variable or its layer), all when none is."""
        picked = set(self.pick.value)
        return [n for n in self.vars
                if not picked or n in picked or LAYER + variable_group(n) in picked]

    def _shown(self) -> list:
        return [n for n in self._listed() if n not in self.hidden]

    def _apply_visibility(self):
        """Lines, legend entries and band points of the picked variables not hidden."""
        if self.built:
            self.norms.show(self._listed(), self.hidden)
            self.counts = self.norms.counts

    def _legend_toggled(self, name, visible):
        if visible:
            self.hidden.discard(name)
        else:
            self.hidden.add(name)
        self._apply_visibility()      # the other scale's lines and the band follow
        self._update_info()

    def _show_scale(self):
        if self.built:
            self.norms.set_scale(self.log.value)
            if self.scalars is not None:
                self.scalars.set_scale(self.log.value)

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
    def open_call(self, call_id):
        """Show gradient call ``call_id`` and its tape, or say why it cannot be shown."""
        store = self.store
        call = store.calls.get(call_id)
        tape = call["tape"] if call else next((h["tape"] for h in store.history
                                               if h["call"] == call_id), None)
        if call is None or tape not in store.tapes:
            # a flight recording kept most calls as summaries: say so, as the timeline does
            # (holding more tapes would not bring them back)
            row = store.flight.by_call(call_id)
            self.note.object = esc(call_text(row, False) if row is not None else
                f"Gradient call {call_id} (tape {tape}) is not held: this view holds "
                f"{store.max_tapes} tapes, the run's story first (its first calls, the calls "
                "where a gradient turned NaN, Inf, None or zero, jumps and their lead-up), then "
                "the newest; its norms stay in the chart. Open the recording with "
                "--keep-tapes N to hold more.")
            self.note.visible = True
            return
        self.note.visible = False
        self.state.show_call(call_id)

    @param.depends("state.call", watch=True)
    def _on_call(self):
        self.note.visible = False      # what it said was about the click, not this call
