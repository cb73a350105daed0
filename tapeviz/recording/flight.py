"""A flight recording: a summary of every gradient call, and the full events of the few
calls worth them, so a recording can stay on for a whole training run.

``tv.record(path)`` (and ``TAPEVIZ_RECORD=path``) puts a
:class:`FlightRecorder` between the event stream and the writer. It cuts the stream into
calls: a call's events run from the tape opening (or ``gradient_started``) that begins it to
its ``gradient_finished``; what follows until the next call begins (the optimizer's updates,
a logged loss) goes with it (and is written before a first or N-th call after it too: what
ran before its tape opened). For every call it writes one ``call_summary`` line; the call's
own events only for the first ``first`` calls, every ``every``-th call, and every call where
a source's verdict is not ``value`` or the global gradient norm is more than ``jump`` times
its running median. The last ``before`` calls not written wait in a ring buffer of at most
``ring_bytes`` and are written just before such an anomalous call. A call there counts for
the arrays its held events keep alive (``flight_memory``: each array once, where it was made)
plus about the bytes its events would take in the file (at the mean size of their kinds'
events as written so far); past the bound the oldest call goes first, and is counted.

What a call costs that is not kept: an append per per-op event, and its summary line. The
recorder, when it is the only subscriber, hands the engine a list per thread
(``events.subscribe(holds=...)``): the engine appends ``(cls, seq, time, build, args)`` to it
and makes no event object and delivers nothing; only the marks (tape opened and closed,
gradient started and finished, scalars) reach :meth:`FlightRecorder.on_event`. The events of
a call written are made from those tuples then, as every other subscriber would have got them
(``events.deferred_at``), and their payloads built by the writer. The verdicts and norms come
from the ``gradient_finished`` event's ``verdicts`` (set by the engine from the one dot
product per gradient its health check takes anyway), the ring's byte count from its events'
kinds and their builders' arguments. A verdict other than ``value`` is an anomaly when a
source turns to it (the first call that source is seen with it), not on every call it stays
so: a frozen variable passed as a source does not make every call kept, nor does a run whose
weights went NaN keep every later call (each return of a NaN after a finite gradient is
kept; the every-N-th calls show how it stays).

Buffered events are handed to the writer as events, in the order they are written, so the
writer's tables (``tables.py``) name a site or a tensor ref only after the line that defines
it, whatever was written or skipped in between. ``op_defined`` and ``note`` events belong to
no call and are written at once; events before the first call too. A tape that closes with
no gradient call and is followed by another tape is let go. Imports: stdlib, ``events``,
``encode``, ``flight_policy`` (what is kept) and ``flight_memory`` (what a held call weighs).
"""
from __future__ import annotations

import bisect
import collections
import math
import threading
from itertools import repeat
from operator import itemgetter
from threading import get_ident as _ident
from time import time as _now

from .. import events as _events
from ..events import deferred_at, engine_built, next_seq, sanitize, unbuilt
from .encode import _encode, _fast_dumps
from .flight_memory import array_bytes
from .flight_policy import FlightPolicy

_OpDefined, _Scalar = _events.OpDefined, _events.Scalar
_TapeOpened, _TapeClosed = _events.TapeOpened, _events.TapeClosed
_GradientStarted, _GradientFinished = _events.GradientStarted, _events.GradientFinished
_CallSummary, _Note = _events.CallSummary, _events.Note

#: How many earlier calls' global gradient norms the running median is taken over, and how
#: many it needs before a jump can be told.
MEDIAN_WINDOW = 100
MEDIAN_MIN = 3
#: At most this many sources' last verdicts are remembered (then forgotten all at once).
MAX_SEEN = 10_000
#: Events of one kind measured (as they are written) for the ring's count of its bytes, and
#: what an event of a kind none of which was written yet counts for.
MEASURED = 4
UNMEASURED_BYTES = 1024


#: What a call is: under way (its thread's events go to it), waiting in the ring (they still
#: do: what follows it until its thread's next call), written (they go to the file), gone.
UNDER_WAY, RING, WRITTEN, GONE = range(4)


