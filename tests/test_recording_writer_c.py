"""The recording writer's usual event runs in C (tapeviz/recording/_writer.c) when that was
built; writer.py's Python does everything else, and all of it without C. Fed the same events,
both must write the same bytes, line for line: real engine events (built, unbuilt, NaN and Inf
in summaries, a table that fills up) and odd ones that the C code hands back to Python."""
import json
import os
import threading
import types

import numpy as np
import pytest

import tapeviz as tv
from tapeviz import events
from tapeviz.events.deferred import _get_pending, _set_pending, deferred
from tapeviz.recording import tables, writer


def test_the_c_writer_is_built_and_used(tmp_path):
    rec = tv.record(tmp_path / "run.tvz")
    try:
        if os.environ.get("TAPEVIZ_PURE_PYTHON", "") not in ("", "0"):
            assert writer._c_write is None and rec._write_c is None
            assert rec._on_event.__func__ is writer.record._on_event
            return
        assert writer._c_write is not None, (
            "tapeviz/recording/_writer.c was not built: recordings are written by the Python "
            "version, more slowly")
        assert rec._write_c is writer._c_write
        assert rec._on_event.__func__ is writer._c_on_event
    finally:
        rec.close()


@pytest.fixture
def c_write():
    """The C functions themselves (write, on_event), also where TAPEVIZ_PURE_PYTHON=1 left
    them unused. Not built, this import fails the test: the writers are compared, never one
    of them skipped."""
    from tapeviz.recording import _tables, native
    return native.setup(_tables, writer)


def _fed_directly(path):
    """A writer fed only the events a test gives it, flushed only by them and at close (not
    by the background thread, whose timing would differ between two writers)."""
    rec = tv.record(path)
    rec._subscription.close()
    writer._open_recordings.remove(rec)
    return rec


class _Counted:
    """The C write, counting what it answered (1: written, 0: not handled, -1: error)."""
    def __init__(self, write):
        self.write, self.answers = write, []

    def __call__(self, *args):
        done = self.write(*args)
        self.answers.append(done)
        return done


def _writers(tmp_path, c_write):
    """Three writers: all C (on_event and write), Python's _on_event around C's write
    (counted), all Python."""
    write, on_event = c_write
    recs = [_fed_directly(tmp_path / f"{name}.tvz") for name in ("c", "c_write", "python")]
    recs[0]._write_c, recs[0]._on_event = write, types.MethodType(on_event, recs[0])
    recs[1]._write_c = _Counted(write)
    recs[1]._on_event = recs[2]._on_event = None
    del recs[1]._on_event, recs[2]._on_event      # the class's method, Python
    recs[2]._write_c = None
    return recs


def _write_both(tmp_path, stream, c_write):
    """Each event to each writer (its own twin of it, in turn); their files' lines (the
    header and the footer without their times) must be the same. Returns the lines and
    what the C write answered."""
    recs = _writers(tmp_path, c_write)
    for event in stream:     # each its own twin: writing an event can build it
        for rec, twin in zip(recs, _twins(event, len(recs))):
            rec._on_event(twin)
        # and the same state after each event: the same flush points, the same tables
        states = [(rec._end, rec._buffered_events, rec.events_written, rec.dropped,
                   os.path.getsize(rec.path), len(rec._tables.refs), len(rec._tables.sites))
                  for rec in recs]
        assert states[0] == states[2] and states[1] == states[2]
    for rec in recs:
        rec.close()
    files = []
    for rec in recs:
        lines = open(rec.path, "rb").read().split(b"\n")
        assert lines[-1] == b""
        footer = json.loads(lines[-2])
        files.append((lines[1:-2], footer["events"], footer["dropped"], rec.events_written,
                      rec.dropped))
    assert files[0] == files[2]
    assert files[1] == files[2]
    return files[0][0], recs[1]._write_c.answers


