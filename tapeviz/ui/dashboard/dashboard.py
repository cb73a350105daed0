"""The dashboard: the op graph, the inspector, watched variables, the backward player, the
explanations and the training charts of a run, as one Panel :class:`Dashboard` viewer.

It reads an event source (see :mod:`tapeviz.ui.store.source`) into a :class:`~tapeviz.ui.store.store.Store`
and draws from the store only. This module builds the page, loads a run and keeps which tape
and gradient call are shown; the rest of :class:`Dashboard` is mixed in from
:mod:`~tapeviz.ui.dashboard.live` (following a live source without flooding the browser),
:mod:`~tapeviz.ui.dashboard.graph_pane` (the graph pane), :mod:`~tapeviz.ui.dashboard.tabs`
(the inspector, variables and backward tabs) and :mod:`~tapeviz.ui.dashboard.why` (the why
tab).
"""
from __future__ import annotations

import contextlib
import time
import traceback

import panel as pn
import param

from ..compat import skip_mathjax, skip_webgl
from .graph_pane import GraphPane
from .live import LiveFollowing, _weakly
from .tabs import SelectionTabs, html_pane
from .why import WhyCards
from ..graph.plot import GraphView
from ..render.html import esc
from .page_ack import PageAck
from .player_buttons import player_buttons
from ..store.store import Store

skip_mathjax()      # every page and notebook output with a dashboard imports this module
skip_webgl()        # (server pages only)


class _Guard:
    """Runs a view's update; an exception shows an error in that view only."""

    def __init__(self, name):
        self.name = name
        self.alert = pn.pane.Alert("", alert_type="danger", visible=False,
                                   sizing_mode="stretch_width")

    def __call__(self, fn, *args, **kw):
        try:
            out = fn(*args, **kw)
        except Exception as exc:   # one broken view must not blank the page
            self.alert.object = (f"The {self.name} view failed: "
                                 f"{type(exc).__name__}: {exc}").replace("<", "&lt;")
            self.alert.visible = True
            traceback.print_exc()
            return None
        if self.alert.visible:
            self.alert.visible = False
        return out


