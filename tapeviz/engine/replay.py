"""A tape's story as events, for `tv.show(tape)`: what it recorded so far, then live events.

A view opened after `tape.gradient(...)` still shows that call step by step: the tape keeps its
values until it is dropped and remembers its last few calls, so the view runs them again with
the events delivered to it alone (a recorder listening meanwhile does not get them twice).
"""
from __future__ import annotations

from .. import config as _config
from .. import events as _events
from . import op as _op
from .site import as_dict
from .tensor import ref


def tape_events(tape) -> list:
    """Events describing what `tape` holds now: its watches, recorded ops and past calls."""
    make = _events.make
    out = [make(_events.TapeOpened, tape=tape._id, persistent=tape._persistent,
                watch_accessed_variables=tape._watch_accessed, site=as_dict(tape._site))]
    for t, how, site in tape._watched.values():
        out.append(make(_events.Watched, tape=tape._id, tensor=ref(t), how=how,
                        site=as_dict(site)))
    for node, inputs, outputs in tape._entries or tape._kept_entries or []:
        out.append(make(_events.OpRecorded, node=node.id, op=node.op.name, tapes=list(node.tapes),
                        inputs=[ref(t) for t in inputs], outputs=[ref(t) for t in outputs],
                        attrs={}, site=as_dict(node.site)))
    out.extend(replayed_calls(tape))
    return out


def replayed_calls(tape) -> list:
    """The events of `tape`'s remembered calls, computed again (plain dicts, each call's
    started/finished events carrying the site of the original call)."""
    if not tape._calls or not (tape._entries or tape._kept_entries):
        return []
    caught: list = []
    saved = (tape._entries, tape._kept_entries, tape._released_nodes, tape._used,
             tape._last_results, list(tape._calls), _config.explain_none, _op.RECORDING[:])
    out = []
    try:
        _config.explain_none = False       # the user saw any warning the first time
        _op.RECORDING[:] = []              # an open outer tape must not record the replay
        for method, args, site in saved[5]:
            if not tape._persistent:       # a one-shot tape answers once: let it again
                tape._entries, tape._used = saved[0] or saved[1], False
            del caught[:]
            try:
                with _events.delivered_only_to(caught.append):
                    getattr(tape, method)(*args)
            except Exception:              # the call raised the first time too: nothing to show
                continue
            for event in caught:
                d = event.to_dict()
                if d["kind"] in ("gradient_started", "gradient_finished") and "site" in d:
                    d["site"] = as_dict(site)
                out.append(d)
    finally:
        (tape._entries, tape._kept_entries, tape._released_nodes, tape._used,
         tape._last_results, tape._calls, _config.explain_none) = saved[:7]
        _op.RECORDING[:] = saved[7]
    return out


class TapeEventSource:
    """`poll()` returns the tape's past events once, then its new events as they happen."""

    def __init__(self, tape):
        self._tape_id = tape._id
        self._pending = tape_events(tape)
        self._calls: set = set()
        self.ended = False
        # op definitions seen before this view opened come too: the view needs their formulas
        self._subscription = _events.subscribe(self._on_event, replay_definitions=True)

    def _on_event(self, event):
        tape = getattr(event, "tape", None)
        if event.kind == "gradient_started" and tape == self._tape_id:
            self._calls.add(event.call)
        mine = (tape == self._tape_id or self._tape_id in getattr(event, "tapes", ()) or
                getattr(event, "call", None) in self._calls or event.kind == "op_defined")
        if mine:
            self._pending.append(event)

    def poll(self) -> list:
        out, self._pending = self._pending, []
        return out

    def close(self):
        self._subscription.close()
        self.ended = True
