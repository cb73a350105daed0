"""The engine's per-op event delivery, `events.emit_deferred`: numbering, routing, the
threads inside a subscriber, broken subscribers, and payloads built only when read."""
import threading
import time
import warnings

import numpy as np
import pytest

import tapeviz as tv
from tapeviz import events


def _train():
    v = tv.Variable(np.arange(6, dtype=np.float32).reshape(2, 3), name="v")
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.sin(v) * 2.0)
    g = tape.gradient(y, v)
    v.assign_sub(0.5 * g)
    return v


def test_events_are_numbered_in_order_and_stamped_now():
    before = time.time()
    with events.capture() as got:
        _train()
    after = time.time()
    seqs = [e.seq for e in got]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert all(before - 1e-3 <= e.time <= after + 1e-3 for e in got)


def test_nothing_is_built_without_a_subscriber():
    built = []
    assert not events._callbacks
    assert events.emit_deferred(events.OpRecorded, lambda: built.append(1) or {}) is None
    assert built == []


def test_payloads_wait_until_read():
    calls = []

    def build(x):
        calls.append(x)
        return {"op": "Probe", "node": x}
    with events.capture() as got:
        events.emit_deferred(events.OpRecorded, build, 7)
        assert calls == []                      # delivered unbuilt
        assert got[0].op == "Probe" and got[0].node == 7 and calls == [7]


def test_a_subscriber_of_some_kinds_gets_only_those():
    steps = []
    with events.subscribe(steps.append, kinds={"backward_step"}):
        _train()
    assert steps and {e.kind for e in steps} == {"backward_step"}


def test_events_of_a_subscribers_own_ops_are_dropped_in_its_thread_only():
    got = []
    with events.subscribe(got.append):
        events._busy.add(threading.get_ident())      # as if this thread ran a subscriber
        try:
            _train()
        finally:
            events._busy.discard(threading.get_ident())
        assert [e for e in got if e.kind in ("op_recorded", "backward_step")] == []
        events._busy.add(-1 & 0xFFFF)                # another thread inside a subscriber
        try:
            _train()
        finally:
            events._busy.discard(-1 & 0xFFFF)
    assert any(e.kind == "op_recorded" for e in got)


def test_another_thread_is_heard_while_this_one_is_inside_a_subscriber():
    heard = []

    def worker():
        tv.constant(2.0) * tv.constant(3.0)

    def listener(event):
        if event.kind != "op_recorded":
            return
        heard.append((threading.get_ident(), event.kind))
        if len(heard) == 1:            # inside a subscriber: another thread's ops still count
            t = threading.Thread(target=worker)
            t.start()
            t.join()
    with events.subscribe(listener):
        tv.constant(1.0) + tv.constant(1.0)
    me = threading.get_ident()
    assert [k for who, k in heard if who == me] == ["op_recorded"]
    assert [k for who, k in heard if who != me] == ["op_recorded"]
    assert not events._busy and len(events._busy) == 0


def test_a_subscriber_that_runs_ops_does_not_feed_itself():
    got = []

    def busy_listener(event):
        got.append(event.kind)
        tv.constant(2.0) * tv.constant(3.0)          # its own ops: no events for them
    with events.subscribe(busy_listener):
        x = tv.Variable(1.0)
        with tv.GradientTape() as tape:
            y = x * x
        tape.gradient(y, x)
    assert got.count("op_recorded") == 1
    assert not events._busy                          # nothing left marked busy


def test_a_raising_subscriber_is_reported_once_and_the_others_still_get_every_event():
    others = []

    def broken(event):
        raise RuntimeError("listener bug")
    with events.subscribe(broken), events.subscribe(others.append):
        with pytest.warns(RuntimeWarning, match="listener bug") as caught:
            _train()
            _train()
    assert len([w for w in caught if "listener bug" in str(w.message)]) == 1
    assert sum(e.kind == "op_recorded" for e in others) >= 4
    assert not events._busy


def test_keyboard_interrupt_in_a_subscriber_reaches_the_user():
    def interrupt(event):
        if event.kind == "op_recorded":
            raise KeyboardInterrupt
    with events.subscribe(interrupt):
        x = tv.Variable(2.0)
        with pytest.raises(KeyboardInterrupt):
            with tv.GradientTape():
                x * x
    assert not events._busy                          # the guard was undone on the way out
    with events.capture() as got:
        _train()
    assert any(e.kind == "op_recorded" for e in got)


def test_kept_unread_events_are_built_once_too_many_wait(monkeypatch):
    monkeypatch.setattr(events, "MAX_UNBUILT", 2)
    monkeypatch.setattr(events, "UNBUILT_SLACK", 0)
    with events.capture() as got:
        _train()
    ops = got.of("op_recorded")
    assert len(ops) > 2
    assert not events.unbuilt(ops[0])                 # built: it holds no arrays any more
    assert events.unbuilt(ops[-1])                    # the newest still wait for a read


def test_a_callback_that_drops_the_event_leaves_nothing_alive():
    events._unbuilt.clear()
    with events.subscribe(lambda e: None):
        _train()
    assert events._unbuilt and all(ref() is None for ref in events._unbuilt)


def test_emit_deferred_needs_a_class_and_a_builder():
    with pytest.raises(TypeError):
        events.emit_deferred(events.OpRecorded)
    with events.subscribe(lambda e: None), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(TypeError):
            events.emit_deferred(int, lambda: {})     # not an event class


# --- event objects nobody kept --------------------------
def _probe(node, **extra):
    return {"op": "Probe", "node": node, **extra}


def test_an_event_dropped_after_delivery_says_only_its_own_fields():
    """Whatever a subscriber did to an event it let go, the next event is fresh: its fields,
    stamps and payload are its own."""
    seen = []

    def meddle(e):
        seen.append((e.seq, e.op, e.node, e.attrs))
        if e.node == 1:       # written past the frozen dataclass, then the event is dropped
            object.__setattr__(e, "attrs", {"left": "behind"})
            assert e.attrs == {"left": "behind"}
    with events.subscribe(meddle), warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        events.emit_deferred(events.OpRecorded, _probe, 1)
        events.emit_deferred(events.OpRecorded, _probe, 2)
        events.emit_deferred(events.OpRecorded, lambda n: _probe(n, attrs={"own": 1}), 3)
    assert not warned
    assert [s[1:] for s in seen] == [("Probe", 1, {}), ("Probe", 2, {}), ("Probe", 3, {"own": 1})]
    assert seen[0][0] < seen[1][0] < seen[2][0]


def test_events_a_subscriber_keeps_strongly_or_weakly_are_never_reused():
    import weakref
    kept, weak, dropped_ids = [], [], []

    def keep_some(e):
        if e.node % 3 == 0:
            kept.append(e)
        elif e.node % 3 == 1:
            weak.append(weakref.ref(e))
            weak.append(e.node)
    with events.subscribe(keep_some):
        for i in range(12):
            events.emit_deferred(events.OpRecorded, _probe, i)
    assert [e.node for e in kept] == [0, 3, 6, 9]
    assert len({id(e) for e in kept}) == 4
    assert all(ref() is None for ref in weak[::2])   # dropped: gone, not handed out again


def test_a_dropped_event_holds_no_arguments():
    import weakref

    class Big:
        pass
    big = Big()
    alive = weakref.ref(big)
    with events.subscribe(lambda e: None):
        events.emit_deferred(events.OpRecorded, lambda b: _probe(0), big)
        del big
    assert alive() is None       # the unbuilt payload's arguments went with the event