class Dashboard(LiveFollowing, GraphPane, SelectionTabs, WhyCards, pn.viewable.Viewer):
    """The full dashboard over an event source, a list of events, a recording path or a tape.

    >>> import tapeviz.ui as ui
    >>> d = ui.Dashboard([], title="empty")     # doctest: +SKIP
    """

    title = param.String(default="tapeviz")
    tape = param.Parameter(default=None, doc="id of the shown tape")
    call = param.Parameter(default=None, doc="id of the shown gradient call")
    step = param.Integer(default=0, bounds=(0, None), doc="backward step shown by the player")
    period = param.Integer(default=100, doc="ms between polls of a live source")

    def __init__(self, source=None, title: str = "tapeviz", follow: bool = False,
                 max_tapes: int = 50, max_calls: int = 200, height: int = 600,
                 store: Store | None = None, **params):
        super().__init__(title=title, **params)
        # (a store that already ingested a finished run is read only here: tabs may share
        # it, as they share a followed file's feed)
        self.feed = self._feed_for(source, follow, store, max_tapes, max_calls)
        self.store = self.feed.store
        self.graph = GraphView(height=height)
        self.page_ack = PageAck(self.graph.figure)    # how far the page is behind (live)
        self._callback = None
        self._setting_options = False
        self._view_updates = 0
        self._reset_state()
        self._guards = {n: _Guard(n) for n in ("graph", "inspector", "variables", "backward",
                                                "why", "training", "jacobian")}
        self._build()
        self.graph.param.watch(self._on_select, "selected")
        self.graph.param.watch(self._on_box_clicked, "box_clicked")
        self.graph.param.watch(self._on_group_clicked, "selected")
        self._watch_interactions()
        with self._updating_views():
            self._fill()
        # (weakly: Panel keeps the onload callbacks of a document that may never load, and
        # a view kept alive by them keeps its source's event subscription on for ever)
        pn.state.onload(_weakly(self.graph.fit))       # once the page has its real size
        if not self._source_done():
            pn.state.onload(_weakly(self._start_polling))
        else:
            self._mark_ended()

    def _reset_state(self):
        self._pinned = False          # the user chose a tape: stop following the latest
        self._drawn_graph = None
        self._last_draw = self._last_refresh = 0.0
        self._layout_took = self._refresh_took = 0.0     # seconds (see LiveFollowing)
        self._layout_for_user = False
        self._refreshed_version = None
        self._behind_shown = 0
        self._ended_shown = False
        self._cut_source = None
        self.expanded = frozenset()
        self.closed = frozenset()     # groups of a small graph the user closed
        self._shown = None
        self._lines = {}
        self._layout_token = None     # a layout still running for the old graph is dropped
        self._pending_select = None
        self.layout_busy = False
        self._why_key = None          # ids of the old run's objects may be reused

    def load(self, source, title: str | None = None, follow: bool = False,
             store: Store | None = None) -> None:
        """Show another run in this dashboard. The widgets and Bokeh models stay and get the
        new run's data (a page already showing them gets no new models), and nothing of the
        old run is kept: store, selection, expanded groups, player step, highlights, cards,
        charts. ``store``: one that already ingested a finished run (read only here, so
        sessions may share it); ``source`` is then None. ``source`` may be a
        :class:`~tapeviz.ui.serve.live_feed.Feed` (a followed file shared by tabs)."""
        feed = self._feed_for(source, follow, store, self.store.max_tapes,
                              self.store.max_calls)      # may raise: the old run stays
        if self._callback is not None:
            self._callback.stop()
            self._callback = None
        if feed is not self.feed:
            feed.watch(self)
        self.feed, self.store = feed, feed.store
        self._reset_state()
        if title:
            self.title = title
        with self.graph.held(), self._updating_views():    # one message to the page
            for guard in self._guards.values():
                guard.alert.visible = False
            self.tape = self.call = None
            self.graph.select("")
            self.graph.clear_highlights()
            self.player.value = 0
            self.search.value = ""
            self.line_select.value = ""
            self.variables.selection = []
            self.training.reset()
            self.jacobian.reset()
            self._fill()
            if self._drawn_graph is None or self.layout_busy:
                self.graph.clear()    # not the old run's graph while the new one is laid out
            if self._source_done():
                self._mark_ended()
        if not self._source_done():
            self._start_polling()

    # ---- layout ----------------------------------------------------------------------------
    def _build(self):
        self.tape_select = pn.widgets.Select(label="Tape", options={}, width=180)
        self.call_select = pn.widgets.Select(label="Gradient call", options={}, width=260)
        # (restrict=False: Enter finds what was typed, not only a picked completion)
        self.search = pn.widgets.AutocompleteInput(label="Find node", options=[], width=200,
                                                   case_sensitive=False, search_strategy="includes",
                                                   min_characters=1, placeholder="name or op",
                                                   restrict=False)
        self.fit_button = pn.widgets.Button(label="Fit", width=60, align="end")
        self.status = html_pane('<span class="tv-small">loading…</span>',
                                css_classes=["tv-status"])
        self.expand_button = pn.widgets.Button(label="Expand group", width=120, visible=False)
        self.collapse_button = pn.widgets.Button(label="Collapse all", width=110, visible=False,
                                                 align="end")
        self.expand_note = html_pane("", visible=False)
        self.expand_button.on_click(lambda e: self._expand_selected())
        self.collapse_button.on_click(self.collapse_all)
        self.line_select = pn.widgets.Select(label="Nodes created by line", options=[""],
                                             sizing_mode="stretch_width")
        self.line_select.param.watch(self._on_line, "value")
        self.tape_select.param.watch(self._on_tape_select, "value")
        self.call_select.param.watch(self._on_call_select, "value")
        self.search.param.watch(self._on_search, "value")
        self.fit_button.on_click(self._fit)

        self.inspector = html_pane("<i>Click a node of the graph to inspect it.</i>",
                               css_classes=["tv-inspector"])
        self.player = pn.widgets.Player(start=0, end=1, value=0, interval=700, loop_policy="once",
                                        show_loop_controls=False, width=330, visible=True,
                                        visible_buttons=[], css_classes=["tv-player"])
        self.player_buttons = player_buttons(self.player)
        self.player.param.watch(lambda e: setattr(self, "step", int(e.new)), "value")
        self.bp_nan = pn.widgets.Button(label="▶ first NaN/Inf", width=125,
                                        description="run to the first step with a NaN or Inf")
        self.bp_zero = pn.widgets.Button(label="▶ first zero grad", width=135,
                                         description="run to the first all-zero gradient")
        self.bp_node = pn.widgets.Button(label="▶ selected node", width=130,
                                         description="run to the step of the selected node")
        self.bp_nan.on_click(lambda e: self._breakpoint("nan"))
        self.bp_zero.on_click(lambda e: self._breakpoint("zero"))
        self.bp_node.on_click(lambda e: self._breakpoint("node"))
        self.step_view = html_pane("<i>No gradient call on this tape yet.</i>",
                                   css_classes=["tv-step"])
        self._build_why()
        self.variables = pn.widgets.Tabulator(
            self._variables_frame(), disabled=True, selectable=1, show_index=False,
            sizing_mode="stretch_width", height=260, layout="fit_data_stretch",
            css_classes=["tv-variables"])
        self.variables.param.watch(self._on_variable_row, "selection")
        from .charts import TrainingCharts, JacobianView
        self.training = TrainingCharts(self)
        self.jacobian = JacobianView(self)

        g = self._guards
        # each side tab as tall as its content, and at most as tall as the graph (it scrolls
        # inside): a tall Why tab never pushes the variables and charts down the page. Not
        # dynamic: Panel 1.9 gives a tab rendered late a stylesheet link to its CDN
        # (dist/css/loading.css), which an offline page cannot load
        tab = dict(sizing_mode="stretch_width", styles={
            "max-height": f"{self.graph.figure.height + 40}px", "overflow-y": "auto"})
        side = pn.Tabs(
            ("Inspector", pn.Column(g["inspector"].alert, self.expand_button, self.inspector,
                                    self.line_select, **tab)),
            ("Backward", pn.Column(g["backward"].alert, self.player, self.player_buttons,
                                   pn.Row(self.bp_nan, self.bp_zero, self.bp_node),
                                   self.step_view, **tab)),
            ("Why", pn.Column(g["why"].alert, self.why, **tab)),
            width=440, dynamic=False, css_classes=["tv-side"])
        self.side = side
        graph_pane = pn.pane.Bokeh(self.graph.figure, sizing_mode="stretch_width")
        bottom = pn.Tabs(
            ("Variables", pn.Column(g["variables"].alert, self.variables, sizing_mode="stretch_width")),
            ("Training", pn.Column(g["training"].alert, self.training.panel(), sizing_mode="stretch_width")),
            ("Jacobian", pn.Column(g["jacobian"].alert, self.jacobian.panel(), sizing_mode="stretch_width")),
            sizing_mode="stretch_width", dynamic=False)
        self._layout = pn.Column(
            pn.Row(self.tape_select, self.call_select, self.search, self.fit_button,
                   self.collapse_button, sizing_mode="stretch_width"),
            self.status, self.expand_note,
            pn.Row(pn.Column(g["graph"].alert, graph_pane, sizing_mode="stretch_width"), side,
                   sizing_mode="stretch_width"),
            bottom, sizing_mode="stretch_width", css_classes=["tv-dashboard"])
        self.bottom = bottom
        bottom.param.watch(self._on_bottom_tab, "active")

    def __panel__(self):
        return self._layout

    # ---- views ------------------------------------------------------------------------------
    def refresh(self, force=False):
        """Update every view from the store (throttled graph re-layout while live)."""
        with self._updating_views():
            start = self._last_refresh = time.monotonic()
            self._refreshed_version = self.store.version
            self._refresh(force)
            self._refresh_took = time.monotonic() - start

    def _refresh(self, force):
        self._update_selectors()
        self._update_graph(force=force)
        self._guards["variables"](self._update_variables)
        if self.bottom.active == self.TRAINING_TAB:
            # hidden, the charts wait: redrawing thousands of points a second in a tab nobody
            # looks at kept the browser busy for most of a second while a fast run streamed
            self._guards["training"](self.training.update)
        self._guards["jacobian"](self.jacobian.update)
        self._update_status()

    TRAINING_TAB = 1

    def _on_bottom_tab(self, event):
        if event.new == self.TRAINING_TAB:
            self._guards["training"](self.training.update)

    def _update_status(self):
        s = self.store
        parts = [f"{s.n_events} events", f"{len(s.tapes)} tape(s)", f"{len(s.calls)} gradient call(s)"]
        live = not self._source_done()
        # a tape's own view polls on after its `with` block, for the calls it may yet answer,
        # but only a tape still recording is live
        finished_tape = live and getattr(self.source, "recording", True) is False
        state = ('<span class="tv-badge tv-ended" style="background:#eee" title="its with '
                 'block has exited; gradient calls it answers still show here">tape '
                 'finished</span>' if finished_tape else
                 '<span class="tv-badge" style="background:#d4edda">live</span>' if live else
                 '<span class="tv-badge tv-ended" style="background:#eee">stream ended</span>'
                 if self._callback is not None or self._ended_shown else "")
        warns = getattr(self.source, "warnings", None) or self.store.warnings
        lay = self.graph.layout
        extra = ""
        if self.layout_busy:
            extra += ' <span class="tv-badge tv-busy">laying out the graph…</span>'
        if lay is not None and lay.error:
            extra += f' <span class="tv-err">layout: {esc(lay.error)} (simple layout used)</span>'
        if live:
            extra += self._behind_badge()
        if warns:
            extra += f' <span class="tv-err">{esc(len(warns))} recording warning(s): {esc(warns[-1])}</span>'
        reason = getattr(self.source, "reason", None)
        if not live and reason and reason != "closed":
            extra += f' <span class="tv-small">({esc(reason)})</span>'
        self.status.object = (f'<span class="tv-small"><b>{esc(self.title)}</b> · '
                              f'{esc(" · ".join(parts))}</span> {state}{extra}')

    # ---- selectors -------------------------------------------------------------------------
    def _update_selectors(self):
        s = self.store
        opts = {}
        for tid in s.tape_ids():
            t = s.tapes[tid]
            label = f"tape {tid}"
            if t["outer_tapes"]:
                label += f" (inside {', '.join(str(o) for o in t['outer_tapes'])})"
            label += f" · {len(t['nodes'])} ops"
            opts[label] = tid
        want = self.tape
        if want not in s.tapes or (not self._pinned and want != s.latest_tape()):
            want = s.latest_tape()
        if opts != self.tape_select.options:
            with self._not_the_user():
                self.tape_select.param.update(options=opts, value=want)
        if want != self.tape:
            self._set_tape(want)
        self._update_call_options()

    @contextlib.contextmanager
    def _not_the_user(self):
        """Selector changes made here are not the user's pick: Panel moves a Select's value to
        its first option when new options lack it, and taken for a pick, that would pin a live
        view to its first tape or to the oldest one kept."""
        self._setting_options = True
        try:
            yield
        finally:
            self._setting_options = False

    def _update_call_options(self):
        s = self.store
        opts = {}
        for cid in s.calls_for(self.tape):
            c = s.calls[cid]
            names = ", ".join(s.tensor_name(r.get("id"), r.get("name", "")) for r in c["sources"][:3])
            opts[f"call {cid}: {c['method']}({names})"[:80]] = cid
        if opts != self.call_select.options:
            keep = self.call if self.call in opts.values() else None
            with self._not_the_user():
                self.call_select.param.update(options=opts, value=keep)
        if self.call not in opts.values():
            self.call = list(opts.values())[-1] if opts else None
            self._on_call_changed()
        if self.call_select.value != self.call:
            self.call_select.value = self.call

    def _set_tape(self, tid):
        self.tape = tid
        if self.tape_select.value != tid:
            self.tape_select.value = tid

    def _on_tape_select(self, event):
        if self._setting_options or event.new is None or event.new == self.tape:
            return
        self._pinned = True
        self.tape = event.new
        self._update_call_options()
        self._update_graph(force=True)

    def _on_call_select(self, event):
        if self._setting_options or event.new is None or event.new == self.call:
            return
        self.call = event.new
        self._on_call_changed()

    def select_call(self, call_id):
        """Show a gradient call and its tape (used by the training chart)."""
        c = self.store.calls.get(call_id)
        if c is None:
            return
        if c["tape"] in self.store.tapes and c["tape"] != self.tape:
            self._pinned = True
            self._set_tape(c["tape"])
            self._update_call_options()
            self._update_graph(force=True)
        self.call = call_id
        self.call_select.value = call_id
        self._on_call_changed()

    # (here, not with the player in dashboard_tabs: param watches only the methods of a
    # Parameterized class, and the mixins are plain classes)
    @param.depends("step", watch=True)
    def _on_step(self):
        self._guards["backward"](self._show_step)
