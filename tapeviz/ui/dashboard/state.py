"""What a dashboard shows, shared by its components: :class:`DashboardState`, and the base
of every component, :class:`Component`.

The dashboard is a few components side by side (the graph, the inspector, the backward
player, the why cards, ...; see :mod:`tapeviz.ui.dashboard.dashboard`). None of them calls
another: each owns its widgets, draws from ``state.store`` and reacts, through ``param``,
to the few things they share, which any of them may set:

- ``store``: the run shown (another one when the dashboard loads another run);
- ``tape`` and ``call``: the tape and the gradient call shown;
- ``node``: the key of the selected node of the graph ("" for none);
- ``step``: the backward step the player shows;
- ``drawn``: bumped each time the graph pane has drawn a graph (``plot`` then holds it);
- ``live``, ``layout_busy``: whether the source may still send events, whether a graph
  layout runs;
- ``tab``: the label of a tab a component asks to bring forward (the why cards on a NaN);
- ``pinned``: the user chose a tape (a live view stops following the latest one);
- ``expanded``, ``closed``: the groups of the graph the user opened or closed.

Components draw on the one graph plot they share (``plot``, a
:class:`~tapeviz.ui.graph.plot.GraphView`): highlights, the player's visited nodes.
"""
from __future__ import annotations

import contextlib
import traceback

import panel as pn
import param

from ..render.html import CSS


class DashboardState(param.Parameterized):
    """What the dashboard shows (see the module docstring)."""

    title = param.String(default="tapeviz")
    store = param.Parameter(default=None, doc="the Store of the run shown")
    tape = param.Parameter(default=None, doc="id of the shown tape")
    call = param.Parameter(default=None, doc="id of the shown gradient call")
    node = param.String(default="", doc="key of the selected graph node")
    step = param.Integer(default=0, bounds=(0, None), doc="backward step shown by the player")
    drawn = param.Integer(default=0, doc="bumped when the graph pane has drawn a graph")
    live = param.Boolean(default=False, doc="the source may still send events")
    ended = param.Boolean(default=False, doc="the source has ended and the page says so")
    layout_busy = param.Boolean(default=False, doc="a graph layout runs in a thread")
    tab = param.String(default="", doc="label of a tab a component asks to bring forward")
    pinned = param.Boolean(default=False, doc="the user chose a tape: stop following the latest")
    expanded = param.Parameter(default=frozenset(), doc="groups of the graph opened")
    closed = param.Parameter(default=frozenset(), doc="groups of a small graph closed")

    def __init__(self, **params):
        super().__init__(**params)
        self.graph = None               # the store's graph of the tape drawn (see ``drawn``)
        self.layout_for_user = False    # the running layout answers a click
        self._view_updates = 0

    @contextlib.contextmanager
    def updating(self):
        """Changes made meanwhile are the views' own, not the user's (a live view steps aside
        for the user's, not for its own)."""
        self._view_updates += 1
        try:
            yield
        finally:
            self._view_updates -= 1

    @property
    def by_user(self) -> bool:
        """True unless a view is updating itself (see :meth:`updating`)."""
        return not self._view_updates

    def bring_forward(self, tab: str) -> None:
        """Ask the dashboard to show the tab labelled ``tab``."""
        self.tab = tab
        with param.parameterized.discard_events(self):
            self.tab = ""

    # ---- what a component may ask for ---------------------------------------------------------
    def show_call(self, call_id) -> bool:
        """Show gradient call ``call_id`` and its tape (a click on the training chart, a why
        card's origin). False when the store no longer keeps it."""
        call = self.store.calls.get(call_id)
        if call is None:
            return False
        if call["tape"] in self.store.tapes and call["tape"] != self.tape:
            self.param.update(pinned=True, tape=call["tape"], call=call_id)
        else:
            self.call = call_id
        return True

    def open_group(self, group: str) -> None:
        """Open a collapsed group of the graph in place."""
        if group in self.closed:
            self.closed = self.closed - {group}
        else:
            self.expanded = self.expanded | {group}

    def close_group(self, group: str) -> None:
        """Close an open group (any named scope or Keras layer) into one box."""
        inside = {g for g in self.expanded if g == group or g.startswith(group + "/")}
        if inside:
            self.expanded = self.expanded - inside
        else:
            self.closed = self.closed | {group}

    def on_graph(self) -> bool:
        """True when the graph drawn is the shown tape's current one (not one about to be
        replaced: data set on it now would be sent with the old rows)."""
        return self.graph is not None and (
            self.tape is None or self.graph is self.store.graph(self.tape))


def html_pane(text="", **kw):
    """An HTML pane with tapeviz's stylesheet, as wide as its container."""
    return pn.pane.HTML(text, stylesheets=[CSS], sizing_mode="stretch_width", **kw)


class Component(pn.viewable.Viewer):
    """One panel of the dashboard. A subclass builds its widgets in ``__init__`` (after
    ``super().__init__``), returns them from :meth:`body`, reacts to ``state`` with
    ``@param.depends("state.<name>", watch=True)`` methods, and redraws from the store in
    :meth:`refresh`. Its updates run through :meth:`guarded`: an exception shows an error in
    this panel only, never a blank page.

    ``label`` names its tab, ``area`` says where the dashboard puts it (``"side"``: the tabs
    beside the graph; ``"bottom"``: the tabs under it; ``"top"``: above the graph; ``"main"``:
    the graph's place), ``lazy`` that it refreshes only while its tab is shown."""

    label = "component"
    area = "bottom"
    lazy = False

    state = param.ClassSelector(class_=DashboardState, constant=True)

    def __init__(self, state: DashboardState, plot, **params):
        super().__init__(state=state, **params)
        self.plot = plot
        self._panel = None
        self.alert = pn.pane.Alert("", alert_type="danger", visible=False,
                                   sizing_mode="stretch_width")

    @property
    def store(self):
        return self.state.store

    def guarded(self, fn, *args, **kw):
        """Run ``fn``; an exception is shown in this panel (and printed), not raised."""
        try:
            out = fn(*args, **kw)
        except Exception as exc:   # one broken view must not blank the page
            self.alert.object = (f"The {self.label.lower()} view failed: "
                                 f"{type(exc).__name__}: {exc}").replace("<", "&lt;")
            self.alert.visible = True
            traceback.print_exc()
            return None
        if self.alert.visible:
            self.alert.visible = False
        return out

    def body(self) -> list:
        """The panel's widgets and panes, top to bottom."""
        return []

    def refresh(self, force: bool = False) -> None:
        """Redraw what depends on the store's tables (the store has news)."""

    def shown(self) -> bool:
        """Whether its tab is the one shown (the dashboard that lays it out answers; a
        ``lazy`` component's own watchers redraw only then)."""
        return True

    def reset(self) -> None:
        """Forget the run shown before (the dashboard loads another)."""

    def toolbar(self) -> list:
        """Widgets for the row above the graph (a tape picker, a search box), if any."""
        return []

    def panel(self, **layout) -> pn.Column:
        """The panel: its alert, then :meth:`body`, in one column built on the first call
        (``layout``: the column's size and styles, from the dashboard)."""
        if self._panel is None:
            self._panel = pn.Column(self.alert, *self.body(),
                                    **{"sizing_mode": "stretch_width", **layout})
        return self._panel

    def __panel__(self):
        return self.panel()
