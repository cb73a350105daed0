"""The flight policy over long runs: a NaN at any step is in the file with its lead-up, a
10,000-step run stays under 1 KiB a step, and the view opens on the NaN."""
import gc
import os
import sys
import weakref

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tapeviz as tv

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_flight_recorder import _rows, _train  # noqa: E402

BEFORE = 5          # the default lead-up
FIRST, EVERY = 3, 100


def _check_caught(path, bad_step, steps):
    """The file holds a summary of every call; the NaN call and the BEFORE calls before it
    in full (as lead-up, or kept anyway as first or periodic calls); and a store opens on it.
    Returns the rows."""
    from tapeviz.ui.store.store import Store
    rows = _rows(path)
    summaries = {r["index"]: r for r in rows if r.get("kind") == "call_summary"}
    assert sorted(summaries) == list(range(1, steps + 1))
    full = {r["call"] for r in rows if r.get("kind") == "gradient_finished"}
    bad = summaries[bad_step]
    assert bad["why"] == "verdict" and bad["call"] in full
    assert {s["verdict"] for s in bad["sources"]} == {"nan"}
    before = range(max(1, bad_step - BEFORE), bad_step)
    for i in before:
        assert summaries[i]["call"] in full, i
    kept_anyway = {i for i in before if i <= FIRST or i % EVERY == 0}
    assert bad["lead_up"] == [i for i in before if i not in kept_anyway]
    # nothing else in full but the first, the periodic and (the NaN stays in its call) it
    expected = {i for i in summaries if i <= FIRST or i % EVERY == 0} | set(before) | {bad_step}
    assert {i for i, s in summaries.items() if s["call"] in full} == expected
    store = Store()
    store.ingest(tv.load_recording(path))
    assert store.opening_call() == bad["call"]
    return rows


@pytest.mark.slow
@settings(max_examples=25, deadline=None, derandomize=False)
@given(bad_step=st.integers(min_value=1, max_value=230))
def test_a_nan_at_any_step_is_caught_with_its_lead_up(tmp_path_factory, bad_step):
    path = tmp_path_factory.mktemp("flight") / "run.tvz"
    steps = bad_step + 3
    with np.errstate(all="ignore"), tv.record(path):
        _train(steps=steps, bad_step=bad_step, guard=True)
    _check_caught(path, bad_step, steps)


def _dense_loop(steps, bad_step):
    """The Dense 16-16-4 loop of benchmarks/flight_recording.py; at ``bad_step`` a NaN in the
    batch, and that step updates nothing (the loop skips non-finite gradients)."""
    rng = np.random.default_rng(0)
    x_good = rng.normal(size=(32, 16)).astype(np.float32)
    x_bad = x_good.copy()
    x_bad[5, 3] = np.nan
    labels = tv.constant(rng.integers(0, 4, size=32).astype(np.int32))
    model = tv.keras.Sequential([tv.keras.layers.Dense(16, activation="relu"),
                                 tv.keras.layers.Dense(4)])
    opt = tv.keras.optimizers.SGD(learning_rate=0.05)
    for step in range(1, steps + 1):
        x = tv.constant(x_bad if step == bad_step else x_good)
        with tv.GradientTape() as tape:
            loss = tv.reduce_mean(tv.nn.sparse_softmax_cross_entropy_with_logits(
                labels=labels, logits=model(x)))
        grads = tape.gradient(loss, model.trainable_variables)
        if step != bad_step:
            opt.apply_gradients(zip(grads, model.trainable_variables))
        tv.events.log_scalar("loss", loss, step)


@pytest.mark.slow
def test_ten_thousand_steps_with_a_nan_at_step_7321(tmp_path):
    steps, bad_step = 10_000, 7321
    path = tmp_path / "run.tvz"
    with np.errstate(all="ignore"), tv.record(path) as rec:
        _dense_loop(steps, bad_step)
    rows = _check_caught(path, bad_step, steps)
    size = os.path.getsize(path)
    assert size / steps <= 1024, f"{size / steps:.0f} bytes a step"
    assert rec.flight.ring_dropped == 0
    # the summaries carry every logged loss (the last one, after the last call, at close)
    losses = [s["step"] for r in rows if r.get("kind") == "call_summary"
              for s in r["scalars"]]
    assert losses == list(range(1, steps))


def _steps(x, w, n) -> list:
    """``n`` training steps; weak references to an activation of each (this frame, whose
    locals a recording reads for names, goes when it returns)."""
    made = []
    for _ in range(n):
        with tv.GradientTape() as tape:
            h = tv.matmul(x, w)
            loss = tv.reduce_sum(h * h)
        made.append(weakref.ref(h._value))
        w.assign_sub(0.01 * tape.gradient(loss, w))
    return made


def test_a_closed_recording_lets_go_of_the_tensors_of_its_ring(tmp_path):
    """After ``with tv.record(path) as rec:`` the object lives on, but the steps in its ring
    can no longer be written: their arrays must not stay alive with it."""
    x = tv.constant(np.ones((4, 3), np.float32))
    w = tv.Variable(np.full((3, 2), 0.5, np.float32))
    with tv.record(tmp_path / "run.tvz") as rec:
        made = _steps(x, w, 6)          # calls 1-3 kept (the first ones), 4-6 in the ring
        assert len(rec.flight.ring) == 3
    gc.collect()        # (a step's tensors and nodes refer to each other)
    assert rec.flight.ring_held == 0 and not rec.flight.ring
    # (the kept calls' arrays may stay in the summaries' bounded cache: they were summarized)
    assert [ref() is None for ref in made[3:]] == [True] * 3
