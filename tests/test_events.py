"""The event stream: subscribers, capture, sites, summaries, and the JSON form of events."""
import inspect
import json
import math
import sys
import warnings
import weakref

import numpy as np
import pytest

import tapeviz as tv
from tapeviz import events


def _line():
    """The line number of the caller."""
    return inspect.currentframe().f_back.f_lineno


def _strict_json(obj) -> str:
    return json.dumps(obj, allow_nan=False)


@pytest.fixture(autouse=True)
def _no_leftover_subscribers():
    before = events.subscribers()
    yield
    assert events.subscribers() == before, "a test left a subscriber behind"


# --- subscribe / unsubscribe ------------------------------------------------------------------

def test_subscribe_and_close_restore_active_flag():
    assert events.ACTIVE is False
    seen = []
    sub = events.subscribe(seen.append)
    assert events.ACTIVE is True
    with events.subscribe(lambda e: None):
        assert events.ACTIVE is True
    assert events.ACTIVE is True          # the first subscriber is still there
    sub.close()
    assert events.ACTIVE is False
    sub.close()                           # idempotent
    assert events.ACTIVE is False
    events.unsubscribe(seen.append)       # unknown: ignored
    assert events.ACTIVE is False


def test_unsubscribe_by_callback_and_same_callback_twice():
    seen = []
    events.subscribe(seen.append)
    events.subscribe(seen.append)
    events.log_scalar("a", 1.0)
    assert len(seen) == 2                 # delivered once per subscription
    events.unsubscribe(seen.append)
    assert events.ACTIVE is True
    events.log_scalar("b", 2.0)
    assert len(seen) == 3
    events.unsubscribe(seen.append)
    assert events.ACTIVE is False
    events.log_scalar("c", 3.0)           # nobody listens: nothing is built
    assert len(seen) == 3


def test_the_subscriptions_generation_moves_when_a_subscription_comes_or_goes_only():
    seen = []
    g0 = events.subscriptions_generation()
    sub = events.subscribe(seen.append)
    g1 = events.subscriptions_generation()
    events.log_scalar("a", 1.0)                         # emitting changes nothing
    with events.paused():
        pass
    assert events.subscriptions_generation() == g1 and len(seen) == 1
    with events.delivered_only_to(lambda e: None):      # no subscription comes or goes
        events.log_scalar("b", 2.0)
    assert events.subscriptions_generation() == g1
    other = events.subscribe(lambda e: None)
    g2 = events.subscriptions_generation()
    other.close()
    g3 = events.subscriptions_generation()
    other.close()                                       # closed already: nothing went
    events.unsubscribe(other.callback)                  # unknown now: nothing went
    assert events.subscriptions_generation() == g3
    events.unsubscribe(seen.append)
    g4 = events.subscriptions_generation()
    assert len({g0, g1, g2, g3, g4}) == 5 and g0 < g1 < g2 < g3 < g4
    assert isinstance(g4, int)


def test_subscribe_refuses_a_non_callable():
    with pytest.raises(TypeError, match="callable"):
        events.subscribe(42)
    assert events.ACTIVE is False


def test_no_events_are_built_without_subscribers(monkeypatch):
    # every event tapeviz makes takes the next sequence number (`events.make`, and
    # `events.deferred` for the per-op and per-call events): with nobody listening none is
    # taken, whichever way the engine would build it
    from tapeviz.engine.op import REGISTRY
    for op in REGISTRY.values():         # ops already used would not announce themselves
        monkeypatch.setattr(op, "announced", False)
    x = tv.Variable(2.0)
    before = events.next_seq()
    with tv.GradientTape() as tape:
        y = x * x + 1.0
        with tape.stop_recording():
            tv.exp(y)
        float(y)                          # an escape
    tape.gradient(y, x)
    x.assign_add(1.0)
    events.log_scalar("loss", 1.0)
    assert events.next_seq() == before + 1


def test_capture_collects_a_program_in_order():
    x = tv.Variable(3.0, name="x")
    with events.capture() as seen:
        with tv.GradientTape() as tape:
            y = x * x
        tape.gradient(y, x)
    assert events.ACTIVE is False
    kinds = seen.kinds()
    assert kinds[:2] == ["tape_opened", "watched"]
    assert "op_recorded" in kinds and "tape_closed" in kinds
    assert kinds.index("tape_closed") < kinds.index("gradient_started")
    assert kinds[-1] == "gradient_finished"
    seqs = [e.seq for e in seen]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    (watched,) = seen.of("watched")
    assert watched.how == "auto" and watched.tensor["name"] == "x:0"
    mul = [e for e in seen.of("op_recorded") if e.op == "Mul" and e.backward_of is None][0]
    assert mul.tapes == [tape._id]
    assert mul.outputs[0]["summary"]["value"] == 9.0
    assert seen.of("gradient_finished")[0].results[0]["grad"]["value"] == 6.0


