"""Everything a recording writes comes back equal to what was emitted (``event.to_dict()``),
on a realistic run: fresh engine events, NaN and Inf in summaries, attrs and scalars, a
tensor used twice by one op, sites repeated across steps, a ref table that fills up."""
import dataclasses
import json
import pathlib

import numpy as np
import pytest

import tapeviz as tv
from tapeviz import events


def _rows(path):
    strict = {"parse_constant": lambda c: pytest.fail(f"{c} written to the file")}
    raw = pathlib.Path(path).read_bytes()
    assert raw.isascii() and raw.endswith(b"\n")
    return [json.loads(line, **strict) for line in raw.splitlines()]


def _run(steps=3):
    rng = np.random.default_rng(1)
    x = tv.constant(rng.normal(size=(8, 4)).astype(np.float32))
    w = tv.Variable(rng.normal(size=(4, 3)).astype(np.float32), name="w")
    b = tv.Variable(np.zeros(3, np.float32), name="b")
    for step in range(steps):
        with tv.GradientTape() as tape:
            h = tv.matmul(x, w) + b
            sq = h * h                                   # one tensor, both inputs of an op
            odd = tv.math.log(h) + 1.0 / (h - h)         # NaN and Inf in summaries
            clipped = tv.clip_by_value(h, float("-inf"), float("nan"))
            loss = tv.reduce_mean(sq) + tv.reduce_sum(clipped) * 0.0
        grads = tape.gradient(loss, [w, b])
        for v, g in zip((w, b), grads):
            v.assign_sub(0.1 * g)
        tv.events.log_scalar("loss", float(loss), step)
        tv.events.log_scalar("odd", float("nan") if step % 2 else float("-inf"), step)
    return odd


def _same(loaded, seen):
    """The loaded events after the op definitions the writer replayed first, as JSON (so that
    a NaN compares equal to itself and never to the null orjson would write for it)."""
    body = loaded[len(loaded) - len(seen):]
    assert [e.kind for e in body] == [e.kind for e in seen]
    for back, live in zip(body, seen):
        assert json.dumps(back.to_dict()) == json.dumps(live.to_dict()), live.kind


@pytest.mark.parametrize("max_refs", [None, 7])
def test_a_realistic_run_reads_back_equal_to_what_was_emitted(tmp_path, monkeypatch, max_refs):
    if max_refs is not None:      # a table that fills up: refs_cleared lines, refs rewritten
        from tapeviz.recording import tables
        monkeypatch.setattr(tables, "MAX_REFS", max_refs)
    path = tmp_path / "run.tvz"
    with tv.record(path, full=True), events.capture() as seen:
        _run()
    rows = _rows(path)
    assert rows[0]["version"] == events.SCHEMA_VERSION and rows[-1]["kind"] == "recording_closed"
    kinds = [r.get("kind") for r in rows]
    assert kinds.count("site") == len({json.dumps(e.site, sort_keys=True) for e in seen
                                       if getattr(e, "site", None)})
    if max_refs:
        assert kinds.count("refs_cleared") >= 3
    assert any(type(r) is int for row in rows if row.get("kind") == "op_recorded"
               for r in row["inputs"])                 # repeated refs are written as ids
    scalars = [r["value"] for r in rows if r.get("kind") == "scalar"]
    assert "nan" in scalars and "-inf" in scalars      # never null
    loaded = tv.load_recording(path)
    assert loaded.complete and loaded.warnings == []
    _same(loaded, seen)
    followed = list(tv.follow_recording(path, poll=0.01))
    _same(followed, seen)
    assert any(r["summary"].get("nan") for e in loaded.of("op_recorded")
               for r in e.outputs)                     # the run did make NaN summaries


def test_a_tensor_used_twice_by_one_op_is_written_in_full_once(tmp_path):
    path = tmp_path / "square.tvz"
    with tv.record(path, full=True), events.capture() as seen:
        a = tv.constant(np.arange(3, dtype=np.float32))
        a * a
    op = [r for r in _rows(path) if r.get("kind") == "op_recorded" and r["op"] == "Mul"][0]
    first, second = op["inputs"]
    assert type(first) is dict and second == first["id"]
    back = [e for e in tv.load_recording(path).of("op_recorded") if e.op == "Mul"][0]
    assert back.inputs == seen.of("op_recorded")[-1].inputs
    assert back.inputs[0] is not back.inputs[1]       # each ref its own dict, as emitted