class _Call:
    """One gradient call's events, from one thread, as held items: ``(cls, event)`` for an
    event made as usual, ``(cls, seq, time, build, args)`` for an engine event held unmade
    (see ``events.subscribe(holds=...)``). ``tapes`` open, ``gradient`` once started; once
    decided, its ``index`` in the run; in the ring, the ``bytes`` it is counted for: the
    ``arrays`` its events keep alive and about what they would take in the file, of the first
    ``counted`` events; ``sent``: how many the writer has; ``finished``: where its events
    after ``gradient_finished`` begin (``tail``: the writer has those); ``before``: its
    thread's call before it, until it is decided."""
    __slots__ = ("events", "state", "tapes", "gradient", "index", "bytes", "arrays", "counted",
                 "sent", "finished", "tail", "before")

    def __init__(self, before=None):
        self.events, self.state, self.tapes, self.gradient = [], UNDER_WAY, 0, False
        self.index = self.bytes = self.arrays = self.counted = self.sent = self.finished = 0
        self.tail, self.before = False, before


#: The kinds that start, end or stand beside a call; every other event goes where its thread's
#: events go now (its call under way, the call it follows, the file, or nowhere).
_MARKS = frozenset((_OpDefined, _Note, _Scalar, _TapeOpened, _TapeClosed, _GradientStarted,
                    _GradientFinished))
_kind_of = itemgetter(0)


def _made(item):
    """The event of a held item (made now, as every other subscriber got it, if held unmade)."""
    return item[1] if len(item) == 2 else deferred_at(*item)


def _seq_of(item) -> int:
    return item[1].seq if len(item) == 2 else item[1]