def test_late_subscriber_can_replay_op_definitions():
    a = tv.constant([1.0, 2.0])
    with events.capture():
        tv.exp(a)                                  # Exp announced now (or earlier)
    with events.capture() as plain, events.capture(replay_definitions=True) as replayed:
        pass
    assert plain == []
    defined = {e.op: e for e in replayed.of("op_defined")}
    assert "Exp" in defined and defined["Exp"].formula
    assert len(replayed) == len(replayed.of("op_defined"))


def test_log_scalar_of_a_tensor_does_not_escape_it():
    v = tv.Variable(0.25)
    with events.capture() as seen:
        with tv.GradientTape():
            loss = v * 2.0
            events.log_scalar("loss", loss, step=3)
    assert "escaped" not in seen.kinds()
    (scalar,) = seen.of("scalar")
    assert (scalar.name, scalar.value, scalar.step) == ("loss", 0.5, 3)


# --- sites point at the user's lines ----------------------------------------------------------

def test_sites_point_at_the_lines_of_this_test():
    x = tv.Variable(2.0)
    c = tv.constant(1.5)
    with events.capture() as seen:
        line_tape = _line() + 1
        with tv.GradientTape(persistent=True) as tape:
            line_watch = _line() + 1
            tape.watch(c)
            line_mul = _line() + 1
            y = x * c
            line_pause = _line() + 1
            with tape.stop_recording():
                line_paused_op = _line() + 1
                z = y + 1.0
            line_escape = _line() + 1
            np.sin(y)
            line_assign = _line() + 1
            x.assign_add(1.0)
        line_grad = _line() + 1
        tape.gradient(y, [x, c])
    here = __file__
    by_kind = {}
    for e in seen:
        by_kind.setdefault(e.kind, []).append(e)

    def site_of(e):
        assert e.site["file"] == here, e
        return e.site["line"]

    assert site_of(by_kind["tape_opened"][0]) == line_tape
    assert [site_of(e) for e in by_kind["watched"] if e.how == "watch"] == [line_watch]
    mul = [e for e in by_kind["op_recorded"] if e.op == "Mul" and e.backward_of is None][0]
    assert site_of(mul) == line_mul and mul.site["code"] == "y = x * c"
    assert site_of(by_kind["recording_paused"][0]) == line_pause
    paused = [e for e in by_kind["op_recorded"] if e.skipped == "paused"]
    assert [site_of(e) for e in paused] == [line_paused_op]
    assert site_of(by_kind["escaped"][0]) == line_escape
    assert by_kind["escaped"][0].via == "np.sin"
    assert site_of(by_kind["variable_assigned"][0]) == line_assign
    assert by_kind["variable_assigned"][0].method == "assign_add"
    assert site_of(by_kind["gradient_started"][0]) == line_grad
    assert z is not None


def test_site_inside_a_user_helper_points_into_the_helper():
    def helper(t):
        helper.line = _line() + 1
        return t * 3.0

    x = tv.constant(2.0)
    with events.capture() as seen:
        with tv.GradientTape() as tape:
            tape.watch(x)
            helper(x)
    (op,) = [e for e in seen.of("op_recorded") if e.op == "Mul"]
    assert op.site["line"] == helper.line and op.site["func"] == "helper"


# --- a subscriber that raises -----------------------------------------------------------------

def _train(steps=50):
    rng = np.random.default_rng(1)
    x = tv.constant(rng.normal(size=(16, 3)).astype(np.float32))
    y = tv.constant(rng.normal(size=(16, 1)).astype(np.float32))
    w = tv.Variable(np.zeros((3, 1), np.float32), name="w")
    b = tv.Variable(np.zeros((1,), np.float32), name="b")
    losses = []
    for step in range(steps):
        with tv.GradientTape() as tape:
            loss = tv.reduce_mean(tv.square(tv.matmul(x, w) + b - y))
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(0.1 * gw)
        b.assign_sub(0.1 * gb)
        events.log_scalar("loss", loss, step)
        losses.append(float(loss.numpy()))
    return losses, w.numpy().copy()


