"""The recording format across versions: version 2 writes each source site once (a `site`
line) and events refer to it by id; version 3 leaves out a backward step's total that is its
gradient; version 1 files (sites inline) and version 2 files still load the same."""
import json
import pathlib
import threading

import tapeviz as tv
from tapeviz import events
from tapeviz.recording import load_recording

V1 = pathlib.Path(__file__).parent / "fixtures" / "recording_v1.jsonl"


def _json_lines(path):
    return [json.loads(line) for line in pathlib.Path(path).read_bytes().splitlines()]


def test_a_version_1_recording_loads_as_its_lines_say():
    rows = _json_lines(V1)
    assert rows[0]["version"] == 1 and rows[-1]["kind"] == "recording_closed"
    loaded = load_recording(V1)
    assert loaded.complete and loaded.warnings == [] and loaded.header["version"] == 1
    # each event is exactly what its own line holds (version 1 lines are self-contained)
    assert [e.to_dict() for e in loaded] == [events.from_dict(r).to_dict() for r in rows[1:-1]]
    ops = loaded.of("op_recorded")
    assert ops and all(type(e.site) is dict and e.site["code"] for e in ops)
    assert {"watched", "variable_assigned", "escaped", "recording_paused", "gradient_finished",
            "backward_step", "scalar"} <= set(loaded.kinds())


def test_version_1_events_rewritten_in_the_current_version_come_back_equal_and_smaller(tmp_path):
    old = load_recording(V1)
    path = tmp_path / "current.tvz"
    with tv.record(path, full=True) as rec:
        rec._subscription.close()     # only these events, not this process's (as the benchmark)
        for e in old:                 # events from a file (not engine-built): the strict encoder
            rec._on_event(e)
    new = load_recording(path)
    assert new.complete and new.warnings == []
    assert new.header["version"] == events.SCHEMA_VERSION == 3
    extra = len(new) - len(old)       # the op definitions replayed when the writer subscribed
    assert all(e.kind == "op_defined" for e in new[:extra])
    assert [e.to_dict() for e in new[extra:]] == [e.to_dict() for e in old]
    rows = _json_lines(path)
    sites = [r for r in rows if r.get("kind") == "site"]
    distinct = {json.dumps(e.site, sort_keys=True) for e in old if getattr(e, "site", None)}
    assert len(sites) == len(distinct)                   # each source line written once
    assert len({r["id"] for r in sites}) == len(sites)
    defined = set()
    for r in rows[1:]:
        if r.get("kind") == "site":
            defined.add(r["id"])
        elif "site" in r:
            assert r["site"] is None or r["site"] in defined   # ids only, defined before use

    def size(p):   # without op definitions: the writer replays whatever this process defined
        return sum(len(line) for line in p.read_bytes().splitlines() if b'"op_defined"' not in line)
    assert size(path) < size(V1)


def test_each_event_gets_its_own_site_dict():
    loaded = load_recording(V1)
    with_site = [e for e in loaded if getattr(e, "site", None)]
    assert len({id(e.site) for e in with_site}) == len(with_site)


def test_sites_are_defined_before_use_when_threads_race(tmp_path):
    path = tmp_path / "threads.tvz"
    x = tv.constant([1.0, 2.0])

    def work():
        for _ in range(200):
            tv.sin(x)
            tv.cos(x)

    with events.capture() as seen, tv.record(path, full=True):
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    loaded = load_recording(path)
    assert loaded.complete and loaded.warnings == []
    ops = loaded.of("op_recorded")
    assert len(ops) == 1600 and all(type(e.site) is dict for e in ops)
    by_seq = sorted(seen.of("op_recorded"), key=lambda e: e.seq)    # threads interleave
    back = sorted((e.to_dict() for e in ops), key=lambda d: d["seq"])
    assert back == [e.to_dict() for e in by_seq]
    assert sum(r.get("kind") == "site" for r in _json_lines(path)) == 2


def _training(steps=3):
    w = tv.Variable([[0.5, -1.0], [2.0, 0.25]], name="w")
    x = tv.constant([[1.0, 2.0]])
    for step in range(steps):
        with tv.GradientTape() as tape:
            loss = tv.reduce_sum(tv.square(tv.matmul(x, w) - 1.0))
        w.assign_sub(0.01 * tape.gradient(loss, w))
        events.log_scalar("loss", loss, step=step)


def test_repeated_refs_are_written_as_ids_and_come_back_whole(tmp_path):
    path = tmp_path / "train.tvz"
    with events.capture() as seen, tv.record(path, full=True):
        _training()
    loaded = load_recording(path)
    assert loaded.complete and loaded.warnings == []
    body = loaded[len(loaded) - len(seen):]
    assert [e.to_dict() for e in body] == [e.to_dict() for e in seen]
    rows = _json_lines(path)
    named = [r for r in rows if r.get("kind") == "op_recorded" and
             any(type(x) is int for x in r["inputs"])]
    assert named, "an op's input that an earlier line holds is written as its tensor id"
    full = {}
    for r in rows:                    # every id names the last ref written in full for it
        for ref in r.get("inputs", []) + r.get("outputs", []) + [r.get("tensor")]:
            if type(ref) is dict:
                full[ref["id"]] = ref
            elif type(ref) is int:
                assert ref in full
    # an assign changes the variable's ref: written in full; the next step's watch repeats it
    assigned = [r["variable"] for r in rows if r.get("kind") == "variable_assigned"]
    watched = [r["tensor"] for r in rows if r.get("kind") == "watched"]
    assert len(assigned) == 3 and all(type(v) is dict for v in assigned)
    assert type(watched[0]) is dict and watched[1:] == [assigned[0]["id"]] * 2


