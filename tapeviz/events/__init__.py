"""The tape event schema: small, versioned, plain data, and the subscribers that receive it.

Every event is a frozen dataclass with a ``kind`` (its class's ``KIND``), a global ``seq``
number and a wall-clock ``time``. Payloads are JSON-ready: numbers, strings, lists, dicts and
``None`` only, so the same objects travel to in-process subscribers and, one JSON object per
line, to recordings. Tensors appear as *tensor refs*: ``{"id", "name", "shape", "dtype",
"kind", "trainable", "node", "summary"}`` where ``summary`` is what :func:`summarize`
returns. Subscribe with :func:`subscribe` or :func:`capture`; record to a file with
``tapeviz.record`` (``tapeviz/recording/``).

The kinds live in ``kinds.py``, payloads built on first read in ``deferred.py``, the JSON form
in ``codec.py``, array summaries in ``summary.py``, argument checks in ``checks.py``, the
memory sink in ``capture.py``, the report of a raising subscriber in ``report.py``; this
module delivers events to subscribers (its ``ACTIVE`` flag is what the engine checks). The
schema is documented in ``docs/events.md``. Readers ignore unknown kinds and fields; nothing
is renamed without bumping :data:`SCHEMA_VERSION`.
"""
from __future__ import annotations

import collections
import os
import threading
from typing import Any, Callable
from weakref import ref as _weakref

from .capture import Captured, capture  # noqa: F401
from .codec import from_dict, sanitize  # noqa: F401
from .deferred import (Lazy, _seq, deferred, deferred_at, engine_built, make,  # noqa: F401
                       materialize, preset, unbuilt)
from .deferred import _now
from .kinds import (EVENT_TYPES, SCHEMA_VERSION, BackwardStep, CallSummary,  # noqa: F401
                    Escaped, Event,
                    GradientFinished, GradientStarted, OpDefined, OpRecorded, RecordingClosed,
                    Note, RecordingPaused, RecordingResumed, Scalar, TapeClosed, TapeOpened,
                    VariableAssigned, Watched)
from .checks import scalar_step, scalar_value, subscribed_kinds
from .report import report as _report
from .summary import _SUMMARY_CACHE, _summaries, config, summarize  # noqa: F401

# ---------------------------------------------------------------------------------------------
# subscribers

#: True while anyone listens. The engine checks this flag and builds no event otherwise.
ACTIVE = False
#: True while anyone wants ``op_recorded`` (or ``op_defined``) / ``backward_step`` events: the
#: engine builds its per-op events only then (see ``subscribe(kinds=...)``).
OP_EVENTS = False
STEP_EVENTS = False
_subscriptions: list["Subscription"] = []
_callbacks: tuple = ()            # (callback, subscription) pairs: what emit() walks
_generation = 0                   # see subscriptions_generation()
_filtered = False                 # some subscriber takes only some kinds: emit() uses _routes
_routes: dict = {}                # event class -> the (callback, subscription) pairs it goes to
_lock = threading.RLock()
_busy: set = set()               # ids of the threads inside a subscriber or inside paused():
                                  # their events drop
_ident = threading.get_ident
_definitions: dict = {}           # op name -> its OpDefined event, replayed to late subscribers
_only_to: dict = {}               # thread id -> the pair its events go to, inside
                                  # delivered_only_to()
_exclusive = 0                    # how many threads are inside delivered_only_to()
_TRACK_UNBUILT = False            # some subscriber may keep unbuilt events unbounded
#: While the only subscriber is one that holds the engine's per-op events itself (a flight
#: recording, see ``subscribe(holds=...)``): its dict, thread id -> the list where that
#: thread's per-op events go now, unmade, as ``(cls, seq, time, build, args)``; else None.
_held = None


def _after_fork_in_child() -> None:
    """A lock held by another thread at fork time would be held for ever in the child."""
    global _lock
    _lock = threading.RLock()
    _busy.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _update_active() -> None:
    """Recompute the flags and forget the routes (after any change of the subscribers)."""
    global ACTIVE, OP_EVENTS, STEP_EVENTS, _filtered, _TRACK_UNBUILT, _held
    _routes.clear()
    only = _subscriptions[0] if len(_subscriptions) == 1 and not _exclusive else None
    _held = only.holds if only is not None and only.kinds is None else None
    _TRACK_UNBUILT = _exclusive > 0 or any(s.holds_unbuilt for s in _subscriptions)
    # (a thread inside delivered_only_to() has its own route: `_route` is then asked)
    _filtered = _exclusive > 0 or any(s.kinds is not None for s in _subscriptions)
    ACTIVE = bool(_subscriptions) or _exclusive > 0
    OP_EVENTS = ACTIVE and (_exclusive > 0 or _wanted_by_any("op_recorded", "op_defined"))
    STEP_EVENTS = ACTIVE and (_exclusive > 0 or _wanted_by_any("backward_step"))


def _wanted_by_any(*kinds) -> bool:
    return any(s.kinds is None or not s.kinds.isdisjoint(kinds) for s in _subscriptions)