def _twins(event, n=2):
    """Two copies of an event: a deferred one's payload built once (as the engine's are
    before a recording reads them) and left deferred on it; any other one slot for slot."""
    cls = type(event)
    try:
        pending = _get_pending(event)
    except AttributeError:
        pending = None
    twins = [object.__new__(cls) for _ in range(n)]
    if pending:
        try:
            build = _built(pending[0](*pending[3:]))
        except ValueError:       # a payload that raises: raises for both
            build = pending[0]
        for twin in twins:
            _set_pending(twin, (build, pending[1], pending[2]))
        return twins
    for klass in cls.__mro__:
        for name in set(klass.__dict__.get("__slots__", ())) - {"__weakref__"}:
            slot = klass.__dict__[name]
            get, put = ((slot.get, slot.set) if hasattr(slot, "get")
                        else (slot.__get__, slot.__set__))
            try:
                value = get(event)
            except AttributeError:        # never set (made without __init__)
                continue
            for twin in twins:
                put(twin, value)
    return twins


def _mlp_events(steps=4, build=0):
    """Real events of a few training steps, with NaN and Inf in summaries; ``build``: every
    how-many-th event is built before the writers see it (the rest stay deferred)."""
    rng = np.random.default_rng(3)
    x = tv.constant(rng.normal(size=(8, 4)).astype(np.float32))
    w = tv.Variable(rng.normal(size=(4, 3)).astype(np.float32), name="w")
    b = tv.Variable(np.zeros(3, np.float32), name="b")
    with events.capture(replay_definitions=True) as seen:
        for step in range(steps):
            with tv.GradientTape() as tape:
                h = tv.tanh(tv.matmul(x, w) + b)
                odd = tv.math.log(h) + 1.0 / (h - h)
                loss = tv.reduce_mean(h * h) + tv.reduce_sum(odd) * 0.0
            grads = tape.gradient(loss, [w, b])
            for v, g in zip((w, b), grads):
                v.assign_sub(0.1 * g)
            tv.events.log_scalar("loss", float(loss), step)
    out = list(seen)
    if build:
        for e in out[::build]:
            events.materialize(e)
    return out


@pytest.mark.parametrize("build", [0, 1, 3])
@pytest.mark.parametrize("max_refs", [None, 5])
def test_real_events_are_written_the_same_by_c_and_python(tmp_path, monkeypatch, c_write,
                                                          build, max_refs):
    if max_refs is not None:        # a table that fills up: refs_cleared lines
        monkeypatch.setattr(tables, "MAX_REFS", max_refs)
    lines, answers = _write_both(tmp_path, _mlp_events(build=build), c_write)
    assert answers.count(1) > 0.6 * len(answers)      # C wrote most of them itself
    assert any(line.startswith(b'{"kind":"site"') for line in lines)
    assert (b'{"kind":"refs_cleared"}' in lines) == (max_refs is not None)
    assert b'"formula":"\\u2202' in b"".join(lines)   # escaped as json.dumps does


def _built(values):
    return lambda: values


def _payload_raises():
    raise ValueError("a payload that cannot be built")


SITE = {"file": "odd.py", "line": 1, "func": "f", "code": "x"}
REF = {"id": 900, "name": "r", "shape": [], "dtype": "float32"}
GRAD = {"shape": [2], "dtype": "float32", "size": 2, "value": [0.5, -1.0]}


class _Weird:
    def __eq__(self, other):
        raise TypeError("no comparing me")
    __hash__ = None