def test_raising_subscriber_never_breaks_a_training_loop_and_warns_once():
    expected_losses, expected_w = _train()
    calls = []

    def broken(event):
        calls.append(event.kind)
        raise ZeroDivisionError("listener bug")

    good = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with events.subscribe(broken), events.subscribe(good.append):
            losses, w = _train()
    assert losses == expected_losses and np.array_equal(w, expected_w)
    assert len(calls) == len(good) > 50 * 5        # it kept being called, and kept failing
    assert [e.value for e in good if e.kind == "scalar"] == expected_losses
    mine = [w for w in caught if "listener bug" in str(w.message)]
    assert len(mine) == 1
    assert issubclass(mine[0].category, RuntimeWarning)
    assert "ZeroDivisionError" in str(mine[0].message)
    assert "broken" in str(mine[0].message)
    assert mine[0].filename == __file__              # points at the user's code


def test_raising_subscriber_with_warnings_as_errors_still_does_not_break():
    def broken(event):
        raise ValueError("nope")

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with events.subscribe(broken):
            losses, _ = _train(steps=3)
    assert len(losses) == 3


def test_subscriber_that_runs_tapeviz_ops_does_not_feed_itself():
    seen = []

    def nosy(event):
        seen.append(event.kind)
        tv.reduce_sum(tv.constant([1.0, 2.0]) * 2.0)   # would emit op events again

    with events.subscribe(nosy):
        x = tv.constant(1.0)
        with tv.GradientTape() as tape:
            tape.watch(x)
            y = x + 1.0
    assert seen.count("op_recorded") == 1              # only the user's AddV2
    assert float(y) == 2.0


# --- summaries --------------------------------------------------------------------------------

def test_summary_of_nan_and_inf_counts_and_excludes_them():
    s = events.summarize(np.array([1.0, np.nan, np.inf, -np.inf, -3.0, 0.0], np.float32))
    assert (s["nan"], s["inf"], s["zeros"]) == (1, 2, 1)
    assert (s["min"], s["max"]) == (-3.0, 1.0)
    assert s["mean"] == pytest.approx(-2.0 / 3)
    assert s["norm"] == pytest.approx(math.sqrt(10.0))
    assert s["value"] == [1.0, "nan", "inf", "-inf", -3.0, 0.0]
    _strict_json(s)


def test_summary_of_all_nan_and_large_non_finite_arrays():
    s = events.summarize(np.full(10, np.nan))
    assert s["nan"] == 10 and "min" not in s and s["value"] == ["nan"] * 10
    big = np.ones(1000)
    big[::2] = np.nan
    big[1] = np.inf
    s = events.summarize(big)
    assert (s["nan"], s["inf"]) == (500, 1) and "value" not in s
    assert s["min"] == s["max"] == 1.0 and s["norm"] == pytest.approx(math.sqrt(499))
    _strict_json(s)


def test_summary_of_huge_finite_values_does_not_overflow():
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # and NumPy says nothing about overflow
        s = events.summarize(np.full(1000, 1e300))
    assert s["mean"] == pytest.approx(1e300)
    assert s["norm"] == pytest.approx(1e300 * math.sqrt(1000))
    assert s["nan"] == s["inf"] == 0
    _strict_json(s)
    s = events.summarize(np.full(1000, 1e308))   # the true norm is beyond float64
    assert s["norm"] == "inf"
    _strict_json(s)


def test_large_arrays_have_stats_but_no_value():
    a = np.arange(1000, dtype=np.float64).reshape(10, 100)
    s = events.summarize(a)
    assert "value" not in s
    assert s == {"shape": [10, 100], "dtype": "float64", "size": 1000, "min": 0.0, "max": 999.0,
                 "mean": 499.5, "norm": pytest.approx(float(np.linalg.norm(a))),
                 "nan": 0, "inf": 0, "zeros": 1}


def test_value_limit_is_configurable(monkeypatch):
    a = np.arange(100.0)
    assert "value" not in events.summarize(a)              # default limit 64
    assert events.summarize(np.arange(64.0))["value"] == list(range(64))
    assert events.summarize(a, limit=100)["value"] == list(range(100))
    assert "value" not in events.summarize(np.arange(3.0), limit=2)
    monkeypatch.setitem(events.config, "value_limit", 200)
    assert events.summarize(a)["value"][-1] == 99.0
    with events.capture() as seen:
        tv.reduce_sum(tv.constant(np.ones(150, np.float32)))
    op = seen.of("op_recorded")[0]
    assert len(op.inputs[0]["summary"]["value"]) == 150     # engine refs honour it