def _route(cls) -> tuple:
    """The (callback, subscription) pairs an event of class ``cls`` goes to, remembered until
    the subscribers change (emit() asks only while some subscriber takes some kinds only, or
    some thread is inside delivered_only_to())."""
    if _exclusive:
        only = _only_to.get(_ident())
        if only is not None:
            return only
    pairs = _routes.get(cls)
    if pairs is None:
        with _lock:    # (a route made while the subscribers change would outlive the change)
            pairs = _callbacks if not _filtered else tuple(
                (callback, s) for callback, s in _callbacks
                if s.kinds is None or getattr(cls, "KIND", None) in s.kinds)
            _routes[cls] = pairs
    return pairs


def wanted(cls) -> bool:
    """True when a subscriber would receive an event of class ``cls`` now: code that does
    extra work for one kind of event (an explanation for ``gradient_finished``) asks first."""
    return ACTIVE and not muted() and bool(_route(cls))


def muted() -> bool:
    """True when this thread's events are dropped (inside a subscriber or `paused()`)."""
    return bool(_busy) and _ident() in _busy


class paused:
    """Deliver no events of this thread inside this block (for tapeviz's own internal work,
    such as explanations that recompute gradients); other threads' events are delivered as
    usual. Nests, and inside a subscriber (whose events drop anyway) it changes nothing.
    `ACTIVE` is the process's flag: the engine may still build an event here, then drops it."""

    def __enter__(self):
        me = _ident()
        self._outer = me in _busy
        _busy.add(me)
        return self

    def __exit__(self, *exc):
        if not self._outer:
            _busy.discard(_ident())


class delivered_only_to:
    """Inside this block every event of this thread goes to ``callback`` alone, even with no
    subscriber; other threads' events go to the subscribers as usual.

    For a view that replays a tape's past gradient calls to learn their backward steps: the
    recorders and other views already saw those calls (or chose not to), so they must not
    receive them twice."""

    def __init__(self, callback):
        self._pair = ((callback, Subscription(callback)),)

    def __enter__(self):
        global _exclusive
        me = _ident()
        with _lock:
            self._outer = _only_to.get(me)
            _only_to[me] = self._pair
            if self._outer is None:
                _exclusive += 1
            _update_active()
        return self

    def __exit__(self, *exc):
        global _exclusive
        me = _ident()
        with _lock:
            if self._outer is None:
                del _only_to[me]
                _exclusive -= 1
            else:
                _only_to[me] = self._outer
            _update_active()


class Subscription:
    """Returned by :func:`subscribe`; ``close()`` it, or use it as a context manager."""

    __slots__ = ("callback", "kinds", "failed", "closed", "holds_unbuilt", "holds")

    def __init__(self, callback, kinds: frozenset | None = None, holds_unbuilt: bool = True,
                 holds: dict | None = None):
        self.callback = callback
        self.kinds = kinds       # the event kinds it receives (None: all)
        self.failed = False      # it raised once: reported, further errors ignored
        self.closed = False
        self.holds_unbuilt = holds_unbuilt   # see subscribe()
        self.holds = holds                   # see subscribe()

    def close(self) -> None:
        """Stop delivering events to this subscriber (idempotent)."""
        with _lock:
            self.closed = True
            try:
                _subscriptions.remove(self)
            except ValueError:
                return
            _resubscribed()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"<Subscription {self.callback!r}{' closed' if self.closed else ''}>"


def subscribe(callback: Callable[[Event], Any], replay_definitions: bool = False,
              kinds=None, holds_unbuilt: bool = True, holds: dict | None = None
              ) -> Subscription:
    """Call ``callback(event)`` for every event from now on.

    ``kinds`` (an iterable of kind names such as ``"gradient_finished"``) limits it to those
    events. The engine builds its per-op events (``op_recorded``, ``backward_step``) only while
    a subscriber wants them, so a subscriber of gradient results alone costs a training loop
    nothing per op.

    With ``replay_definitions=True`` the callback first receives the ``op_defined`` event of
    every op already used in this process (each op announces itself once per process), so
    what it receives describes itself, as a recording must.

    ``holds_unbuilt=False`` says the subscriber itself bounds the unbuilt events it keeps
    (a recording's ring of a few calls): while every subscriber says so, delivered events
    are not tracked for :data:`MAX_UNBUILT`, so none is built unless someone reads it.

    ``holds``: a dict (thread id -> list) the subscriber fills and empties itself: while it
    is the only subscriber, the engine's per-op events (``emit_deferred``) of a thread that
    has a list there are not made nor delivered: ``(cls, seq, time, build, args)`` is
    appended to that list, and :func:`deferred_at` makes from it the event the others would
    have got. A flight recording holds a call's events so: a call it does not keep costs an
    append per event. A thread with no list there gets its events delivered as usual.

    A callback that raises is reported once as a ``RuntimeWarning`` and kept; the user's
    program never sees the error. Events emitted while a callback runs (tapeviz ops it
    calls itself) are not delivered, so a subscriber cannot feed itself.

    >>> seen = []
    >>> with subscribe(seen.append):
    ...     log_scalar("loss", 0.5)
    >>> [e.kind for e in seen]
    ['scalar']
    """
    if not callable(callback):
        raise TypeError(f"subscribe() needs a callable taking one event, got {callback!r}")
    if holds is not None and type(holds) is not dict:
        raise TypeError(f"subscribe(holds=...) takes a dict, got {type(holds).__name__}")
    sub = Subscription(callback, subscribed_kinds(kinds), bool(holds_unbuilt), holds)
    with _lock:
        if replay_definitions and (sub.kinds is None or "op_defined" in sub.kinds):
            for event in list(_definitions.values()):
                _deliver(callback, sub, event)
        _subscriptions.append(sub)
        _resubscribed()
    return sub


