"""Flight recordings (``tv.record(path)``, the default): a summary of every gradient call, the
full events of the calls the policy keeps, the lead-up of an anomaly from the ring buffer."""
import json
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import tapeviz as tv
from tapeviz import events, recording

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import nan_regression  # noqa: E402

STEPS, BAD_STEP = 300, 217


@pytest.fixture(autouse=True)
def _clean_state():
    before = events.subscribers()
    yield
    assert events.subscribers() == before, "a test left a subscriber behind"


def _train(steps=STEPS, bad_step=BAD_STEP, scale_at=None, guard=False):
    """The regression of benchmarks/nan_regression.py (see there)."""
    nan_regression.train(steps, bad_step, scale_at=scale_at, guard=guard)


def _rows(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def _by_index(rows):
    """{call index: engine call id} from the summaries."""
    return {r["index"]: r["call"] for r in rows if r.get("kind") == "call_summary"}


def _full_indices(rows, kind):
    calls = {call: index for index, call in _by_index(rows).items()}
    return {calls[r["call"]] for r in rows if r.get("kind") == kind}


def _record(tmp_path, **flight):
    train = flight.pop("_train", {})
    path = tmp_path / "run.tvz"
    with tv.record(path, flight=flight or True) as rec:
        _train(**train)
    return path, rec


def test_a_nan_at_step_217_is_kept_with_its_lead_up(tmp_path):
    path, rec = _record(tmp_path)
    rows = _rows(path)
    summaries = [r for r in rows if r.get("kind") == "call_summary"]
    assert [s["index"] for s in summaries] == list(range(1, STEPS + 1))
    # (the weights stay NaN after step 217: its later calls are not anomalies again)
    expected = {1, 2, 3, 100, 200, 300} | set(range(212, 217)) | {BAD_STEP}
    for kind in ("gradient_started", "backward_step", "gradient_finished"):
        assert _full_indices(rows, kind) == expected, kind
    # the tapes of exactly those calls, opened and with their forward ops
    tapes = {s["tape"] for s in summaries if s["index"] in expected}
    assert {r["tape"] for r in rows if r.get("kind") == "tape_opened"} == tapes
    assert {t for r in rows if r.get("kind") == "op_recorded" for t in r["tapes"]} == tapes
    by_index = {s["index"]: s for s in summaries}
    bad = by_index[BAD_STEP]
    assert bad["full"] and bad["why"] == "verdict"
    assert bad["lead_up"] == [212, 213, 214, 215, 216] and bad["lead_up_dropped"] == 0
    assert {s["verdict"] for s in bad["sources"]} == {"nan"}
    assert {s["verdict"] for s in by_index[BAD_STEP - 1]["sources"]} == {"value"}
    assert [by_index[i]["why"] for i in (1, 3, 4, 100, 216)] == ["first", "first", "", "every", ""]
    # the scalars logged since the previous call: call n carries the loss of step n - 1
    assert by_index[5]["scalars"][0]["step"] == 4 and by_index[1]["scalars"] == []
    assert by_index[BAD_STEP + 1]["scalars"] == [{"name": "loss", "value": "nan",
                                                  "step": BAD_STEP}]
    assert rec.flight.calls == STEPS and rec.flight.ring_dropped == 0


def test_the_file_loads_clean_and_the_dashboard_explains_the_nan_call(tmp_path):
    from tapeviz import ui
    path, _ = _record(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loaded = tv.load_recording(path)
    assert loaded.warnings == [] and loaded.complete
    assert len([e for e in loaded if e.kind == "call_summary"]) == STEPS
    bad_call = _by_index(_rows(path))[BAD_STEP]
    finished = next(e for e in loaded if e.kind == "gradient_finished" and e.call == bad_call)
    source = open(nan_regression.__file__).read().splitlines()
    log_line = next(i for i, text in enumerate(source, 1)
                    if text.strip() == nan_regression.LOG_LINE)
    d = ui.Dashboard(str(path))
    assert d.store.warnings == [] and d.store.unknown == 0
    # the training chart covers the whole run: its losses come from the summaries (and the
    # last one, logged after the last call, as a scalar event at close)
    assert [step for step, _, _ in d.store.scalars["loss"]] == list(range(1, STEPS + 1))
    # it opens on the first anomalous call, 217, with its Why cards: the NaN's origin
    assert d.state.call == bad_call and d.state.tape == finished.tape
    cards = d.parts["Why"].results
    assert [c["cause"] for c in cards] == ["nan_origin"] * 4
    assert d.side.active == 2           # the Why tab
    # the source whose path runs through the Log: its card names the line that made the NaN
    (card,) = [c for c in cards if c["source_name"].startswith("scale")]
    assert card["lineno"] == log_line and "at Log" in card["message"]
    assert [c["lineno"] for c in cards] == [r["lineno"] for r in finished.results]
    # the lead-up's calls load as calls, with their tapes and backward steps
    for index in range(212, 217):
        call = d.store.calls[_by_index(_rows(path))[index]]
        assert call["steps"] and {r["verdict"] for r in call["results"]} == {"value"}


def test_a_tiny_ring_lets_the_lead_up_go_and_says_so(tmp_path):
    path, rec = _record(tmp_path, ring_bytes=1)
    rows = _rows(path)
    bad = next(r for r in rows if r.get("kind") == "call_summary" and r["index"] == BAD_STEP)
    assert bad["lead_up"] == [] and bad["lead_up_dropped"] == 5
    expected = {1, 2, 3, 100, 200, 300, BAD_STEP}
    assert _full_indices(rows, "gradient_finished") == expected
    # every call the policy did not keep went into the ring and out: all but the first three,
    # the periodic ones and the NaN call
    assert rec.flight.ring_dropped == STEPS - len(expected)
    assert tv.load_recording(path).warnings == []


def test_the_ring_never_holds_more_than_its_bound(tmp_path):
    """A bound of about two and a half calls: after every step the ring holds at most that
    many bytes, and the lead-up written is the newest calls that fitted."""
    sizes, held = [], []
    with tv.record(tmp_path / "probe.tvz") as rec:
        flight = rec.flight
        _train(steps=10, bad_step=None)
        sizes = [h.bytes for h in flight.ring]
    bound = int(2.5 * max(sizes))
    path = tmp_path / "run.tvz"
    with tv.record(path, flight={"ring_bytes": bound}) as rec:
        original = rec.flight._settle

        def watched(held_call):
            original(held_call)
            held.append(rec.flight.ring_held)
        rec.flight._settle = watched
        _train()
    assert held and max(held) <= bound
    bad = next(r for r in _rows(path) if r.get("kind") == "call_summary"
               and r["index"] == BAD_STEP)
    assert bad["lead_up"] == [215, 216] and bad["lead_up_dropped"] == 3


def test_a_jump_in_the_gradient_norm_keeps_the_call_and_its_lead_up(tmp_path):
    path, _ = _record(tmp_path, _train={"steps": 60, "bad_step": None, "scale_at": 40})
    rows = _rows(path)
    by_index = {r["index"]: r for r in rows if r.get("kind") == "call_summary"}
    assert by_index[40]["why"] == "jump" and by_index[40]["lead_up"] == [35, 36, 37, 38, 39]
    assert {s["verdict"] for s in by_index[40]["sources"]} == {"value"}
    assert by_index[40]["norm"] > 10 * by_index[39]["norm"]
    assert _full_indices(rows, "gradient_finished") == {1, 2, 3, 35, 36, 37, 38, 39, 40}
    assert tv.load_recording(path).warnings == []


def test_flight_options_are_checked_before_the_file_is_touched(tmp_path):
    path = tmp_path / "run.tvz"
    with pytest.raises(ValueError, match="every must be an int >= 0"):
        tv.record(path, flight={"every": -1})
    with pytest.raises(ValueError, match="jump must be a number > 1"):
        tv.record(path, flight={"jump": 0.5})
    with pytest.raises(TypeError, match="first, every, before, jump and ring_bytes"):
        tv.record(path, flight={"evrey": 10})
    assert not path.exists()


def test_the_environment_variable_records_a_flight(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent("""
        import tapeviz as tv
        x = tv.Variable(2.0)
        for _ in range(5):
            with tv.GradientTape() as tape:
                y = x * x
            tape.gradient(y, x)
    """))
    path = tmp_path / "run.tvz"
    env = dict(os.environ, TAPEVIZ_RECORD=str(path), PYTHONPATH=ROOT)
    env.pop("_TAPEVIZ_RECORD_PID", None)
    env.pop("TAPEVIZ_RECORD_FULL", None)
    subprocess.run([sys.executable, str(script)], env=env, check=True, timeout=120)
    rows = _rows(path)
    assert rows[0]["flight"]["every"] == 100
    assert [r["why"] for r in rows if r.get("kind") == "call_summary"] == [
        "first", "first", "first", "", ""]
    assert _full_indices(rows, "gradient_finished") == {1, 2, 3}
    # TAPEVIZ_RECORD_FULL=1: every event of every call, no summaries
    env["TAPEVIZ_RECORD_FULL"] = "1"
    subprocess.run([sys.executable, str(script)], env=env, check=True, timeout=120)
    rows = _rows(path)
    assert "flight" not in rows[0]
    assert not [r for r in rows if r.get("kind") == "call_summary"]
    assert len([r for r in rows if r.get("kind") == "gradient_finished"]) == 5


def test_record_keeps_a_flight_by_default_and_every_event_with_full(tmp_path):
    with tv.record(tmp_path / "default.tvz") as rec:
        _train(steps=8, bad_step=None)
    rows = _rows(tmp_path / "default.tvz")
    assert rec.flight is not None and rows[0]["flight"]["first"] == 3
    assert _full_indices(rows, "gradient_finished") == {1, 2, 3}
    with tv.record(tmp_path / "full.tvz", full=True) as rec:
        _train(steps=8, bad_step=None)
    rows = _rows(tmp_path / "full.tvz")
    assert rec.flight is None and "flight" not in rows[0]
    assert len([r for r in rows if r.get("kind") == "gradient_finished"]) == 8
    with pytest.raises(ValueError, match="full=True.*takes no flight policy"):
        tv.record(tmp_path / "both.tvz", full=True, flight={"every": 5})
    with pytest.raises(TypeError, match=r"full=True\)"):
        tv.record(tmp_path / "both.tvz", flight=False)
    assert not (tmp_path / "both.tvz").exists()


def test_the_lead_up_is_the_calls_just_before_even_with_a_kept_call_among_them(tmp_path):
    """Calls 1-3 wait in a ring of three, call 4 is kept (every 4th), call 5 joins the ring:
    at the jump of call 6 the lead-up is calls 3 and 5 (call 2 is four calls back)."""
    path, _ = _record(tmp_path, first=0, every=4, before=3,
                      _train={"steps": 8, "bad_step": None, "scale_at": 6})
    rows = _rows(path)
    jump = next(r for r in rows if r.get("kind") == "call_summary" and r["index"] == 6)
    assert jump["why"] == "jump" and jump["lead_up"] == [3, 5]
    assert _full_indices(rows, "gradient_finished") == {3, 4, 5, 6, 8}


def test_calls_of_two_threads_at_once_are_kept_apart(tmp_path):
    """Each thread's events go to its own call: every call kept in full has its start, its
    backward steps and its end, and the file loads without a warning."""
    import threading
    path = tmp_path / "run.tvz"
    with tv.record(path, flight={"first": 2, "every": 5}):
        workers = [threading.Thread(target=_train, kwargs={"steps": 20, "bad_step": None})
                   for _ in range(2)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    rows = _rows(path)
    summaries = [r for r in rows if r.get("kind") == "call_summary"]
    assert sorted(s["index"] for s in summaries) == list(range(1, 41))
    kept = {s["call"] for s in summaries if s["full"]}
    assert len(kept) == 2 + 40 // 5
    for kind in ("gradient_started", "gradient_finished"):
        assert {r["call"] for r in rows if r.get("kind") == kind} == kept
    steps = {}
    for r in rows:
        if r.get("kind") == "backward_step":
            steps.setdefault(r["call"], []).append(r["step"])
    assert set(steps) == kept and all(s == list(range(len(s))) for s in steps.values())
    assert tv.load_recording(path).warnings == []


def test_a_killed_flight_recording_loads_with_its_lead_up(tmp_path):
    """Killed (SIGKILL) after the NaN, before closing: the batches the flusher wrote load,
    the summaries and the lead-up of the NaN call among them."""
    import signal
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {os.path.join(ROOT, "tests")!r})
        import tapeviz as tv
        from test_flight_recorder import _train
        rec = tv.record(sys.argv[1])
        _train(steps=230)
        print("trained", flush=True)
        time.sleep(600)
    """))
    path = tmp_path / "run.tvz"
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("TAPEVIZ_RECORD", None)
    proc = subprocess.Popen([sys.executable, str(script), str(path)], env=env,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "trained"
        import time
        for _ in range(600):            # until the flusher (every 0.2 s) wrote the last call
            if b'"index":230,' in path.read_bytes():
                break
            time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    loaded = tv.load_recording(path)
    assert not loaded.complete and loaded.warnings == []
    summaries = [e for e in loaded if e.kind == "call_summary"]
    assert [s.index for s in summaries] == list(range(1, 231))
    assert summaries[BAD_STEP - 1].lead_up == [212, 213, 214, 215, 216]
    finished = {e.call for e in loaded if e.kind == "gradient_finished"}
    assert {s.call for s in summaries if 212 <= s.index <= BAD_STEP} <= finished


@pytest.mark.parametrize("max_unbuilt", [events.MAX_UNBUILT, 5])
def test_a_call_not_kept_builds_no_payload(tmp_path, monkeypatch, max_unbuilt):
    """Only the kept calls' events are built: the gradient_finished payload (summaries and
    explanations) and the op payloads of the 17 calls not kept are never made, not even
    when far more than ``tv.events.MAX_UNBUILT`` events follow the ring's (the recording
    bounds its ring itself)."""
    from tapeviz.engine import emit, tape as tape_module
    monkeypatch.setattr(events, "MAX_UNBUILT", max_unbuilt)
    monkeypatch.setattr(events, "UNBUILT_SLACK", 0)
    built = {"finished": 0, "ops": 0}
    real_finished, real_op = tape_module.finished_payload, emit._op_payload

    def finished(*args):
        built["finished"] += 1
        return real_finished(*args)

    def op(*args):
        built["ops"] += 1
        return real_op(*args)
    monkeypatch.setattr(tape_module, "finished_payload", finished)
    monkeypatch.setattr(emit, "_op_payload", op)
    path = tmp_path / "run.tvz"
    with tv.record(path, flight={"first": 3, "every": 0, "before": 2}):
        _train(steps=20, bad_step=None)
    rows = _rows(path)
    assert _full_indices(rows, "gradient_finished") == {1, 2, 3}
    assert built["finished"] == 3
    assert built["ops"] == sum(1 for r in rows if r.get("kind") == "op_recorded")


def _verdict_cases():
    """One gradient call per case: sources whose gradients are a value, None, all zeros,
    NaN (and finite elements), Inf."""
    a = tv.Variable(np.array([1.0, 2.0], np.float32), name="a")
    b = tv.Variable(np.array([3.0], np.float32), name="b")
    z = tv.Variable(np.array([0.0, 0.0], np.float32), name="z")
    n = tv.Variable(np.array([-1.0, 4.0], np.float32), name="n")
    i = tv.Variable(np.array([0.0, 1.0], np.float32), name="i")
    with tv.GradientTape() as tape:
        loss = (tv.reduce_sum(a * a) + tv.reduce_sum(z * 0.0) + tv.reduce_sum(tv.sqrt(n))
                + tv.reduce_sum(tv.math.log(i)))
    tape.gradient(loss, [a, b, z, n, i])


def test_the_cheap_verdicts_say_what_the_results_say():
    """``verdicts`` (set when the event is made) against ``results`` (the payload, built the
    slow way): the same verdict, the same norm to float32 rounding."""
    with np.errstate(all="ignore"), events.capture() as seen:
        _verdict_cases()
    (finished,) = seen.of("gradient_finished")
    verdicts = finished.verdicts
    results = finished.results
    assert [v["verdict"] for v in verdicts] == [r["verdict"] for r in results] == [
        "value", "none", "zero", "nan", "inf"]
    for v, r in zip(verdicts, results):
        assert v["name"] == r["tensor"]["name"] and v["id"] == r["tensor"]["id"]
        if r["norm"] is None:
            assert v["norm"] is None
        else:
            assert v["norm"] == pytest.approx(r["norm"], rel=1e-6)


def _none_source_calls(steps, none_from=0, none_until=10**9):
    """A loop whose second source gets no gradient for steps in [none_from, none_until)."""
    w = tv.Variable(np.array([1.0, 2.0], np.float32), name="w")
    u = tv.Variable(np.array([1.0], np.float32), name="u")
    for step in range(steps):
        with tv.GradientTape() as tape:
            loss = tv.reduce_sum(w * w)
            if not none_from <= step < none_until:
                loss = loss + tv.reduce_sum(u * u)
        tape.gradient(loss, [w, u])


def test_a_source_that_is_always_none_is_not_an_anomaly_every_call(tmp_path):
    """A None gradient is an anomaly when it appears, not on every call after: a frozen
    variable passed as a source does not make every call kept in full."""
    path = tmp_path / "run.tvz"
    with tv.record(path, flight={"first": 0, "every": 0, "before": 0}):
        _none_source_calls(20)
    whys = [r["why"] for r in _rows(path) if r.get("kind") == "call_summary"]
    assert whys == ["verdict"] + [""] * 19


def test_a_gradient_that_turns_none_is_an_anomaly_each_time_it_turns(tmp_path):
    path = tmp_path / "run.tvz"
    with tv.record(path, flight={"first": 0, "every": 0, "before": 0}):
        _none_source_calls(6, none_from=2, none_until=4)
        _none_source_calls(4, none_from=1, none_until=2)
    whys = [r["why"] for r in _rows(path) if r.get("kind") == "call_summary"]
    assert whys == ["", "", "verdict", "", "", "", "", "verdict", "", ""]


def test_a_gradient_that_turns_nan_is_an_anomaly_each_time_it_turns(tmp_path):
    """NaN gradients on some batches, finite on the others (a bad sample, a guarded update):
    each turn to NaN or Inf is kept in full, a NaN that stays so is not kept again."""
    w = tv.Variable(np.array([1.0, 2.0], np.float32), name="w")
    bad = {2: np.nan, 3: np.nan, 6: np.inf, 8: np.nan}
    path = tmp_path / "run.tvz"
    with tv.record(path, flight={"first": 0, "every": 0, "before": 0}):
        for step in range(10):
            with tv.GradientTape() as tape:
                loss = tv.reduce_sum(w * np.float32(bad.get(step, 1.0)))
            tape.gradient(loss, [w])
    rows = [r for r in _rows(path) if r.get("kind") == "call_summary"]
    assert [r["sources"][0]["verdict"] for r in rows] == [
        "value", "value", "nan", "nan", "value", "value", "inf", "value", "nan", "value"]
    assert [r["why"] for r in rows] == [
        "", "", "verdict", "", "", "", "verdict", "", "verdict", ""]


_PER_OP_KINDS = {"op_recorded", "backward_step", "watched", "variable_assigned"}


def test_a_flight_recording_alone_gets_no_per_op_event_of_a_call_it_does_not_keep(
        tmp_path, monkeypatch):
    """The only subscriber, a flight recording holds the engine's per-op events unmade: of
    the calls it does not keep (here none: no first, no periodic, no anomaly), not one is
    made and delivered to it, neither during the call nor after it (the updates)."""
    from tapeviz.recording import flight
    delivered = []
    real = flight.FlightRecorder.on_event

    def on_event(self, event):
        delivered.append(event.kind)
        return real(self, event)
    monkeypatch.setattr(flight.FlightRecorder, "on_event", on_event)
    path = tmp_path / "run.tvz"
    with tv.record(path, flight={"first": 0, "every": 0, "before": 2}):
        _train(steps=12, bad_step=None)
    assert delivered.count("gradient_finished") == 12
    assert not _PER_OP_KINDS & set(delivered)
    assert [r["full"] for r in _rows(path) if r.get("kind") == "call_summary"] == [False] * 12


_SAME_RUN = """
import sys
sys.path.insert(0, {tests!r})
import numpy as np
import tapeviz as tv
from test_flight_recorder import _train
options = dict(full=True) if sys.argv[2] == "full" else dict(flight=dict(every=7))
with np.errstate(all="ignore"), tv.record(sys.argv[1], **options):
    _train(steps=40, bad_step=31, guard=True)
