"""A flight recording: a summary of every gradient call, and the full events of the few
calls worth them, so a recording can stay on for a whole training run.

``tv.record(path, flight=True)`` (or ``TAPEVIZ_RECORD_FLIGHT=1``) puts a
:class:`FlightRecorder` between the event stream and the writer. It cuts the stream into
calls: a call's events run from the tape opening (or ``gradient_started``) that begins it to
its ``gradient_finished``; what follows until the next call begins (the optimizer's updates,
a logged loss) goes with it. For every call it writes one ``call_summary`` line; the call's
own events only for the first ``first`` calls, every ``every``-th call, and every call where
a source's verdict is not ``value`` or the global gradient norm is more than ``jump`` times
its running median. The last ``before`` calls not written wait in a ring buffer of at most
``ring_bytes`` (the bytes their events would take in the file; the oldest call goes first,
and is counted) and are written just before such an anomalous call. Their events wait
unbuilt: a payload is built only if it is written (and an event held past
``tv.events.MAX_UNBUILT`` newer ones is built then), so a call that is never written costs
its delivery and its summary, not its summaries of every op.

Buffered events are handed to the writer as events, in the order they are written, so the
writer's tables (``tables.py``) name a site or a tensor ref only after the line that defines
it, whatever was written or skipped in between. ``op_defined`` events belong to no call and
are written at once; events before the first call too. A tape that closes with no gradient
call and is followed by another tape is let go. Imports: stdlib, ``events`` and ``encode``.
"""
from __future__ import annotations

import collections
import math
import threading

from .. import events as _events
from ..events import sanitize, unbuilt
from .encode import _encode, _fast_dumps

_OpDefined, _Scalar = _events.OpDefined, _events.Scalar
_TapeOpened, _TapeClosed = _events.TapeOpened, _events.TapeClosed
_GradientStarted, _GradientFinished = _events.GradientStarted, _events.GradientFinished

#: How many earlier calls' global gradient norms the running median is taken over, and how
#: many it needs before a jump can be told.
MEDIAN_WINDOW = 100
MEDIAN_MIN = 3
#: Events of one kind measured before the ring counts the rest of that kind at their mean.
MEASURED = 4
_WRITE = "write"        # where the events after a written call go: straight to the file


class FlightPolicy:
    """What a flight recording keeps (see the module's doc); ``tv.record(path,
    flight=dict(every=50))`` takes these as a dict."""

    __slots__ = ("first", "every", "before", "jump", "ring_bytes")

    def __init__(self, first: int = 3, every: int = 100, before: int = 5, jump: float = 10.0,
                 ring_bytes: int = 64 << 20):
        for name, value in (("first", first), ("every", every), ("before", before),
                            ("ring_bytes", ring_bytes)):
            if type(value) is not int or value < 0:
                raise ValueError(f"tv.record(flight=...): {name} must be an int >= 0, got "
                                 f"{value!r} (every=0 keeps no periodic calls)")
        if isinstance(jump, bool) or not isinstance(jump, (int, float)) or not jump > 1:
            raise ValueError(f"tv.record(flight=...): jump must be a number > 1 (the factor "
                             f"over the running median that counts as a jump), got {jump!r}")
        self.first, self.every, self.before = first, every, before
        self.jump, self.ring_bytes = float(jump), ring_bytes

    def as_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.__slots__}


def policy_from(option) -> FlightPolicy | None:
    """``flight=`` of ``tv.record``: False/None (every event), True (the defaults), a dict of
    :class:`FlightPolicy` arguments, or a policy."""
    if option is None or option is False:
        return None
    if option is True:
        return FlightPolicy()
    if isinstance(option, FlightPolicy):
        return option
    if isinstance(option, dict):
        try:
            return FlightPolicy(**option)
        except TypeError as exc:
            raise TypeError(f"tv.record(flight=...): {exc}; it takes first, every, before, "
                            "jump and ring_bytes") from None
    raise TypeError(f"tv.record(flight=...) takes True, False, a dict of options or a "
                    f"FlightPolicy, got {type(option).__name__}")


class _Held:
    """A call waiting in the ring: its events, built, and the bytes they would take."""
    __slots__ = ("index", "events", "bytes", "gone")

    def __init__(self, index: int):
        self.index, self.events, self.bytes, self.gone = index, [], 0, False


class _Open:
    """A call under way in one thread: its events so far and how many tapes it has open."""
    __slots__ = ("events", "tapes", "gradient")

    def __init__(self):
        self.events, self.tapes, self.gradient = [], 0, False


