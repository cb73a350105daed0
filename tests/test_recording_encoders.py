"""The recording writer encodes tapeviz's own events with orjson when it is installed and
everything else with the stdlib: both give the same, strictly valid, ASCII JSON lines."""
import json

import numpy as np
import pytest

import tapeviz as tv
from tapeviz import events
from tapeviz.recording import encode


def _strict(line: bytes):
    return json.loads(line, parse_constant=lambda c: pytest.fail(f"{c} in {line[:80]!r}"))


def _work():
    v = tv.Variable(np.linspace(-3, 3, 300, dtype=np.float32).reshape(20, 15), name="v")
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.sin(v) * 2.0) + tv.reduce_sum(tv.math.log(v))   # NaN summaries
        z = tv.clip_by_value(y, float("-inf"), float("nan"))                  # NaN/Inf attrs?
    tape.gradient(y, v)
    events.log_scalar("loss", float("inf"))
    v.assign_sub(0.5 * tv.ones_like(v))
    return z


@pytest.mark.parametrize("fast", [True, False])
def test_both_encoders_write_valid_ascii_json_that_loads_back(tmp_path, monkeypatch, fast):
    if fast:
        import orjson  # noqa: F401  (a runtime dependency: missing it is a failure, not a skip)
    else:
        monkeypatch.setattr(encode, "_orjson", False)
    path = tmp_path / "r.tvz"
    with events.capture() as seen, tv.record(path, full=True):
        _work()
    raw = path.read_bytes()
    assert raw.isascii()
    for line in raw.splitlines():
        _strict(line)
    assert b"\\u2202" in raw                       # formulas: \u escapes, as json writes them
    loaded = tv.load_recording(path)
    assert loaded.complete and not loaded.warnings
    live = [e.to_dict() for e in seen if e.kind not in ("op_defined", "scalar")]
    back = [e.to_dict() for e in loaded if e.kind not in ("op_defined", "scalar")]
    assert json.dumps(live) == json.dumps(back)
    assert loaded.of("scalar")[0].value == float("inf")


def test_orjson_writes_the_same_bytes_as_json_event_by_event():
    dumps = encode._fast_dumps()
    assert dumps is not None, "orjson is a runtime dependency and must be importable"
    import orjson
    assert encode.NEWLINE == orjson.OPT_APPEND_NEWLINE
    with events.capture() as seen:
        _work()
    n = 0
    for e in seen:
        d = e.to_dict()
        if not events.engine_built(e) or not encode._finite_attrs(d.get("attrs")):
            continue
        fast = dumps(d)
        if not fast.isascii():
            fast = fast.decode("utf-8").encode("ascii", "tapeviz-json-ascii")
        slow = encode._encode(d).encode("ascii")
        assert fast == slow, (fast, slow)
        _strict(fast)
        n += 1
    assert n > 5


def test_non_finite_attrs_take_the_strict_path():
    e = events.deferred(events.OpRecorded, lambda: {"op": "X", "attrs": {"a": [1.0, float("nan")]}})
    events.materialize(e)
    assert events.engine_built(e) and not encode._finite_attrs(e.attrs)


def test_ascii_escapes_match_json_including_astral_characters():
    s = "aé·∂😀\u2028"
    assert s.encode("ascii", "tapeviz-json-ascii") == json.dumps(s)[1:-1].encode()


@pytest.mark.parametrize("value", [0.5, float("nan"), float("-inf"), 10**30, True])
def test_scalars_take_the_fast_path_only_when_plain_and_finite(tmp_path, value):
    path = tmp_path / "s.tvz"
    with tv.record(path, full=True):
        events.log_scalar("loss", value, step=3)
    raw = path.read_bytes()
    for line in raw.splitlines():
        _strict(line)
    (e,) = tv.load_recording(path).of("scalar")
    expected = float(value)
    assert (e.value == expected) or (expected != expected and e.value != e.value)
    assert e.step == 3