def _odd_events():
    """Engine-built (deferred) events with payloads the C code must hand back, each beside a
    usual one; and events made by hand (the Python way entirely)."""
    op = events.OpRecorded

    def ev(cls, **values):
        return deferred(cls, _built(values))
    big = "n" * (writer._BUFFER_SIZE + 10)
    return [
        ev(op, node=1, op="Add", inputs=[REF], outputs=[], attrs={}, site=dict(SITE)),
        ev(op, node=2, op="Add", inputs=[dict(REF)], outputs=[], attrs={"a": 1.5},
           site=dict(SITE)),                                          # known ref and site
        ev(op, node=3, op="Clip", inputs=[], outputs=[], attrs={"lo": float("nan")}),
        ev(op, node=4, op="Clip", inputs=[], outputs=[], attrs={"v": [1.0, float("inf")]}),
        ev(op, node=5, op="Clip", inputs=[], outputs=[], attrs={"v": np.float64(2.0)}),
        ev(op, node=6, op="Clip", inputs=[], outputs=[], attrs={"v": [np.float64(2.0)]}),
        ev(op, node=7, op="Clip", inputs=[], outputs=[], attrs=None),
        ev(op, node=8, op="Clip", inputs=[], outputs=[], attrs=[]),
        ev(op, node=9, op="Ünïcode ☃ 𝄞", inputs=[], outputs=[], attrs={}),      # not ASCII
        ev(op, node=10, op="Set", inputs=[], outputs=[], attrs={"s": {1, 2}}),  # not JSON
        ev(op, node=11, op="F32", inputs=[], outputs=[], attrs={"v": np.float32(1)}),
        ev(op, node=12, op="Deep", inputs=[], outputs=[], attrs={"d": [[[[1]]]]}),
        ev(op, node=13, op="NoAttrs", inputs=[], outputs=[]),          # a field left out
        ev(op, node=14, op=big, inputs=[], outputs=[], attrs={},
           site={"file": "new.py", "line": 2}),                        # larger than the buffer
        ev(op, node=15, op="Mid", inputs=[], outputs=[], attrs={}, site={"file": "new.py",
                                                                        "line": 2}),
        ev(op, node=16, op="Hand", inputs=[{"id": 901, "w": _Weird()}], outputs=[], attrs={}),
        ev(op, node=17, op="Hand", inputs=[{"id": 901, "w": _Weird()}], outputs=[], attrs={}),
        ev(op, node=18, op="Site", inputs=[], outputs=[], attrs={},
           site={"file": ["unhashable"], "line": 3}),
        ev(events.Watched, tape=1, tensor=dict(REF), how="auto", site=dict(SITE)),
        ev(events.Watched, tape=1, tensor=7, how="auto", site=None),
        ev(events.BackwardStep, call=1, step=0, node=1, op="Mul", formula="∂a = g · b",
           upstream=[], input_grads=[]),
        ev(events.BackwardStep, call=1, step=1, node=1, op="Mul", formula="∂a = g · b",
           upstream=[], input_grads=[]),
        ev(events.BackwardStep, call=1, step=2, node=1, op="Mul", formula=None),
        ev(events.BackwardStep, call=1, step=3, node=1, op="Mul"),      # no formula
        ev(events.BackwardStep, call=1, step=4, node=1, op="Mul", formula="f", upstream=[],
           input_grads=[{"index": 0, "grad": GRAD, "accumulated": False, "total": GRAD},
                        {"index": 1, "grad": GRAD, "accumulated": True, "total": dict(GRAD)},
                        {"index": 2, "grad": None, "total": None}, {"index": 3, "grad": GRAD},
                        {"total": GRAD, "grad": GRAD, "index": 4}, "not a dict", 7]),
        ev(events.BackwardStep, call=1, step=5, node=1, op="Mul", formula="f", upstream=[],
           input_grads="not a list"),
        ev(events.BackwardStep, call=1, step=6, node=1, op="Mul", formula="f"),  # no grads
        ev(events.GradientFinished, call=1, tape=1, results=[{"tensor": dict(REF)}]),
        ev(events.TapeOpened, tape=2, site={"file": "odd.py", "line": 1, "func": "g"}),
        deferred(op, _payload_raises),
        events.make(op, node=20, op="ByHand", attrs={"x": float("nan")}, site=dict(SITE)),
        events.make(events.Scalar, name="loss", value=float("inf"), step=1),
        events.make(events.Scalar, name="ok", value=1.0, step=2),
        object.__new__(events.Watched),                                 # made without __init__
        events.make(events.Scalar, name="int", value=3, step=3),
        events.make(events.Scalar, name="bool", value=True, step=4),
        events.make(events.Scalar, name="np", value=np.float64(2.5), step=5),
        events.make(events.Scalar, name=float("nan"), value=2.5, step=6),   # orjson: null
        events.make(op, node=22, op="Plain", attrs={"x": 1.0, "l": [1, "a", None]},
                    inputs=[dict(REF)], site=dict(SITE)),
        events.make(op, node=23, op="Tuple", attrs={"t": (1, 2)}),
        events.make(op, node=24, op="Deep", attrs={"d": [[{"e": 1}]]}),
        events.make(op, node=25, op="IntKey", attrs={1: "one"}),
        events.make(op, node=26, op="Ünïcode", attrs={}, site={"file": "ü.py", "line": 9}),
        events.make(events.TapeOpened, tape=3, site={"file": "odd.py", "line": 1, "func": "g"}),
        ev(op, node=21, op="After", inputs=[REF], outputs=[REF], attrs={}, site=dict(SITE)),
    ]