def _resubscribed() -> None:
    """After a subscription came or went (under ``_lock``)."""
    global _callbacks, _generation
    _callbacks = tuple((s.callback, s) for s in _subscriptions)
    _generation += 1
    _update_active()


def subscriptions_generation() -> int:
    """A number that goes up each time a subscription is added or removed, and never on
    emit: code that tells something once to the same subscribers (a run note) compares it
    with the number it saw then. ``delivered_only_to`` does not change it."""
    return _generation


def unsubscribe(callback) -> None:
    """Remove the (first) subscription of ``callback``; unknown callbacks are ignored."""
    with _lock:
        for sub in _subscriptions:
            if sub.callback is callback or sub.callback == callback:
                sub.close()
                return


def subscribers() -> list:
    """The open subscriptions (for diagnostics)."""
    return list(_subscriptions)


def next_seq() -> int:
    return next(_seq)


def emit(event: Event) -> None:
    """Deliver to every subscriber; a subscriber that raises is reported once and kept."""
    if type(event) is OpDefined:
        _definitions[event.op] = event
    if _busy and _ident() in _busy:
        return
    _deliver_all(_route(type(event)) if _filtered else _callbacks, event)


def emit_deferred(cls, build, *args) -> None:
    """``emit(deferred(cls, build, *args))`` in one call, for the engine's per-op events:
    nothing is built when nobody wants this kind, or while a subscriber runs (such events are
    dropped anyway)."""
    if _busy and _ident() in _busy:
        return
    if _held is not None:
        held = _held.get(_ident())
        if held is not None:
            held.append((cls, next(_seq), _now(), build, args))
            return
    pairs = _route(cls) if _filtered else _callbacks
    if pairs:
        _deliver_all(pairs, deferred_at(cls, next(_seq), _now(), build, args))


def _deliver_all(pairs, event) -> None:
    me = _ident()
    _busy.add(me)
    try:
        for callback, sub in pairs:
            try:
                callback(event)
            except Exception as exc:  # a broken listener must never break the user's program
                _report(sub, exc)
    finally:
        _busy.discard(me)
    if _TRACK_UNBUILT and getattr(event, "_build", None):     # (unbuilt: see deferred.py)
        _unbuilt.append(_weakref(event))
        if len(_unbuilt) > MAX_UNBUILT + UNBUILT_SLACK:
            _build_oldest_unbuilt()


def _deliver(callback, sub, event):
    me = _ident()
    outer = me in _busy     # (subscribing inside paused(): the thread stays paused)
    _busy.add(me)
    try:
        callback(event)
    except Exception as exc:
        _report(sub, exc)
    finally:
        if not outer:
            _busy.discard(me)


#: At most this many delivered events stay unbuilt while a subscriber holds them: older ones
#: are built then, so a subscriber that keeps events unread cannot keep every array alive.
MAX_UNBUILT = 2048
#: ... checked that often: the oldest are built when this many more wait (not on every event)
UNBUILT_SLACK = 256
_unbuilt = collections.deque()    # weak references to the events delivered unbuilt, in order


def _build_oldest_unbuilt() -> None:
    """``_deliver_all`` remembers (weakly) each event its subscribers did not read: once more
    than MAX_UNBUILT wait, the oldest still alive and unbuilt are built, which lets go of
    their tensors. An event nobody kept is gone by then, and its weak reference is simply
    dropped."""
    waiting = _unbuilt
    while len(waiting) > MAX_UNBUILT:
        old = waiting.popleft()()
        if old is not None and unbuilt(old):
            try:
                materialize(old)
            except Exception:   # reported to whoever reads it; never to the user's program
                pass


def log_scalar(name: str, value, step: int | None = None) -> None:
    """Report a number (a loss, an accuracy) for the dashboard's training charts.

    `value`: a Python number, a NumPy scalar or a 0-d tensor (as `tf.summary.scalar`, which
    refuses a one-element vector too); `step`: an int, a 0-d integer tensor or variable (such
    as `optimizer.iterations`), or None. The arguments are checked whether anyone listens or
    not, so a script that works unrecorded works recorded."""
    number = scalar_value(name, value)
    step = None if step is None else scalar_step(name, step)
    if ACTIVE:
        emit(make(Scalar, name=name, value=number, step=step))