def test_summary_small_arrays_of_every_dtype_are_strict_json():
    cases = [np.float32(2.5), np.array(7, np.int64), np.array([True, False]),
             np.array([[1, 2], [3, 4]], np.uint8), np.array(["a", "bc"]),
             np.zeros((0, 3)), np.array([1 + 2j]), np.array(np.nan, np.float16),
             np.array([np.iinfo(np.int64).max])]
    for a in cases:
        s = events.summarize(a)
        assert s["shape"] == list(np.shape(a)) and s["size"] == np.size(a)
        assert json.loads(_strict_json(s)) == s
    assert events.summarize(np.array([[1, 2], [3, 0]], np.int32)) == {
        "shape": [2, 2], "dtype": "int32", "size": 4, "min": 0.0, "max": 3.0, "mean": 1.5,
        "norm": pytest.approx(math.sqrt(14)), "nan": 0, "inf": 0, "zeros": 1,
        "value": [[1, 2], [3, 0]]}
    assert events.summarize(np.float32(np.nan)) == {
        "shape": [], "dtype": "float32", "size": 1, "nan": 1, "inf": 0, "zeros": 0,
        "value": "nan"}


# --- JSON form --------------------------------------------------------------------------------

def test_every_kind_round_trips_through_json():
    v = tv.Variable([1.0, -2.0], name="v")
    with events.capture(replay_definitions=True) as seen:
        with tv.GradientTape() as outer:
            with tv.GradientTape() as inner:
                y = tv.reduce_sum(v * v)
                with inner.stop_recording():
                    tv.exp(y)
            g = inner.gradient(y, v)
            np.asarray(g)
        outer.gradient(g, v)
        v.assign([0.5, 0.5])
        events.log_scalar("loss", float("nan"), 1)
    kinds = set(seen.kinds())
    assert kinds >= {"op_defined", "tape_opened", "tape_closed", "watched", "op_recorded",
                     "recording_paused", "recording_resumed", "variable_assigned", "escaped",
                     "gradient_started", "backward_step", "gradient_finished", "scalar"}
    for e in seen:
        text = json.dumps(events.sanitize(e.to_dict()), allow_nan=False)
        back = events.from_dict(json.loads(text))
        assert type(back) is type(e)
        if e.kind == "scalar":
            assert math.isnan(back.value) and back.step == 1
        else:
            assert back == e


def test_from_dict_ignores_unknown_kinds_and_fields_and_rejects_wrong_types():
    assert events.from_dict({"kind": "from_the_future", "x": 1}) is None
    e = events.from_dict({"kind": "tape_closed", "seq": 4, "tape": 2, "shiny_new_field": [1]})
    assert e == events.TapeClosed(seq=4, tape=2)
    e = events.from_dict({"kind": "scalar", "name": "x", "value": "-inf"})
    assert e.value == -math.inf
    with pytest.raises(ValueError, match="'node'.*number.*string"):
        events.from_dict({"kind": "op_recorded", "node": "seven"})
    with pytest.raises(ValueError, match="'persistent'"):
        events.from_dict({"kind": "tape_opened", "persistent": 1})
    with pytest.raises(ValueError, match="'tape'"):
        events.from_dict({"kind": "tape_closed", "tape": True})
    with pytest.raises(ValueError, match="JSON object"):
        events.from_dict(["kind", "scalar"])
    assert events.from_dict({"kind": "tape_opened", "site": None}).site is None


def test_sanitize_makes_anything_strict_json():
    weird = {"a": float("nan"), ("t", 1): np.float32(1.5), "arr": np.arange(3),
             "set": {1}, "obj": object(), "bytes": b"\xff", "inf": [float("-inf")],
             "deep": [[[[]]]]}
    out = events.sanitize(weird)
    json.dumps(out, allow_nan=False)
    assert out["a"] == "nan" and out["('t', 1)"] == 1.5 and out["arr"] == [0, 1, 2]
    assert out["inf"] == ["-inf"] and out["set"] == [1]
    nested = []
    for _ in range(200):
        nested = [nested]
    json.dumps(events.sanitize(nested), allow_nan=False)


def test_paused_drops_this_threads_events_only_and_nests_with_subscriptions():
    import threading
    seen = []

    def other_thread_logs(name):
        t = threading.Thread(target=events.log_scalar, args=(name, 0.0))
        t.start()
        t.join()

    with events.subscribe(seen.append):
        with events.paused():
            events.log_scalar("hidden", 1.0)
            other_thread_logs("other thread while paused")    # not paused: delivered
            with events.paused():
                pass
            events.log_scalar("hidden after nested", 1.0)      # the inner exit kept the pause
            late = events.subscribe(lambda e: None, replay_definitions=True)
            events.log_scalar("hidden after subscribing", 1.0)
        late.close()
        events.log_scalar("shown", 2.0)
    assert [e.name for e in seen] == ["other thread while paused", "shown"]


