"""A view opened after `tape.gradient(...)` (`tape.show()` in the next notebook cell) must still
see the ops, the call and its backward steps: the tape replays its past calls to that view
alone. The truth is what a subscriber saw live during the original call."""
import copy

import numpy as np
import pytest

import tapeviz as tv
from tapeviz import events

VOLATILE = ("seq", "time", "call")


def _plain(event) -> dict:
    d = event if isinstance(event, dict) else event.to_dict()
    d = copy.deepcopy({k: v for k, v in d.items() if k not in VOLATILE})
    for r in d.get("results", ()):
        # the Python name a source has where the call was made ("x") is looked up in the
        # scope of show(), which may not have it; the tensor's own name is always there
        r["source_name"] = r["tensor"]["name"] in r["source_name"]
    return d


def _calls(stream) -> list:
    """The gradient calls' events in order, without ids, clocks or event sequence numbers."""
    kinds = ("gradient_started", "backward_step", "gradient_finished")
    return [_plain(e) for e in stream if _plain(e)["kind"] in kinds]


def _view_events(tape) -> list:
    source = tape._tapeviz_event_source()
    try:
        return [e if isinstance(e, dict) else e.to_dict() for e in source.poll()]
    finally:
        source.close()


@pytest.fixture(autouse=True)
def keep_values(monkeypatch):
    """As in a notebook (the default there): one-shot tapes keep their values for show()."""
    monkeypatch.setattr(tv.config, "keep_values", True)


def _program(persistent):
    x = tv.Variable(np.array([0.5, -1.0, 2.0], np.float32), name="x")
    w = tv.Variable(np.float32(3.0), name="w")
    with tv.GradientTape(persistent=persistent) as tape:
        h = tv.sin(x) * w
        y = tv.reduce_sum(h * h)
    return tape, x, w, y


@pytest.mark.parametrize("persistent", [False, True])
def test_a_view_opened_after_gradient_replays_the_call_as_it_happened(persistent):
    tape, x, w, y = _program(persistent)
    with events.capture() as live:
        grads = tape.gradient(y, [x, w])
    seen = _view_events(tape)

    assert [e["op"] for e in seen if e["kind"] == "op_recorded"] == ["Sin", "Mul", "Mul", "Sum"]
    replayed, original = _calls(seen), _calls(live)
    assert [e["kind"] for e in replayed] == [e["kind"] for e in original]
    assert sum(e["kind"] == "backward_step" for e in replayed) == 4
    assert replayed == original                      # values, formulas, sites, verdicts
    # and the numbers are the closed-form gradient
    finished = [e for e in replayed if e["kind"] == "gradient_finished"][0]
    xs, wv = np.array([0.5, -1.0, 2.0]), 3.0
    np.testing.assert_allclose(finished["results"][0]["grad"]["value"],
                               2 * wv**2 * np.sin(xs) * np.cos(xs), rtol=1e-5)
    np.testing.assert_allclose(finished["results"][1]["grad"]["value"],
                               2 * wv * np.sum(np.sin(xs) ** 2), rtol=1e-5)
    np.testing.assert_allclose(grads[1].numpy(), finished["results"][1]["grad"]["value"])


def test_the_replay_leaves_the_tape_and_other_listeners_as_they_were():
    tape, x, w, y = _program(persistent=False)
    tape.gradient(y, [x, w])
    outer_x = tv.Variable(1.0)
    with events.capture() as recorder:
        with tv.GradientTape() as outer:
            outer.watch(outer_x)
            seen = _view_events(tape)
    assert any(e["kind"] == "backward_step" for e in seen)
    assert recorder.kinds() == ["tape_opened", "watched", "tape_closed"]   # no second copy
    assert outer._entries == []                      # the outer tape recorded none of it
    with pytest.raises(RuntimeError, match="non-persistent GradientTape"):
        tape.gradient(y, [x, w])                     # still a one-shot tape
    assert tape.explain(y, [x, w])[0].verdict == "value"


