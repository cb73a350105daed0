"""The tape and gradient-call pickers above the graph: they set ``state.tape`` and
``state.call``. While events stream, the latest tape with a gradient call is shown, until the
user picks one (``state.pinned``); a flight recording opens on its first anomalous call."""
from __future__ import annotations

import contextlib

import panel as pn
import param

from .state import Component


class RunPicker(Component):
    """Which tape and which of its gradient calls the dashboard shows."""

    label = "Tape"
    area = "top"

    def __init__(self, state, plot, **params):
        super().__init__(state, plot, **params)
        self.tape_select = pn.widgets.Select(label="Tape", options={}, width=180)
        self.call_select = pn.widgets.Select(label="Gradient call", options={}, width=260)
        self._setting_options = False
        self.tape_select.param.watch(self._on_tape_select, "value")
        self.call_select.param.watch(self._on_call_select, "value")

    def toolbar(self) -> list:
        return [self.tape_select, self.call_select]

    def refresh(self, force: bool = False) -> None:
        s, state = self.store, self.state
        opts = {}
        for tid in s.tape_ids():
            t = s.tapes[tid]
            label = f"tape {tid}"
            if t["outer_tapes"]:
                label += f" (inside {', '.join(str(o) for o in t['outer_tapes'])})"
            label += f" · {len(t['nodes'])} ops"
            opts[label] = tid
        want = state.tape
        start = s.opening_call()      # a flight recording's first anomalous call, if kept
        latest = s.calls[start]["tape"] if start is not None else s.latest_tape()
        if want not in s.tapes or (not state.pinned and want != latest):
            want = latest
        if opts != self.tape_select.options:
            with self._not_the_user():
                self.tape_select.param.update(options=opts, value=want)
        if want != state.tape:
            state.tape = want           # (the call options follow)
        else:
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

    @param.depends("state.tape", watch=True)
    def _on_tape(self):
        if self.tape_select.value != self.state.tape and self.state.tape is not None:
            with self._not_the_user():
                self.tape_select.value = self.state.tape
        self.guarded(self._update_call_options)

    def _update_call_options(self):
        s, state = self.store, self.state
        opts = {}
        for cid in s.calls_for(state.tape):
            c = s.calls[cid]
            names = ", ".join(s.tensor_name(r.get("id"), r.get("name", "")) for r in c["sources"][:3])
            opts[f"call {cid}: {c['method']}({names})"[:80]] = cid
        if opts != self.call_select.options:
            keep = state.call if state.call in opts.values() else None
            with self._not_the_user():
                self.call_select.param.update(options=opts, value=keep)
        if state.call not in opts.values():
            start = s.opening_call()
            state.call = (start if start in opts.values() else
                          list(opts.values())[-1] if opts else None)
        if self.call_select.value != state.call:
            with self._not_the_user():
                self.call_select.value = state.call

    @param.depends("state.call", watch=True)
    def _on_call(self):
        call = self.state.call
        if self.call_select.value != call and call in self.call_select.options.values():
            with self._not_the_user():
                self.call_select.value = call

    def _on_tape_select(self, event):
        if self._setting_options or event.new is None or event.new == self.state.tape:
            return
        self.state.param.update(pinned=True, tape=event.new)

    def _on_call_select(self, event):
        if self._setting_options or event.new is None or event.new == self.state.call:
            return
        self.state.call = event.new