def test_an_op_first_run_inside_paused_is_still_defined_for_the_subscribers():
    from tapeviz.engine import op as _op
    halve = _op.defop("HalveForPausedTest", lambda x: x / 2, [lambda g, y, x: g / 2.0])
    x = tv.constant(np.float32(4.0))
    try:
        with events.capture() as seen:
            with events.paused():
                _op.apply(halve, (x,))         # its first run, while this thread is paused
            _op.apply(halve, (x,))
    finally:   # (the registry is the process's: later tests check every op in it)
        del _op.REGISTRY["HalveForPausedTest"]
    kinds = [(e.kind, e.op) for e in seen if getattr(e, "op", None) == "HalveForPausedTest"]
    assert kinds == [("op_defined", "HalveForPausedTest"), ("op_recorded", "HalveForPausedTest")]


def test_delivered_only_to_takes_this_threads_events_only():
    import threading
    seen, only = [], []
    with events.subscribe(seen.append):
        with events.delivered_only_to(only.append):
            events.log_scalar("replayed", 1.0)
            t = threading.Thread(target=events.log_scalar, args=("other thread", 0.0))
            t.start()
            t.join()
        events.log_scalar("after", 2.0)
    assert [e.name for e in only] == ["replayed"]
    assert [e.name for e in seen] == ["other thread", "after"]


def test_docs_describe_every_kind_and_field():
    import dataclasses
    import os
    import re
    doc_path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "docs", "events.md")
    with open(doc_path, encoding="utf-8") as f:
        doc = f.read()
    assert f"schema version {events.SCHEMA_VERSION}" in doc
    sections = re.split(r"\n### ", doc)
    for kind, cls in events.EVENT_TYPES.items():
        section = next((s for s in sections if re.match(rf"[^\n]*`{kind}`", s)), None)
        assert section is not None, f"docs/events.md has no section for {kind!r}"
        for f in dataclasses.fields(cls)[2:]:
            assert f"| `{f.name}` |" in section, f"{kind}.{f.name} is not documented"


def test_summaries_are_cached_per_array_but_never_stale_or_shared():
    a = np.arange(10.0)
    s1 = events.summarize(a)
    s2 = events.summarize(a)
    assert s1 == s2 and s1 is not s2                 # equal copies: mutating one is harmless
    s1["min"] = -99
    assert events.summarize(a)["min"] == 0.0
    assert "value" not in events.summarize(a, limit=5)   # the limit is part of the key
    for i in range(3000):                            # new arrays, reused ids: never confused
        b = np.full(3, float(i))
        assert events.summarize(b)["max"] == float(i)
    assert len(events._summaries) <= events._SUMMARY_CACHE


def test_the_summary_cache_keeps_no_array_alive():
    # a recording that builds one training step's payloads must not hold that step's arrays
    # afterwards (the cache is by identity: it is only right while the array lives)
    a = np.ones((256, 784), np.float32)
    assert events.summarize(a)["size"] == a.size
    alive = weakref.ref(a)
    del a
    assert alive() is None
    b = np.zeros((256, 784), np.float32)             # may take the freed array's id
    assert events.summarize(b)["max"] == 0.0


# --- subscribe(kinds=...) -----------------------------------------------------------------------

def _program_with_every_common_kind():
    w = tv.Variable([1.0, 2.0], name="w")
    unused = tv.Variable(3.0, name="unused")
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.sin(w) * 2.0)
    grads = tape.gradient(y, [w, unused])        # unused: None, explained
    w.assign_sub(0.1 * grads[0])
    events.log_scalar("loss", float(y))


def test_a_subscriber_of_some_kinds_receives_exactly_those():
    everything, some = [], []
    wanted = {"gradient_finished", "variable_assigned", "scalar"}
    with events.subscribe(everything.append), events.subscribe(some.append, kinds=wanted):
        _program_with_every_common_kind()
    assert {e.kind for e in everything} > wanted | {"op_recorded", "backward_step"}
    assert some == [e for e in everything if e.kind in wanted]
    finished = [e for e in some if e.kind == "gradient_finished"]
    assert finished[0].results[1]["grad"] is None and finished[0].results[1]["verdict"]


