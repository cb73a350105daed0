"""The dashboard: the op graph, the inspector, watched variables, the backward player, the
explanations and the training charts of a run, as one Panel :class:`Dashboard` viewer.

It reads an event source (see :mod:`tapeviz.ui.source`) into a :class:`~tapeviz.ui.store.Store`
and draws from the store only. A live source is drained by a periodic callback, in batches,
inside ``pn.io.hold()``, so a fast producer never floods the browser.
"""
from __future__ import annotations

import inspect
import os
import threading
import time
import traceback
import weakref
from functools import partial

import panel as pn
import param

from . import compose, skip_mathjax
from .cards import gradient_html, node_html, why_card_html
from .graph import GraphView
from .html import CSS, esc
from .source import as_source
from .steps import breakpoint_step, step_html, step_keys
from .store import Store

THREAD_LAYOUT_ABOVE = 150      # nodes: larger uncached layouts run in a thread (served apps)

skip_mathjax()      # every page and notebook output with a dashboard imports this module


def _html(text="", **kw):
    return pn.pane.HTML(text, stylesheets=[CSS], sizing_mode="stretch_width", **kw)


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


class Dashboard(pn.viewable.Viewer):
    """The full dashboard over an event source, a list of events, a recording path or a tape.

    >>> import tapeviz.ui as ui
    >>> d = ui.Dashboard([], title="empty")     # doctest: +SKIP
    """

    title = param.String(default="tapeviz")
    tape = param.Parameter(default=None, doc="id of the shown tape")
    call = param.Parameter(default=None, doc="id of the shown gradient call")
    step = param.Integer(default=0, bounds=(0, None), doc="backward step shown by the player")
    period = param.Integer(default=300, doc="ms between polls of a live source")

    def __init__(self, source=None, title: str = "tapeviz", follow: bool = False,
                 max_tapes: int = 50, max_calls: int = 200, height: int = 520, **params):
        super().__init__(title=title, **params)
        self.source = as_source(source, follow_live=follow)
        self.store = Store(max_tapes=max_tapes, max_calls=max_calls)
        self.graph = GraphView(height=height)
        self._callback = None
        self._reset_state()
        self._guards = {n: _Guard(n) for n in ("graph", "inspector", "variables", "backward",
                                                "why", "training", "jacobian")}
        self._build()
        self.graph.param.watch(self._on_select, "selected")
        self._drain(limit=None if getattr(self.source, "ended", False) else 50_000)
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
        self._ended_shown = False
        self._cut_source = None
        self.expanded = frozenset()
        self._shown = None
        self._lines = {}
        self._layout_token = None     # a layout still running for the old graph is dropped
        self._pending_select = None
        self._sliced = None
        self.layout_busy = False
        self._why_key = None          # ids of the old run's objects may be reused

    def load(self, source, title: str | None = None, follow: bool = False,
             store: Store | None = None) -> None:
        """Show another run in this dashboard. The widgets and Bokeh models stay and get the
        new run's data (a page already showing them gets no new models), and nothing of the
        old run is kept: store, selection, expanded groups, player step, highlights, cards,
        charts. ``store``: one that already ingested a finished run (read only here, so
        sessions may share it); ``source`` is then None."""
        new_source = as_source(source, follow_live=follow)   # may raise: the old run stays
        if self._callback is not None:
            self._callback.stop()
            self._callback = None
        self.source = new_source
        self.store = store if store is not None else Store(max_tapes=self.store.max_tapes,
                                                           max_calls=self.store.max_calls)
        self._reset_state()
        if title:
            self.title = title
        with self.graph.held():       # one message to the page (one per event otherwise)
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
            self._drain(limit=None if self._source_done() else 50_000)
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
        self.search = pn.widgets.AutocompleteInput(label="Find node", options=[], width=200,
                                                   case_sensitive=False, search_strategy="includes",
                                                   min_characters=1, placeholder="name or op")
        self.fit_button = pn.widgets.Button(label="Fit", width=60, align="end")
        self.status = _html('<span class="tv-small">loading…</span>', css_classes=["tv-status"])
        self.expand_button = pn.widgets.Button(label="Expand group", width=120, visible=False)
        self.collapse_button = pn.widgets.Button(label="Collapse all", width=110, visible=False,
                                                 align="end")
        self.expand_note = _html("", visible=False)
        self.expand_button.on_click(lambda e: self._expand_selected())
        self.collapse_button.on_click(self.collapse_all)
        self.line_select = pn.widgets.Select(label="Nodes created by line", options=[""],
                                             sizing_mode="stretch_width")
        self.line_select.param.watch(self._on_line, "value")
        self.tape_select.param.watch(self._on_tape_select, "value")
        self.call_select.param.watch(self._on_call_select, "value")
        self.search.param.watch(self._on_search, "value")
        self.fit_button.on_click(self._fit)

        self.inspector = _html("<i>Click a node of the graph to inspect it.</i>",
                               css_classes=["tv-inspector"])
        self.player = pn.widgets.Player(start=0, end=1, value=0, interval=700, loop_policy="once",
                                        show_loop_controls=False, width=330, visible=True,
                                        css_classes=["tv-player"])
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
        self.step_view = _html("<i>No gradient call on this tape yet.</i>", css_classes=["tv-step"])
        self.why_note = _html("<i>No gradient call on this tape yet.</i>")
        self.why = pn.Column(self.why_note, sizing_mode="stretch_width", css_classes=["tv-why"])
        self._cards: list = []
        self._why_results: list = []
        self.variables = pn.widgets.Tabulator(
            self._variables_frame(), disabled=True, selectable=1, show_index=False,
            sizing_mode="stretch_width", height=260, layout="fit_data_stretch",
            css_classes=["tv-variables"])
        self.variables.param.watch(self._on_variable_row, "selection")
        from .charts import TrainingCharts, JacobianView
        self.training = TrainingCharts(self)
        self.jacobian = JacobianView(self)

        g = self._guards
        side = pn.Tabs(
            ("Inspector", pn.Column(g["inspector"].alert, self.expand_button, self.inspector,
                                    self.line_select, sizing_mode="stretch_width")),
            ("Backward", pn.Column(g["backward"].alert, self.player,
                                   pn.Row(self.bp_nan, self.bp_zero, self.bp_node),
                                   self.step_view, sizing_mode="stretch_width")),
            ("Why", pn.Column(g["why"].alert, self.why, sizing_mode="stretch_width")),
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

    # ---- live source -----------------------------------------------------------------------
    def _source_done(self) -> bool:
        return bool(getattr(self.source, "ended", False))

    def _start_polling(self):
        if self._callback is None and not self._source_done():
            # the callback holds the view weakly and stops once the view is gone: a live
            # view dropped in a notebook must not be kept (and its events paid for) for ever
            view = weakref.ref(self)
            callback = None

            def tick():
                me = view()
                if me is None:
                    callback.stop()
                else:
                    me._tick()
            callback = self._callback = pn.state.add_periodic_callback(tick, period=self.period)

    # Ingest at most this long per tick while live: the page's clicks and the server's other
    # messages wait while Python ingests, so a backlog (a fast producer, or a finished run
    # appended at once) is taken a slice per tick instead of blocking for seconds.
    TICK_BUDGET = 0.25

    def _tick(self):
        with self.graph.held():      # (the graph's data last in the message: see held)
            # redraw the views at most once a second while events stream
            exhausted = self._drain(budget=self.TICK_BUDGET,
                                    refresh=time.monotonic() - self._last_refresh >= 1.0)
        if exhausted and self._source_done():
            with self.graph.held():
                self.refresh()
                self._mark_ended()
            if self._callback is not None:
                self._callback.stop()
                self._callback = None

    def _poll(self) -> list:
        if self._sliced is None:       # a recording follower takes a slice size; others don't
            try:
                self._sliced = "max_events" in inspect.signature(self.source.poll).parameters
            except (TypeError, ValueError):
                self._sliced = False
        return self.source.poll(max_events=1_000) if self._sliced else self.source.poll()

    def _drain(self, limit=None, refresh=True, budget=None) -> bool:
        """Ingest what the source has now (up to ``limit`` events, or for up to ``budget``
        seconds), then update the views. True when the source had nothing more."""
        start, n, exhausted = time.monotonic(), 0, False
        while True:
            got = self._poll()
            if not got:
                exhausted = True
                break
            self.store.ingest(got)
            n += len(got)
            if limit is not None and n >= limit:
                break
            if budget is not None and time.monotonic() - start >= budget:
                break
        if refresh or self._drawn_graph is None:
            self.refresh(force=not n and self._drawn_graph is None)
        return exhausted

    def refresh(self, force=False):
        """Update every view from the store (throttled graph re-layout while live)."""
        self._last_refresh = time.monotonic()
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

    def _mark_ended(self):
        self._ended_shown = True
        self._update_graph(force=True)
        self._update_status()

    def _update_status(self):
        s = self.store
        parts = [f"{s.n_events} events", f"{len(s.tapes)} tape(s)", f"{len(s.calls)} gradient call(s)"]
        live = not self._source_done()
        state = ('<span class="tv-badge" style="background:#d4edda">live</span>' if live else
                 '<span class="tv-badge tv-ended" style="background:#eee">stream ended</span>'
                 if self._callback is not None or self._ended_shown else "")
        warns = getattr(self.source, "warnings", None) or []
        lay = self.graph.layout
        extra = ""
        if self.layout_busy:
            extra += ' <span class="tv-badge tv-busy">laying out the graph…</span>'
        if lay is not None and lay.error:
            extra += f' <span class="tv-err">layout: {esc(lay.error)} (simple layout used)</span>'
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
        if opts != self.tape_select.options:
            self.tape_select.options = opts
        want = self.tape
        if want not in s.tapes or (not self._pinned and want != s.latest_tape()):
            want = s.latest_tape()
        if want != self.tape:
            self._set_tape(want)
        self._update_call_options()

    def _update_call_options(self):
        s = self.store
        opts = {}
        for cid in s.calls_for(self.tape):
            c = s.calls[cid]
            names = ", ".join(s.tensor_name(r.get("id"), r.get("name", "")) for r in c["sources"][:3])
            opts[f"call {cid}: {c['method']}({names})"[:80]] = cid
        if opts != self.call_select.options:
            self.call_select.options = opts
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
        if event.new is None or event.new == self.tape:
            return
        self._pinned = True
        self.tape = event.new
        self._update_call_options()
        self._update_graph(force=True)

    def _on_call_select(self, event):
        if event.new is None or event.new == self.call:
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

    # ---- graph -----------------------------------------------------------------------------
    def _update_graph(self, force=False):
        if self.tape is None:
            return
        graph = self.store.graph(self.tape)
        if graph is self._drawn_graph and not force:
            return
        live = not self._source_done()
        if live and not force and time.monotonic() - self._last_draw < 1.0:
            return      # debounce re-layout while events stream in
        if graph is self._drawn_graph:
            return
        self._guards["graph"](self._draw, graph)

    def _draw(self, graph):
        from .group import collapse
        shown = collapse(graph, self.expanded)
        units = shown.get("units")
        self._drawn_graph = graph
        self._last_draw = time.monotonic()
        try:
            lay = compose.layout_graph(shown, units, cached_only=True)
        except compose.NotCached:
            lay = None
        doc = pn.state.curdoc
        threaded = (lay is None and len(shown["nodes"]) > THREAD_LAYOUT_ABOVE and doc is not None
                    and getattr(doc, "session_context", None) is not None)
        if not threaded:
            lay = lay or compose.layout_graph(shown, units)
            self._apply_layout(graph, shown, lay)
            return
        # layout off the event loop: Graphviz runs in a thread, the drawing hops back
        token = self._layout_token = object()
        self.layout_busy = True
        self._update_status()

        def work():
            try:
                result = compose.layout_graph(shown, units)
            except Exception as exc:       # keep the message for the graph view
                result = exc
            doc.add_next_tick_callback(partial(self._layout_done, token, graph, shown, result))
        threading.Thread(target=work, daemon=True, name="tapeviz-layout").start()

    def _layout_done(self, token, graph, shown, result):
        if token is not self._layout_token:
            return          # a newer layout was requested meanwhile
        self.layout_busy = False
        if isinstance(result, Exception):
            self._guards["graph"](lambda: (_ for _ in ()).throw(result))
        else:
            with self.graph.held():
                self._guards["graph"](self._apply_layout, graph, shown, result)
        self._update_status()

    def _apply_layout(self, graph, shown, lay):
        self._shown = shown
        self.graph.show(shown, lay)
        names = {str(n.get("name")) for n in graph["nodes"] if n.get("name")}
        ops = {str(n.get("op")) for n in graph["nodes"] if n.get("op")}
        self.search.options = sorted(names | ops)[:5000]
        lines = {}
        for n in graph["nodes"]:
            site = n.get("site") or {}
            if site.get("line"):
                label = f'{os.path.basename(str(site.get("file", "")))}:{site["line"]}  {site.get("code", "")}'
                lines.setdefault(label[:90], (site.get("file"), site["line"]))
        self._lines = lines
        self.line_select.options = [""] + sorted(lines, key=lambda k: (lines[k][0] or "", lines[k][1]))
        collapsed = bool(shown.get("collapsed"))
        self.collapse_button.visible = bool(self.expanded)
        self.expand_note.visible = collapsed
        self.expand_note.object = (f'<span class="tv-small">{len(graph["nodes"])} nodes: grouped by '
                                   'name scope (or blocks of ops). Select a group and press '
                                   '<b>Expand</b> to open it.</span>') if collapsed else ""
        self._on_call_changed()
        if self._pending_select:
            self.graph.select(self._pending_select)
            self._pending_select = None

    def _fit(self, event=None):
        self.graph.fit()

    def _on_search(self, event):
        text = (event.new or "").strip().lower()
        graph = self._drawn_graph
        if not text or not graph:
            return
        def match(n, exact):
            name, op = str(n.get("name", "")).lower(), str(n.get("op", "")).lower()
            return (text == name or text == op) if exact else (text in name or text in op)
        hits = ([n["key"] for n in graph["nodes"] if match(n, True)] or
                [n["key"] for n in graph["nodes"] if match(n, False)])
        if not hits:
            return
        gmap = (self._shown or {}).get("gmap") or {}
        if hits[0] in gmap:                       # inside a collapsed group: open it
            self.expand(gmap[hits[0]], select=hits[0])
        else:
            self.graph.select(hits[0])
        shown_keys = [h for h in hits if h in self.graph.index][:200]
        self.graph.highlight("line", shown_keys, color="#2ca02c")

    def expand(self, group: str, select: str | None = None):
        """Open a collapsed group in place (the rest keeps its cached layout)."""
        self.expanded = self.expanded | {group}
        self._pending_select = select
        self._redraw()

    def collapse_all(self, event=None):
        self.expanded = frozenset()
        self._redraw()

    def _redraw(self):
        graph = self._drawn_graph
        if graph is not None:
            self._drawn_graph = None
            self._guards["graph"](self._draw, graph)

    def _on_line(self, event):
        spot = self._lines.get(event.new or "")
        if not spot or not self.graph.graph:
            self.graph.clear_highlight("line")
            return
        keys = [n["key"] for n in self.graph.graph["nodes"]
                if (n.get("site") or {}).get("line") == spot[1]
                and (n.get("site") or {}).get("file") == spot[0]]
        self.graph.highlight("line", keys, color="#2ca02c")

    # ---- selection -> inspector ------------------------------------------------------------
    def _on_select(self, event):
        key = event.new
        self._guards["inspector"](self._inspect, key)
        if key:
            if self.side.active != 1:      # stay on the player: the click jumps to the step
                self.side.active = 0
            # jump the player to the step of that op, if the shown call visits it
            node = self.graph.node(key)
            if node and node.get("node") is not None and self.call is not None:
                idx = self.store.call_for_node(self.call, node["node"])
                if idx is not None:
                    self.player.value = idx
            self._select_variable_row(node)

    def _expand_selected(self):
        node = self.graph.node(self.graph.selected)
        if node and node.get("group"):
            self.expand(node["group"])

    def _inspect(self, key):
        node = self.graph.node(key) if key else None
        self.expand_button.visible = bool(node and node.get("group"))
        if node is None:
            self.inspector.object = "<i>Click a node of the graph to inspect it.</i>"
            return
        grad = gradient_html(self.store, self.store.calls.get(self.call), node)
        self.inspector.object = node_html(self.store, node, gradient=grad)

    # ---- variables table -------------------------------------------------------------------
    def _variables_frame(self):
        import pandas as pd
        rows = self.store.variables_rows() if hasattr(self, "store") else []
        cols = ["name", "shape", "dtype", "trainable", "watched by", "value", "gradient", "norm",
                "verdict", "cause"]
        frame = pd.DataFrame(rows, columns=["id"] + cols)
        self._var_ids = list(frame["id"])
        return frame[cols]

    def _update_variables(self):
        frame = self._variables_frame()
        if not frame.equals(self.variables.value):
            self.variables.value = frame

    def _on_variable_row(self, event):
        if not event.new:
            return
        i = event.new[0]
        if i < len(self._var_ids):
            key = f"t{self._var_ids[i]}"
            if key != self.graph.selected:
                self.graph.select(key)

    def _select_variable_row(self, node):
        if node is None or node.get("node") is not None:
            return
        tid = node.get("tensor")
        if tid in getattr(self, "_var_ids", []):
            i = self._var_ids.index(tid)
            if self.variables.selection != [i]:
                self.variables.selection = [i]

    # ---- backward player -------------------------------------------------------------------
    def _on_call_changed(self):
        call = self.store.calls.get(self.call)
        n = len(call["steps"]) if call else 0
        self.player.end = max(n - 1, 1)
        self.player.disabled = n == 0
        if self.player.value > max(n - 1, 0):
            self.player.value = 0
        self._guards["backward"](self._show_step)
        self._guards["why"](self._update_why)
        self._guards["inspector"](self._inspect, self.graph.selected)
        self._guards["jacobian"](self.jacobian.update)

    @param.depends("step", watch=True)
    def _on_step(self):
        self._guards["backward"](self._show_step)

    def _show_step(self):
        call = self.store.calls.get(self.call)
        # Not on a graph about to be replaced: a column set now and the whole data replaced
        # later in the same held message reach BokehJS as the new column on the old rows
        # ("Size mismatch"); drawing the new graph shows the step again.
        on_graph = self._drawn_graph is not None and (
            self.tape is None or self._drawn_graph is self.store.graph(self.tape))
        if call is None or not call["steps"]:
            self.step_view.object = ("<i>No backward steps for this call.</i>" if call else
                                     "<i>No gradient call on this tape yet.</i>")
            if on_graph:
                self.graph.clear_highlight("current")
                self.graph.set_states([])
            return
        i = min(self.step, len(call["steps"]) - 1)
        if on_graph:
            key, visited, up = step_keys(call, i, self.graph.edge_rows)
            self.graph.set_states(visited)
            self.graph.highlight("current", [key], up)
        self.step_view.object = step_html(self.store, call, i)

    def _breakpoint(self, kind):
        call = self.store.calls.get(self.call)
        if call is None:
            return
        node = self.graph.node(self.graph.selected) if kind == "node" else None
        i = breakpoint_step(call, kind, (node or {}).get("node"))
        if i is None:
            self.step_view.object = (self.step_view.object.split('<div class="tv-err bp">')[0] +
                                     '<div class="tv-err bp">breakpoint not reached in this call</div>')
            return
        self.side.active = 1
        self.player.value = i

    # ---- why cards -------------------------------------------------------------------------
    def _update_why(self):
        call = self.store.calls.get(self.call)
        key = (self.call, id((call or {}).get("results")))
        if key == self._why_key:
            return        # unchanged: keep the cards (no new models for the browser)
        self._why_key = key
        self._why_results = []
        if call is None or call.get("results") is None:
            self.why_note.object = ("<i>No gradient call on this tape yet.</i>" if call is None
                                    else "<i>This gradient call has not finished.</i>")
            self.why_note.visible = True
            for col, _, _ in self._cards:
                col.visible = False
            return
        results = call["results"]
        self.why_note.visible = not results
        self.why_note.object = "<i>No sources.</i>"
        while len(self._cards) < len(results):
            k = len(self._cards)
            html = _html("")
            button = pn.widgets.Button(label="Show on graph", width=120, css_classes=["tv-why-show"])
            button.on_click(lambda e, k=k: self.show_cut(k))
            col = pn.Column(html, button, sizing_mode="stretch_width")
            self._cards.append((col, html, button))
            self.why.append(col)
        for k, (col, html, _) in enumerate(self._cards):
            col.visible = k < len(results)
            if k < len(results):
                html.object = why_card_html(self.store, results[k])
        self._why_results = list(results)

    def show_cut(self, k: int):
        """Highlight on the graph where explanation ``k`` of the shown call points."""
        r = self._why_results[k]
        ref = r.get("tensor") or {}
        g = self.graph.graph or {"nodes": [], "edges": []}
        keys = set()
        src_key = f"t{ref.get('id')}"
        if src_key in self.graph.index:
            keys.add(src_key)
        path = {str(p) for p in r.get("path") or []}
        fname, lineno = r.get("filename"), r.get("lineno")
        for n in g["nodes"]:
            site = n.get("site") or {}
            at_line = lineno and site.get("line") == lineno and (not fname or site.get("file") == fname)
            if at_line and (n["kind"] in ("skipped", "escaped", "assign", "stop_gradient")
                            or not path or n.get("op") in path):
                keys.add(n["key"])
        edges = [(e["tail"], e["head"]) for e in g["edges"]
                 if e["cut"] and (e["tail"] in keys or e["head"] in keys)]
        if not edges and r.get("verdict") == "none":
            edges = [(e["tail"], e["head"]) for e in g["edges"] if e["cut"]]
        self.graph.highlight("cut", sorted(keys), edges)
        self._cut_source = k


def _weakly(method):
    """`method` as a callable that does not keep its object alive."""
    ref = weakref.WeakMethod(method)

    def call(*args, **kwargs):
        bound = ref()
        if bound is not None:
            return bound(*args, **kwargs)
    return call


def _short(text, n=60):
    text = str(text)
    return text if len(text) <= n else text[: n - 1] + "…"
