"""A tape's story as events, for `tv.show(tape)`: what it recorded so far, then live events.

A view opened after `tape.gradient(...)` still shows that call step by step: the tape keeps its
values until it is dropped and remembers its last few calls, so the view runs them again with
the events delivered to it alone (a recorder listening meanwhile does not get them twice).
"""
from __future__ import annotations

import weakref

from .. import config as _config
from .. import events as _events
from . import op as _op
from .call_site import as_dict
from .refs import _VARIABLE_NODES, ref


def tape_events(tape) -> list:
    """Events describing what `tape` holds now: its watches, recorded ops and past calls."""
    make = _events.make
    out = [make(_events.TapeOpened, tape=tape._id, persistent=tape._persistent,
                watch_accessed_variables=tape._watch_accessed, site=as_dict(tape._site))]
    for t, how, site in tape._watched.values():
        out.append(make(_events.Watched, tape=tape._id, tensor=ref(t), how=how,
                        site=as_dict(site)))
    entries = tape._entries or tape._kept_entries
    for node, inputs, outputs in entries or []:
        out.append(make(_events.OpRecorded, node=node.id, op=node.op.name, tapes=list(node.tapes),
                        inputs=[ref(t) for t in inputs], outputs=[ref(t) for t in outputs],
                        attrs={}, site=as_dict(node.site)))
    if entries:
        out.extend(replayed_calls(tape))
    elif tape._released_nodes:
        out.extend(released_story(tape))
    if not is_recording(tape) and tape._open_at is not None:
        # its `with` block has exited (or a one-shot answer stopped it): a view must not call
        # it live, nor give it the ops that run from now on
        out.append(make(_events.TapeClosed, tape=tape._id, site=None))
    return out


def is_recording(tape) -> bool:
    """True between the tape's `__enter__` and the moment it stops recording (its `__exit__`,
    or a one-shot tape's answer): read from its marks, so any thread can ask."""
    return tape._open_at is not None and tape._closed_at is None


def released_story(tape) -> list:
    """What a one-shot tape that freed its values still knows (lineage, its call, the answers
    and why): its ops without shapes or values, and each remembered call's start and finish
    with explanations, but no backward steps (they need the values)."""
    make = _events.make
    out = []
    for node in tape._released_nodes:
        out.append(make(_events.OpRecorded, node=node.id, op=node.op.name,
                        tapes=list(node.tapes),
                        inputs=[_bare_ref(i, p) for i, p in zip(node.in_ids, node.parents)],
                        outputs=[_bare_ref(o, node) for o in node.out_ids],
                        attrs={}, site=as_dict(node.site)))
    from . import nest
    from ..explain import explain_flat
    from .jacobians import VALUE_LIMIT as JACOBIAN_LIMIT
    from .tape_events import finished_payload, gradient_health, started_payload, verdict_rows
    from .gradient_args import _as_target, _sources, _unconnected
    from .tape import _call_ids
    limit = _events.config["value_limit"]
    results = tape._last_results or {}
    for method, args, site in tape._calls:
        targets = [_as_target(t) for t in nest.flatten(args[0])]
        sources = _sources(args[1])
        unconnected = _unconnected(args[-1])
        answers = [results.get(s._id) for s in sources]
        call = next(_call_ids)
        triples = [(s, s._value, s._node) for s in sources]
        out.append(make(_events.GradientStarted, **started_payload(
            call, tape._id, method, [(t, t._value, t._node) for t in targets], triples,
            unconnected, site, limit)))
        explanations = explain_flat(tape, targets, sources, answers, unconnected)
        pairs: list = []
        gradient_health(answers, pairs)
        out.append(make(_events.GradientFinished, **finished_payload(
            call, tape._id, triples, answers, explanations, limit,
            limit if method == "gradient" else JACOBIAN_LIMIT,
            verdicts=verdict_rows(sources, pairs))))
    return out


def _bare_ref(tensor_id, node) -> dict:
    """A tensor ref from lineage alone: its id and the node that made it, no shape or value."""
    if node is None or type(node.op) is str:
        kind = "variable" if node is not None and node.op in _VARIABLE_NODES else "constant"
        node_id = None
    else:
        kind, node_id = "tensor", node.id
    return {"id": tensor_id, "name": None, "shape": None, "dtype": None, "kind": kind,
            "trainable": None, "node": node_id, "summary": None}


def replayed_calls(tape) -> list:
    """The events of `tape`'s remembered calls, computed again (plain dicts, each call's
    started/finished events carrying the site of the original call). The tape, the recording
    tapes and `tv.config` are as they were afterwards."""
    entries = tape._entries or tape._kept_entries
    state = (tape._entries, tape._kept_entries, tape._released_nodes, tape._used,
             tape._last_results, tape._calls)
    thread = _op.here()
    calls, recording, warn = list(tape._calls), thread.recording[:], _config.explain_none
    caught: list = []
    out = []
    try:
        _config.explain_none = False       # the user saw any warning the first time
        thread.recording[:] = []           # an open outer tape must not record the replay
        for method, args, site in calls:
            if not tape._persistent:       # a one-shot tape answers once: let it again
                tape._entries, tape._used = entries, False
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
         tape._last_results, tape._calls) = state
        tape._calls[:] = calls
        thread.recording[:] = recording
        _config.explain_none = warn
    return out


class _WeakCallback:
    """Calls `source._on_event(event)` while the source lives."""

    __slots__ = ("source",)

    def __init__(self, source):
        self.source = weakref.ref(source)

    def __call__(self, event):
        source = self.source()
        if source is not None:
            source._on_event(event)


class TapeEventSource:
    """`poll()` returns the tape's past events once, then its new events as they happen."""

    def __init__(self, tape):
        self._tape_id = tape._id
        self._pending = tape_events(tape)
        self._calls: set = set()
        self.ended = False
        #: the tape is recording now (a dashboard calls only such a view live); a finished
        #: tape's view still polls, for the gradient calls it may yet answer
        self.recording = is_recording(tape)
        # the source lines around its events' sites, as a recording carries them: the view
        # reads no file itself (this process's own source, through linecache)
        from ..recording.sources import SourceWindows
        self.sources: dict = {}
        self._windows = SourceWindows()
        # op definitions seen before this view opened come too: the view needs their formulas.
        # The subscription holds the source weakly and closes when the source goes (a view
        # dropped in a notebook must not leave events on, and paid for, in every later cell)
        self._subscription = _events.subscribe(_WeakCallback(self), replay_definitions=True)
        weakref.finalize(self, self._subscription.close)

    def _on_event(self, event):
        tape = getattr(event, "tape", None)
        if event.kind == "gradient_started" and tape == self._tape_id:
            self._calls.add(event.call)
        elif event.kind in ("tape_opened", "tape_closed") and tape == self._tape_id:
            self.recording = event.kind == "tape_opened"
        mine = (tape == self._tape_id or self._tape_id in getattr(event, "tapes", ()) or
                getattr(event, "call", None) in self._calls or event.kind == "op_defined")
        if mine:
            self._pending.append(event)

    def poll(self) -> list:
        from ..recording.sources import carry
        out, self._pending = self._pending, []
        carry(out, self._windows, self.sources)
        return out

    def close(self):
        self._subscription.close()
        self.ended = True