def test_a_field_read_builds_a_deferred_event_once_and_leaves_it_built():
    """A deferred event read field by field equals the same payload given to the dataclass's
    own __init__, and its builder runs once."""
    with events.capture() as seen:
        v = tv.Variable(np.ones(2, np.float32), name="v")
        with tv.GradientTape() as tape:
            y = tv.reduce_sum(v * 3.0)
        tape.gradient(y, v)
    pending = [e for e in seen if events.unbuilt(e)]
    assert pending, "the engine's events are deferred until read"
    for event in pending:
        build, args = event._build
        calls = []

        def counted(*a, build=build, calls=calls):
            calls.append(1)
            return build(*a)

        expected = type(event)(seq=event.seq, time=event.time, **build(*args)).to_dict()
        copy = events.deferred(type(event), counted, *args)
        first = getattr(copy, dataclasses.fields(copy)[2].name)     # one field read
        assert events.engine_built(copy) and first == expected[dataclasses.fields(copy)[2].name]
        got = {**copy.to_dict(), "seq": event.seq, "time": event.time}
        assert json.dumps(got) == json.dumps(expected), event.kind
        assert len(calls) == 1                         # reading it again builds nothing


def test_a_flush_leaves_whole_lines_and_later_events_follow_them(tmp_path):
    path = tmp_path / "flushed.tvz"
    rec = tv.record(path, full=True)
    try:
        tv.events.log_scalar("a", 1.0)
        rec.flush()
        first = _rows(path)
        assert first[-1]["kind"] == "scalar" and first[-1]["name"] == "a"
        tv.events.log_scalar("b", float("inf"))
        rec.flush()
        second = _rows(path)
        assert second[:len(first)] == first and second[-1]["value"] == "inf"
        assert "refs_cleared" not in [r.get("kind") for r in second]   # a scalar holds no refs
    finally:
        rec.close()
    assert tv.load_recording(path).complete


def test_a_line_larger_than_the_buffer_is_written_whole(tmp_path):
    from tapeviz.recording import writer
    path = tmp_path / "big.tvz"
    name = "n" * (writer.FLUSH_BYTES * 3)
    with tv.record(path, full=True) as rec:
        tv.events.log_scalar("before", 1.0)
        tv.events.log_scalar(name, 2.0)
        assert len(rec._buffer) <= writer._BUFFER_SIZE   # grown for that line, then let go
        tv.events.log_scalar("after", 3.0)
    loaded = tv.load_recording(path)
    assert loaded.complete and [e.name for e in loaded.of("scalar")] == ["before", name, "after"]
    assert loaded.footer.events == len(loaded) and loaded.footer.dropped == 0


@pytest.mark.parametrize("last", [True, False])
def test_lines_larger_than_the_buffer_are_counted_and_keep_their_order(tmp_path, last):
    """Such a line is written by itself, after the lines buffered before it (the site it
    names is defined before it); the footer counts its event whether or not more follow."""
    from tapeviz.recording import writer
    path = tmp_path / "big.tvz"
    names = ["a", "n" * (writer._BUFFER_SIZE + 10), "m" * (writer._BUFFER_SIZE // 2), "b",
             "o" * (writer._BUFFER_SIZE - 20)] + ([] if last else ["c"])
    with tv.record(path, full=True) as rec:
        rec._subscription.close()                 # fed directly: only these events
        for i, name in enumerate(names):
            rec._on_event(events.make(events.OpRecorded, node=i, op=name,
                                      site={"file": name[:1] + ".py", "line": i}))
    rows = _rows(path)
    assert [r["op"] for r in rows if r.get("kind") == "op_recorded"] == names
    defined = set()
    for r in rows:
        if r.get("kind") == "site":
            defined.add(r["id"])
        elif r.get("kind") == "op_recorded":
            assert r["site"] in defined
    loaded = tv.load_recording(path)
    assert loaded.complete and loaded.warnings == []
    assert [e.op for e in loaded.of("op_recorded")] == names
    assert loaded.footer.events == len(loaded) and loaded.footer.dropped == 0


def test_a_hand_made_ref_that_cannot_be_compared_leaves_no_site_undefined(tmp_path):
    """A ref whose ``==`` raises (a NumPy array in it) sends its event the sanitised way;
    the new site that event carried must still be defined for the events after it."""
    path = tmp_path / "odd.tvz"

    def op(site, ref):
        return events.make(events.OpRecorded, op="Add", inputs=[ref], site=site)

    with tv.record(path, full=True) as rec:
        rec._subscription.close()               # fed directly: only these three events
        rec._on_event(op({"file": "a.py", "line": 1}, {"id": 1, "summary": {"n": 1}}))
        rec._on_event(op({"file": "b.py", "line": 2},
                         {"id": 1, "summary": {"n": np.array([1, 2])}}))
        rec._on_event(op({"file": "b.py", "line": 2}, {"id": 2, "summary": {"n": 3}}))
    loaded = tv.load_recording(path)
    assert loaded.warnings == []
    assert [e.site for e in loaded.of("op_recorded")] == [
        {"file": "a.py", "line": 1}, {"file": "b.py", "line": 2}, {"file": "b.py", "line": 2}]