"""


def test_a_kept_call_has_the_events_a_full_recording_has(tmp_path):
    """The same program recorded twice, in fresh processes (so every id is the same): once
    with the flight policy (calls 1-3, 7, 14, ..., the NaN at 31 and its lead-up kept), once
    with full=True. Every call the flight recording kept has, event for event, what the full
    recording has for it (seq and time aside), in the order they happened."""
    script = tmp_path / "run.py"
    script.write_text(_SAME_RUN.format(tests=os.path.join(ROOT, "tests")))
    env = dict(os.environ, PYTHONPATH=ROOT, PYTHONHASHSEED="0")
    for name in ("TAPEVIZ_RECORD", "TAPEVIZ_RECORD_FULL", "_TAPEVIZ_RECORD_PID"):
        env.pop(name, None)
    for mode in ("flight", "full"):
        subprocess.run([sys.executable, str(script), str(tmp_path / f"{mode}.tvz"), mode],
                       env=env, check=True, timeout=300)
    flight_rows = _rows(tmp_path / "flight.tvz")
    summaries = [r for r in flight_rows if r.get("kind") == "call_summary"]
    lead_up = {i for r in summaries for i in r["lead_up"]}
    kept = {r["tape"] for r in summaries if r["full"] or r["index"] in lead_up}
    # the first three, every 7th, the NaN at 31 and its lead-up (28 was kept anyway)
    assert {r["index"] for r in summaries if r["full"]} == {1, 2, 3, 7, 14, 21, 28, 31, 35}
    assert lead_up == {26, 27, 29, 30}
    flight, full = _loaded_calls(tmp_path / "flight.tvz"), _loaded_calls(tmp_path / "full.tvz")
    assert set(flight) >= kept and set(full) >= kept
    for tape in kept:
        # (in the order they happened; the end of a call in the lead-up, 27, was written
        # before the N-th call after it, 28, and its start with the lead-up, after 28)
        events = sorted(flight[tape], key=lambda e: e["seq"])
        assert _unstamped(events) == _unstamped(full[tape]), tape
        start = next(i for i, e in enumerate(flight[tape]) if e["kind"] == "tape_opened")
        head = flight[tape][start:start + [e["kind"] for e in events].index(
            "gradient_finished") + 1]
        assert head == events[:len(head)], tape
    # of a call not kept, only its end (what ran after its gradient: the update) when the
    # call after it was kept as an N-th call (6 before call 7, ...)
    tails = {tape for tape in set(flight) - kept}
    assert tails == {6, 13, 20, 34}
    for tape in tails:
        part, whole = flight[tape], full[tape]
        assert part and _unstamped(part) == _unstamped(whole[len(whole) - len(part):]), tape
        assert whole[len(whole) - len(part) - 1]["kind"] == "gradient_finished", tape


def _loaded_calls(path):
    """{tape id: its events (as dicts), loaded (sites and refs resolved)}: from its opening
    to the next tape's, and after its ``call_summary`` (what ran after the call: a flight
    recording writes it before the next call kept as a first or N-th one); without the kinds
    a flight recording writes elsewhere. A call with no events is left out."""
    calls, current = {}, None
    for event in tv.load_recording(path):
        if event.kind == "call_summary":
            current = calls.setdefault(event.tape, [])
            continue
        if event.kind in ("scalar", "op_defined"):
            continue
        if event.kind == "tape_opened":
            current = calls.setdefault(event.tape, [])
        if current is not None:
            current.append(event.to_dict())
    return {tape: events for tape, events in calls.items() if events}


def _unstamped(events):
    return [{k: v for k, v in e.items() if k not in ("seq", "time")} for e in events]