def test_a_full_ref_table_is_cleared_in_the_file_and_by_readers(tmp_path, monkeypatch):
    from tapeviz.recording import tables
    monkeypatch.setattr(tables, "MAX_REFS", 5)
    path = tmp_path / "small_table.tvz"
    with events.capture() as seen, tv.record(path, full=True):
        _training(steps=4)
    rows = _json_lines(path)
    assert sum(r.get("kind") == "refs_cleared" for r in rows) >= 3
    for reader in (load_recording(path), list(tv.follow_recording(path, poll=0.01))):
        body = reader[len(reader) - len(seen):]
        assert [e.to_dict() for e in body] == [e.to_dict() for e in seen]


def test_an_event_that_must_be_sanitised_does_not_leave_stale_refs(tmp_path):
    import numpy as np
    path = tmp_path / "sanitised.tvz"
    with events.capture() as seen, tv.record(path, full=True):
        a = tv.constant([1.0, 2.0])
        tv.sin(a)
        ref = seen.of("op_recorded")[0].inputs[0]
        odd = dict(ref, summary=dict(ref["summary"], note=np.float32(1.5)))   # not JSON
        events.emit(events.make(events.OpRecorded, node=-1, op="Hand", inputs=[odd]))
        tv.cos(a)                     # the same input as sin's, after the sanitised event
    rows = _json_lines(path)
    kinds = [r.get("kind") for r in rows]
    assert "refs_cleared" in kinds
    cos = [r for r in rows if r.get("kind") == "op_recorded" and r["op"] == "Cos"][0]
    assert type(cos["inputs"][0]) is dict          # written in full again after the clear
    loaded = load_recording(path)
    assert loaded.warnings == []
    hand = [e for e in loaded.of("op_recorded") if e.op == "Hand"][0]
    assert hand.inputs[0]["summary"]["note"] == 1.5
    assert [e.inputs for e in loaded.of("op_recorded") if e.op != "Hand"] == \
        [e.inputs for e in seen.of("op_recorded") if e.op != "Hand"]


def _accumulating_training(steps=2):
    x = tv.Variable([1.0, 2.0], name="x")
    for _ in range(steps):
        with tv.GradientTape() as tape:
            y = tv.reduce_sum(x * x + tv.sin(x))     # x feeds two ops: its gradient accumulates
        x.assign_sub(0.1 * tape.gradient(y, x))


def test_a_gradient_that_is_its_own_total_is_written_once_and_read_back_whole(tmp_path):
    path = tmp_path / "totals.tvz"
    with events.capture() as seen, tv.record(path, full=True):
        _accumulating_training()
    steps = [e for e in seen if e.kind == "backward_step"]
    emitted = [ig for e in steps for ig in e.input_grads]
    assert {ig["accumulated"] for ig in emitted} == {False, True}
    # an input's first gradient is its total: the engine hands one summary for both
    assert all((ig["total"] is ig["grad"]) != ig["accumulated"] for ig in emitted)
    written = [ig for r in _json_lines(path) if r.get("kind") == "backward_step"
               for ig in r["input_grads"]]
    assert len(written) == len(emitted)
    for line, ig in zip(written, emitted):
        assert ("total" in line) == ig["accumulated"]
        assert line["grad"] == ig["grad"]
        if ig["accumulated"]:
            assert line["total"] == ig["total"] != ig["grad"]
    back = [e for e in load_recording(path) if e.kind == "backward_step"]
    assert [e.to_dict() for e in back] == [e.to_dict() for e in steps]
    assert all(ig["total"] is not ig["grad"] for e in back for ig in e.input_grads)


def test_only_a_version_3_file_has_its_left_out_totals_put_back(tmp_path):
    grad = {"shape": [], "dtype": "float32", "size": 1, "value": 2.0}
    step = {"kind": "backward_step", "seq": 1, "time": 0.0, "call": 1, "step": 0, "node": 1,
            "op": "Neg", "formula": "", "upstream": [],
            "input_grads": [{"index": 0, "tensor": 1, "grad": grad, "accumulated": False}]}
    got = {}
    for version in (2, 3):
        path = tmp_path / f"v{version}.tvz"
        path.write_text(json.dumps({"format": "tapeviz-recording", "version": version}) + "\n"
                        + json.dumps(step) + "\n")
        loaded = load_recording(path)
        assert loaded.warnings == [] and len(loaded) == 1
        got[version] = loaded[0].input_grads[0]
    assert "total" not in got[2]          # version 2 wrote every total: none is invented
    assert got[3]["total"] == grad and got[3]["total"] is not got[3]["grad"]