class FlightRecorder:
    """Subscribes in the writer's place; hands it what the policy keeps (``writer.write``)."""

    def __init__(self, writer, policy: FlightPolicy):
        self.writer = writer
        self.policy = policy
        self.calls = 0                  # gradient calls seen
        self.ring: collections.deque = collections.deque()     # _Call, oldest first
        self.ring_held = 0              # bytes of the calls in the ring
        self.ring_dropped = 0           # calls the byte bound let go, over the whole run
        self._dropped = collections.deque(maxlen=max(policy.before, 1))  # their indices
        # thread id -> its call under way, or its last call (events before any call: written)
        self._where: dict = {}
        # thread id -> the list the engine appends its per-op events to, unmade: the events
        # of that thread's call while it is under way or waiting in the ring
        self.held: dict = {}
        self._scalars: list = []
        self._norms = collections.deque(maxlen=MEDIAN_WINDOW)   # in order, and sorted:
        self._sorted: list = []
        self._seen: dict = {}           # (position, name) -> a source's last verdict not value
        self._dumps = _fast_dumps()
        self._learned: dict = {}        # event class -> [bytes measured, events measured]
        self._means: dict = {}          # event class -> its mean so far
        self._lock = threading.Lock()

    # --- the subscriber -----------------------------------------------------------------------
    def on_event(self, event) -> None:
        """The engine's per-op events reach it only while someone else listens too (else they
        wait unmade in ``held``); they and other events are only appended to a list here."""
        cls = type(event)
        if cls in _MARKS:
            self._mark(cls, event)
            return
        me = _ident()
        held = self.held.get(me)
        if held is not None:
            held.append((cls, event))
            return
        with self._lock:
            self._after(self._where.get(me), (cls, event))

    def _mark(self, cls, event) -> None:
        if cls is _OpDefined or cls is _Note:   # belongs to no call (a note: told once)
            self.writer.write(event)
            return
        me = _ident()
        with self._lock:
            if cls is _Scalar:
                self._scalars.append(event)
                return
            where = self._where.get(me)
            call = where if where is not None and where.state == UNDER_WAY else None
            if cls is _TapeOpened or cls is _GradientStarted:
                if call is None or (cls is _TapeOpened and not call.tapes and not call.gradient):
                    # a new call (one whose tapes closed with no gradient call is let go)
                    if call is None and where is not None:
                        self._settle(where)
                    call = self._where[me] = _Call(where)
                    self.held[me] = call.events
            if call is None:        # between calls: where the thread's last call went
                self._after(where, (cls, event))
                return
            call.events.append((cls, event))
            if cls is _TapeOpened:
                call.tapes += 1
            elif cls is _TapeClosed and call.tapes:
                call.tapes -= 1
            elif cls is _GradientStarted:
                call.gradient = True
            elif cls is _GradientFinished:
                call.finished = len(call.events)
                self._finish(call, event)

    def _after(self, where, item) -> None:
        """An event after a thread's last call (``where``): with it (in the ring), to the file
        (written, or before any call), or nowhere (gone)."""
        if where is None:
            self.writer.write(_made(item))
        elif where.state != GONE:
            where.events.append(item)
            if where.state == WRITTEN:
                self._send(where)

    # --- deciding -----------------------------------------------------------------------------
    def _finish(self, call: _Call, finished) -> None:
        self.calls += 1
        index, policy = self.calls, self.policy
        # (the verdicts and norms the engine set when it made the event: reading them builds
        # no payload, so a call that is not kept costs no summaries and no explanations)
        sources = finished.verdicts if type(finished.verdicts) is list else []
        why, seen = "", self._seen
        if seen or any(source.get("verdict") != "value" for source in sources):
            for position, source in enumerate(sources):
                verdict = source.get("verdict")
                key = (position, source.get("name"))
                if verdict != "value":
                    if seen.get(key) != verdict:
                        why = "verdict"
                    if len(seen) >= MAX_SEEN:
                        seen.clear()
                    seen[key] = verdict
                elif key in seen:
                    del seen[key]
        norms = [source.get("norm") for source in sources]
        squares = math.fsum(n * n for n in norms if type(n) is float)
        norm = math.sqrt(squares) if sources and math.isfinite(squares) else None
        ordered = self._sorted
        if not why and norm is not None and len(ordered) >= MEDIAN_MIN:
            median = ordered[len(ordered) // 2]
            if median > 0 and norm > policy.jump * median:
                why = "jump"
        if not why and index <= policy.first:
            why = "first"
        elif not why and policy.every and index % policy.every == 0:
            why = "every"
        if norm is not None:
            if len(self._norms) == MEDIAN_WINDOW:
                del ordered[bisect.bisect_left(ordered, self._norms[0])]
            self._norms.append(norm)
            bisect.insort(ordered, norm)
        call.index = index
        lead_up, lost = [], 0
        if why in ("verdict", "jump"):
            # (a call kept in between leaves an older one in the ring: not part of it)
            for held in self.ring:
                if held.index >= index - policy.before:
                    lead_up.append(held.index)
                    self._written(held)
                else:
                    self._let_go(held)
            lost = sum(1 for i in self._dropped if i >= index - policy.before)
            self.ring.clear()
            self.ring_held = 0
            self._dropped.clear()
        before, call.before = call.before, None
        if why in ("first", "every") and before is not None and before.state == RING:
            self._send_tail(before)
        if why:
            self._written(call)
        elif policy.before:
            call.state = RING
            self.ring.append(call)
            while len(self.ring) > policy.before:     # older than the lead-up: not lost
                self._let_go(self.ring.popleft())
            # (counted when its thread's next call begins: with what followed it)
        else:
            self._let_go(call)
        scalars = self._scalars
        self._scalars = []
        scalars = [{"name": s.name, "value": s.value, "step": s.step} for s in scalars]
        if not all(math.isfinite(s["value"]) for s in scalars):
            scalars = sanitize(scalars)
        if not (unbuilt(finished) or engine_built(finished)):
            sources = sanitize(sources)     # (not the engine's: its numbers are not checked)
        # its JSON form, as CallSummary.to_dict() would give it (JSON-safe: the writer's
        # fast encoder takes it)
        self.writer.write_data(_CallSummary, {
            "kind": _CallSummary.KIND, "seq": next_seq(), "time": _now(), "index": index,
            "call": finished.call, "tape": finished.tape, "sources": sources, "norm": norm,
            "scalars": scalars, "full": bool(why), "why": why, "lead_up": lead_up,
            "lead_up_dropped": lost})

    def _written(self, call: _Call) -> None:
        """A call kept: its events to the file now, and so will be those that follow it."""
        call.state = WRITTEN
        self._send(call)
        self._unhold(call)

    def _send_tail(self, call: _Call) -> None:
        """A call kept for being first or N-th gets the end of the call before it, still in
        the ring: what ran between the two (the last update, a regulariser computed before
        its tape opens: the graph draws it as a ghost). Its head waits as before."""
        self._write(call.events, call.finished, len(call.events))
        call.tail = True

    def _let_go(self, old: _Call) -> None:
        """A call leaves the ring unwritten (or never joins it): its events go, and so will
        those that follow it."""
        if old.state == RING:
            self.ring_held -= old.bytes
        old.state = GONE
        old.events = []
        self._unhold(old)

    def _unhold(self, call: _Call) -> None:
        """The threads whose events went to ``call`` now bring them to :meth:`on_event`. (One
        the engine was appending meanwhile is written with the next, or at close.)"""
        for thread, where in self._where.items():
            if where is call:
                self.held.pop(thread, None)

    # --- the ring -----------------------------------------------------------------------------
    def _send(self, call: _Call) -> None:
        """Hand the writer the events of ``call`` it does not have yet: from ``sent`` to the
        end (its thread may still be appending, see _unhold), or to its tail when the tail
        went already (``_send_tail``; nothing is appended to a call in the ring)."""
        if call.tail:
            self._write(call.events, call.sent, call.finished)
            call.sent, call.tail = len(call.events), False
        else:
            call.sent = self._write(call.events, call.sent, None)

    def _write(self, events: list, start: int, end) -> int:
        """Write ``events[start:end]`` (to the end of the list as it grows, for None), made
        now and built by the writer; returns where it stopped. The first :data:`MEASURED`
        events of each kind are measured: the ring counts an event not written as the mean of
        its kind's (:data:`UNMEASURED_BYTES` before any)."""
        learned_all = self._learned
        while start < (len(events) if end is None else end):
            item = events[start]
            start += 1
            event = _made(item)
            learned = learned_all.get(item[0])
            if learned is None or learned[1] < MEASURED:
                size = self._measure(event)
                if learned is None:
                    learned = learned_all[item[0]] = [0, 0]
                learned[0] += size
                learned[1] += 1
                self._means[item[0]] = learned[0] // learned[1]
            self.writer.write(event)
        return start

    def _measure(self, event) -> int:
        try:
            data = event.to_dict()
        except Exception:           # the writer counts it as dropped if it comes to that
            return 1024
        try:
            if self._dumps is not None:
                return len(self._dumps(data))
        except Exception:           # a type orjson refuses: the strict way measures
            pass
        try:
            return len(_encode(sanitize(data)))
        except Exception:
            return 1024

    def _settle(self, held: _Call) -> None:
        """Count the events of ``held``, a call in the ring, once its thread's next call
        begins (its own and what followed it), by kind (no event is made): the arrays they
        keep alive (``flight_memory``) and their bytes in the file; the oldest calls go until
        the ring fits its bound."""
        if held.state != RING or held.counted == len(held.events):
            return
        new = held.events[held.counted:]
        arrays = array_bytes(new)
        # (each event at its kind's mean, summed without a Python loop: this runs every call)
        size = sum(map(self._means.get, map(_kind_of, new), repeat(UNMEASURED_BYTES)))
        size += arrays
        held.counted += len(new)
        held.arrays += arrays
        held.bytes += size
        self.ring_held += size
        while self.ring_held > self.policy.ring_bytes and self.ring:
            old = self.ring.popleft()
            self._let_go(old)
            self.ring_dropped += 1
            self._dropped.append(old.index)

    # --- closing ------------------------------------------------------------------------------
    def close(self) -> None:
        """Write what is left: the events of a call still under way (the run may have stopped
        in it), those the engine added to a written call after it was written, and the
        scalars logged since the last call. The ring's calls go: no anomaly can come for them
        now, and the recording object may outlive its file (``with tv.record(p) as rec``)
        while their events hold every tensor of those steps."""
        with self._lock:
            for held in self.ring:
                self._let_go(held)
            self.ring.clear()
            self.ring_held = 0
            left = []
            for call in {id(c): c for c in self._where.values()}.values():
                if call.state == UNDER_WAY:
                    left += call.events
                elif call.state == WRITTEN:
                    left += call.events[call.sent:]
            left += [(_Scalar, s) for s in self._scalars]
            self._where.clear()
            self.held.clear()
            self._scalars = []
        for item in sorted(left, key=_seq_of):
            self.writer.write(_made(item))