def test_odd_events_are_written_the_same_by_c_and_python(tmp_path, c_write):
    stream = _odd_events()
    lines, answers = _write_both(tmp_path, stream, c_write)
    assert 1 in answers and 0 in answers and -1 in answers
    assert sum(1 for line in lines if line.startswith(b'{"kind":"op_recorded"')) >= 18
    assert all(line.isascii() for line in lines)
    assert any(len(line) > writer._BUFFER_SIZE for line in lines)


def test_events_read_back_from_a_recording_are_written_the_same(tmp_path, c_write):
    first, _ = _write_both(tmp_path, _mlp_events(steps=2, build=2), c_write)
    loaded = list(tv.load_recording(tmp_path / "python.tvz"))
    assert len(loaded) > 50
    (tmp_path / "again").mkdir()
    lines, _ = _write_both(tmp_path / "again", loaded, c_write)
    assert len(lines) >= len(first) - 2


def test_a_stream_of_usual_events_past_every_flush_is_the_same(tmp_path, monkeypatch, c_write):
    monkeypatch.setattr(writer, "FLUSH_EVENTS", 7)       # read at every event, by both
    stream = _mlp_events(steps=6, build=2) + _odd_events() + _mlp_events(steps=2)
    lines, answers = _write_both(tmp_path, stream, c_write)
    assert answers.count(1) > 0.5 * len(answers)


def test_a_closed_or_failed_writer_counts_the_same(tmp_path, c_write):
    stream = _mlp_events(steps=2)
    recs = _writers(tmp_path, c_write)
    for i, rec in enumerate(recs):
        twins = [_twins(e, len(recs))[i] for e in stream]
        for e in twins[:30]:
            rec._on_event(e)
        rec.flush()
        for e in twins[30:40]:
            rec._on_event(e)
        rec._file.close()          # the disk goes away: the next flush fails
        with pytest.warns(RuntimeWarning, match="stopped"):
            for e in twins[40:] * 200:
                rec._on_event(e)
        rec.close()
        rec._on_event(twins[0])    # closed: nothing more
    counts = {(rec.events_written, rec.dropped) for rec in recs}
    assert len(counts) == 1 and recs[0].dropped > 0


def test_the_c_on_event_takes_the_lock_and_lets_it_go(tmp_path, c_write):
    rec = _writers(tmp_path, c_write)[0]
    event = _mlp_events(steps=1)[5]
    before = rec._buffered_events      # (the op definitions replayed to it)
    rec._lock.acquire()
    done = threading.Event()
    thread = threading.Thread(target=lambda: (rec._on_event(event), done.set()))
    thread.start()
    assert not done.wait(0.2)      # it waits for the lock the flusher would hold
    rec._lock.release()
    assert done.wait(5)
    thread.join()
    assert rec._buffered_events == before + 1 and not rec._lock.locked()
    rec.close()


def test_the_c_write_calls_orjson_not_the_strict_encoder(tmp_path, c_write):
    """orjson tells its keyword by identity: a C call it did not understand would raise
    TypeError and send every line the slow strict way (the same bytes, or nearly)."""
    rec = _writers(tmp_path, c_write)[0]

    def strict(data):
        raise AssertionError(f"the strict encoder wrote {data.get('kind')}")
    rec._strict = strict
    for event in _mlp_events(steps=2):
        if event.kind not in ("gradient_finished", "scalar"):   # (these may go the strict way)
            rec._on_event(event)
    rec.close()