class FlightRecorder:
    """Subscribes in the writer's place; hands it what the policy keeps (``writer.write``)."""

    def __init__(self, writer, policy: FlightPolicy):
        self.writer = writer
        self.policy = policy
        self.calls = 0                  # gradient calls seen
        self.ring: collections.deque = collections.deque()     # _Held, oldest first
        self.ring_held = 0              # bytes of the calls in the ring
        self.ring_dropped = 0           # calls the byte bound let go, over the whole run
        self._dropped = collections.deque(maxlen=max(policy.before, 1))  # their indices
        self._open: dict = {}           # thread id -> _Open
        self._after: dict = {}          # thread id -> where events after its last call go
        self._scalars: list = []
        self._norms = collections.deque(maxlen=MEDIAN_WINDOW)
        self._dumps = _fast_dumps()
        self._learned: dict = {}        # event class -> [bytes measured, events measured]
        self._lock = threading.Lock()

    # --- the subscriber -----------------------------------------------------------------------
    def on_event(self, event) -> None:
        cls = type(event)
        if cls is _OpDefined:       # belongs to no call: every later op line may need it
            self.writer.write(event)
            return
        me = threading.get_ident()
        with self._lock:
            if cls is _Scalar:
                self._scalars.append(event)
                return
            call = self._open.get(me)
            if call is not None and cls is _TapeOpened and not call.tapes and not call.gradient:
                call = None         # its tapes closed with no gradient call: let go
            if call is None:
                if cls is not _TapeOpened and cls is not _GradientStarted:
                    self._after_call(me, event)
                    return
                call = self._open[me] = _Open()
            call.events.append(event)
            if cls is _TapeOpened:
                call.tapes += 1
            elif cls is _TapeClosed and call.tapes:
                call.tapes -= 1
            elif cls is _GradientStarted:
                call.gradient = True
            elif cls is _GradientFinished:
                del self._open[me]
                self._finish(me, call.events, event)

    def _after_call(self, me, event) -> None:
        """An event between calls goes where its thread's last call went."""
        where = self._after.get(me, _WRITE)        # before any call: written
        if where is _WRITE:
            self.writer.write(event)
        elif where is not None and not where.gone:
            where.events.append(event)
            self._grow(where, self._size(event))

    # --- deciding -----------------------------------------------------------------------------
    def _finish(self, me, events: list, finished) -> None:
        self.calls += 1
        index, policy = self.calls, self.policy
        sources, squares, anomaly = [], 0.0, False
        for r in finished.results if type(finished.results) is list else ():
            if type(r) is not dict:
                continue
            ref = r.get("tensor")
            name = r.get("source_name") or (ref.get("name") if type(ref) is dict else None)
            norm, verdict = r.get("norm"), r.get("verdict")
            sources.append({"name": name, "norm": norm, "verdict": verdict})
            anomaly = anomaly or verdict != "value"
            if type(norm) in (int, float) and math.isfinite(norm):
                squares += norm * norm
        norm = math.sqrt(squares) if sources and math.isfinite(squares) else None
        why = ""
        if anomaly:
            why = "verdict"
        elif norm is not None and len(self._norms) >= MEDIAN_MIN:
            median = sorted(self._norms)[len(self._norms) // 2]
            if median > 0 and norm > policy.jump * median:
                why = "jump"
        if not why and index <= policy.first:
            why = "first"
        elif not why and policy.every and index % policy.every == 0:
            why = "every"
        if norm is not None:
            self._norms.append(norm)
        lead_up, lost = [], 0
        if why in ("verdict", "jump"):
            # (a call kept in between leaves an older one in the ring: not part of it)
            ring = [held for held in self.ring if held.index >= index - policy.before]
            lead_up = [held.index for held in ring]
            lost = sum(1 for i in self._dropped if i >= index - policy.before)
            for held in ring:
                for event in held.events:
                    self.writer.write(event)
            for held in self.ring:
                held.gone = True
            for thread, where in self._after.items():   # what follows a written call: too
                if where in ring:
                    self._after[thread] = _WRITE
            self.ring.clear()
            self.ring_held = 0
            self._dropped.clear()
        if why:
            for event in events:
                self.writer.write(event)
            self._after[me] = _WRITE
        elif policy.before:
            held = _Held(index)
            self.ring.append(held)
            while len(self.ring) > policy.before:     # older than the lead-up: not lost
                old = self.ring.popleft()
                old.gone = True
                self.ring_held -= old.bytes
            self._after[me] = held
            held.events = events
            self._grow(held, sum(self._size(e) for e in events))
        else:
            self._after[me] = None
        scalars = [{"name": s.name, "value": s.value, "step": s.step} for s in self._scalars]
        self._scalars = []
        self.writer.write(_events.make(
            _events.CallSummary, index=index, call=finished.call, tape=finished.tape,
            sources=sanitize(sources), norm=norm, scalars=sanitize(scalars), full=bool(why),
            why=why, lead_up=lead_up, lead_up_dropped=lost))

    # --- the ring -----------------------------------------------------------------------------
    def _size(self, event) -> int:
        """About the bytes ``event`` would take in the file (refs and sites in full). The
        first :data:`MEASURED` events of each kind are built and measured; later ones are
        counted at their kind's mean and stay unbuilt (built only if written)."""
        cls = type(event)
        learned = self._learned.get(cls)
        if learned is not None and learned[1] >= MEASURED and unbuilt(event):
            return learned[0] // learned[1]
        size = self._measure(event)
        if learned is None:
            self._learned[cls] = [size, 1]
        else:
            learned[0] += size
            learned[1] += 1
        return size

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

    def _grow(self, held: _Held, size: int) -> None:
        """``size`` more bytes for ``held``; the oldest calls go until the ring fits its bound."""
        held.bytes += size
        self.ring_held += size
        while self.ring_held > self.policy.ring_bytes and self.ring:
            old = self.ring.popleft()
            old.gone = True
            old.events = []
            self.ring_held -= old.bytes
            self.ring_dropped += 1
            self._dropped.append(old.index)

    # --- closing ------------------------------------------------------------------------------
    def close(self) -> None:
        """Write what is left: the events of a call still under way (the run may have stopped
        in it) and the scalars logged since the last call."""
        with self._lock:
            left = [e for call in self._open.values() for e in call.events] + self._scalars
            self._open.clear()
            self._scalars = []
        for event in sorted(left, key=lambda e: e.seq):
            self.writer.write(event)