def test_several_calls_on_a_persistent_tape_come_back_in_order_with_their_lines():
    x = tv.Variable(np.array([1.0, 2.0], np.float32), name="x")
    with tv.GradientTape(persistent=True) as tape:
        y = x * x
        s = tv.reduce_sum(y)
    tape.gradient(s, x)
    jac = tape.jacobian(y, x)
    tape.gradient(s, tv.Variable(0.0, name="unused"))
    started = [e for e in _view_events(tape) if e["kind"] == "gradient_started"]
    assert [e["method"] for e in started] == ["gradient", "jacobian", "gradient"]
    assert [e["site"]["code"] for e in started] == [
        "tape.gradient(s, x)", "jac = tape.jacobian(y, x)",
        'tape.gradient(s, tv.Variable(0.0, name="unused"))']
    finished = [e for e in _view_events(tape) if e["kind"] == "gradient_finished"]
    np.testing.assert_allclose(finished[1]["results"][0]["grad"]["value"], jac.numpy())
    assert finished[2]["results"][0]["verdict"] == "none"


def test_a_call_that_raised_is_not_replayed():
    x = tv.Variable(1.0)
    with tv.GradientTape(persistent=True) as tape:
        y = x * 2.0
    with pytest.raises(ValueError, match="Argument `sources` must be a tensor"):
        tape.gradient(y, "not a tensor")
    assert not [e for e in _view_events(tape) if e["kind"] == "gradient_started"]


def test_outside_notebooks_a_one_shot_tape_frees_its_values_and_shows_its_lineage(monkeypatch):
    monkeypatch.setattr(tv.config, "keep_values", False)     # the default in scripts
    tape, x, w, y = _program(persistent=False)
    with events.capture() as live:
        tape.gradient(y, [x, w])
    assert tape._entries == [] and tape._kept_entries is None
    seen = _view_events(tape)
    # the graph from lineage: the same ops, edges and lines, no shapes or values (not kept)
    ops = [e for e in seen if e["kind"] == "op_recorded"]
    assert [e["op"] for e in ops] == ["Sin", "Mul", "Mul", "Sum"]
    assert [[r["id"] for r in e["inputs"]] for e in ops][1:] == [
        [ops[0]["outputs"][0]["id"], w._id], [ops[1]["outputs"][0]["id"]] * 2,
        [ops[2]["outputs"][0]["id"]]]
    assert ops[0]["inputs"][0]["id"] == x._id and ops[0]["inputs"][0]["kind"] == "variable"
    assert all(r["shape"] is None and r["summary"] is None for e in ops for r in e["outputs"])
    assert [e["site"]["code"] for e in ops] == ["h = tv.sin(x) * w"] * 2 + ["y = tv.reduce_sum(h * h)"] * 2
    # the call and its answers as they were, without backward steps (they need the values)
    assert not [e for e in seen if e["kind"] == "backward_step"]
    replayed = [e for e in _calls(seen) if e["kind"] != "backward_step"]
    original = [e for e in _calls(live) if e["kind"] != "backward_step"]
    assert replayed == original
    assert tape.explain(y, [x, w])[1].verdict == "value"   # from the lineage

    tape, x, w, y = _program(persistent=False)
    tape.gradient(y, [x, tv.Variable(1.0)])        # a None answer: the values stay
    assert tape._kept_entries
    assert sum(e["kind"] == "backward_step" for e in _view_events(tape)) == 4


def test_a_released_jacobian_comes_back_with_its_values_for_the_heatmap(monkeypatch):
    monkeypatch.setattr(tv.config, "keep_values", False)
    x = tv.Variable(np.linspace(0.1, 1.0, 10).astype(np.float32), name="x")   # 100 > 64 numbers
    with tv.GradientTape() as tape:
        y = tv.sin(x) * x
    with events.capture() as live:
        jac = tape.jacobian(y, x)
    seen = _view_events(tape)
    finished = [e for e in _calls(seen) if e["kind"] == "gradient_finished"]
    assert finished == [e for e in _calls(live) if e["kind"] == "gradient_finished"]
    np.testing.assert_allclose(finished[0]["results"][0]["grad"]["value"], jac.numpy())


def test_a_view_that_is_dropped_stops_listening():
    """A notebook view that goes away must not leave events on (and paid for) ever after."""
    import gc
    x = tv.Variable(2.0, name="x")
    with tv.GradientTape() as tape:
        y = x * x
    tape.gradient(y, x)
    view = tape.show()
    assert tv.events.ACTIVE                  # it follows the tape's new calls while it lives
    del view
    gc.collect()
    assert not tv.events.ACTIVE and not tv.events.subscribers()