def test_per_op_events_are_not_built_when_no_subscriber_wants_them(monkeypatch):
    from tapeviz.engine import backprop, op
    built = []
    real_op, real_step = op.op_event, backprop._emit_deferred
    monkeypatch.setattr(op, "op_event", lambda *a: (built.append("op"), real_op(*a)))
    monkeypatch.setattr(backprop, "_emit_deferred",
                        lambda *a: (built.append(a[0].KIND), real_step(*a)))
    alone = []
    with events.subscribe(alone.append, kinds=["gradient_finished"]):
        assert not events.OP_EVENTS and not events.STEP_EVENTS and events.ACTIVE
        _program_with_every_common_kind()
    assert built == [] and [e.kind for e in alone] == ["gradient_finished"]
    everything = []
    with events.subscribe(everything.append):
        _program_with_every_common_kind()
    assert "op" in built and "backward_step" in built
    # the gradient result is explained as when every kind is on
    full = [e for e in everything if e.kind == "gradient_finished"][0].results[1]
    mine = alone[0].results[1]
    assert mine["cause"] == full["cause"] == "unconnected" and mine["message"] == full["message"]


def test_kinds_are_checked_and_a_single_name_is_accepted():
    with pytest.raises(ValueError, match="gradient_finsihed is not an event kind.*"
                                         "gradient_finished"):
        events.subscribe(print, kinds=["gradient_finsihed"])
    with pytest.raises(ValueError, match="an empty list"):
        events.subscribe(print, kinds=[])
    with pytest.raises(TypeError, match="kind names"):
        events.subscribe(print, kinds=5)
    seen = []
    with events.subscribe(seen.append, kinds="scalar"):
        events.log_scalar("a", 1.0)
        with tv.GradientTape() as tape:
            x = tv.constant(1.0)
            tape.watch(x)
            tape.gradient(x * x, x)
    assert [e.kind for e in seen] == ["scalar"]


def test_definitions_are_replayed_only_to_subscribers_that_want_them():
    tv.sin(tv.constant(0.5))                         # Sin is defined in this process by now
    defined, other = [], []
    with events.subscribe(defined.append, replay_definitions=True, kinds=["op_defined"]), \
            events.subscribe(other.append, replay_definitions=True, kinds=["scalar"]):
        pass
    assert "Sin" in {e.op for e in defined} and other == []


def test_delivered_only_to_still_gets_every_kind_beside_a_filtered_subscriber():
    filtered, only = [], []
    with events.subscribe(filtered.append, kinds=["scalar"]):
        with events.delivered_only_to(only.append):
            assert events.OP_EVENTS and events.STEP_EVENTS
            events.log_scalar("inside", 1.0)
            x = tv.constant(2.0)
            with tv.GradientTape() as tape:
                tape.watch(x)
                y = x * x
            tape.gradient(y, x)
        assert not events.OP_EVENTS
        events.log_scalar("after", 2.0)
    assert {"scalar", "op_recorded", "backward_step"} <= {e.kind for e in only}
    assert [e.name for e in filtered] == ["after"]


def test_an_optimizer_update_is_the_same_heard_or_not():
    """Listening changes nothing in the program: an optimizer's update gives the variable
    the same value and lineage (no parent for the NumPy update) with or without a
    subscriber; the subscriber gets the update as ``variable_assigned``, its value the
    update itself (a constant), its site the line of ``apply_gradients``."""
    import contextlib
    grad = np.array([1.0, -2.0], np.float32)

    def update(listen):
        v = tv.Variable(np.array([1.0, 2.0], np.float32), name="v")
        opt = tv.keras.optimizers.SGD(learning_rate=0.5)
        with (tv.events.capture() if listen else contextlib.nullcontext([])) as seen:
            opt.apply_gradients([(tv.constant(grad), v)]); line = sys._getframe().f_lineno
        return v, seen, line
    quiet, _, _ = update(False)
    heard, seen, line = update(True)
    np.testing.assert_array_equal(heard.numpy(), quiet.numpy())
    assert heard.numpy().tolist() == [0.5, 3.0]
    assert [p is None for p in heard._node.parents] == [p is None for p in quiet._node.parents]
    (assigned,) = [e for e in seen if e.kind == "variable_assigned"
                   and e.variable["name"] == "v:0"]
    assert assigned.method == "assign_sub" and assigned.value["kind"] == "constant"
    assert assigned.value["summary"]["value"] == [0.5, -1.0]
    assert assigned.site["line"] == line
