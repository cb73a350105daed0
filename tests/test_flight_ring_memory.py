"""A flight recording's ring buffer is bounded by the memory its calls keep alive: the arrays
their held events hold, each counted once where it was made (``recording/flight_memory.py``),
not only the bytes their events would take in the file."""
import json
from contextlib import nullcontext

import numpy as np
import pytest

import tapeviz as tv
from tapeviz import events

N, D, H = 256, 8, 64        # a batch of N rows of D features, one layer of H units
STEPS, BAD_STEP = 20, 20
F32 = 4                     # bytes of a float32

# What one call makes, by hand from the shapes (below: h = x @ w, loss = sum(h * h), then
# w.assign_sub(1e-4 * grad)), each array once:
#   ops:         h (N x H), h * h (N x H), the loss (a scalar), 1e-4 * grad (D x H)
#   backward:    sum's gradient for h * h (N x H); mul's for each of its two inputs, both h,
#                and their sum (3 x N x H); matmul's for w (D x H; x is a constant: none)
#   assignment:  w's new value (D x H)
CALL_ARRAYS = F32 * (N * H + N * H + 1 + D * H + N * H + 3 * N * H + D * H + D * H)
# With tv.keras.optimizers.SGD instead, no op makes the update: its event holds what makes
# it again when read, the gradient (D x H, in place of 1e-4 * grad: counted a second time,
# an over-count) and the learning rate (a float32 scalar, 4 bytes); and the optimizer's
# step count (an int64 variable) is assigned too: its new value and its update, 8 bytes each.
SGD_CALL_ARRAYS = CALL_ARRAYS + 4 + 8 + 8


@pytest.fixture(autouse=True)
def _clean_state():
    before = events.subscribers()
    yield
    assert events.subscribers() == before, "a test left a subscriber behind"


def _train(steps=STEPS, bad_step=BAD_STEP, sgd=False):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(N, D)).astype(np.float32)
    bad = x.copy()
    bad[0, 0] = np.nan
    w = tv.Variable(rng.normal(size=(D, H)).astype(np.float32))
    optimizer = tv.keras.optimizers.SGD(learning_rate=1e-4)
    for step in range(1, steps + 1):
        with tv.GradientTape() as tape:
            h = tv.matmul(tv.constant(bad if step == bad_step else x), w)
            loss = tv.reduce_sum(h * h)
        (grad,) = tape.gradient(loss, [w])
        if sgd:
            optimizer.apply_gradients([(grad, w)])
        else:
            w.assign_sub(1e-4 * grad)


def _summaries(path):
    with open(path) as f:
        rows = [json.loads(line) for line in f]
    return {r["index"]: r for r in rows if r.get("kind") == "call_summary"}


@pytest.mark.parametrize("alone", [True, False], ids=["alone", "with-a-listener"])
@pytest.mark.parametrize("sgd", [False, True], ids=["assign_sub", "sgd"])
def test_a_ring_call_counts_the_arrays_it_keeps_alive(tmp_path, alone, sgd):
    """Alone, the recorder holds the engine's events unmade; with another subscriber it
    gets them made, unbuilt (the listener reads nothing): the same arrays either way."""
    with tv.record(tmp_path / "run.tvz", flight={"first": 0, "every": 0}) as rec:
        with events.subscribe(lambda event: None) if not alone else nullcontext():
            _train(steps=8, bad_step=None, sgd=sgd)
        ring = list(rec.flight.ring)
        assert {len(item) for item in ring[0].events if item[0] is events.OpRecorded} == (
            {5} if alone else {2})
        # (the newest is counted when its thread's next call begins)
        assert [c.arrays for c in ring[:-1]] == [SGD_CALL_ARRAYS if sgd else CALL_ARRAYS] * 4
        assert all(c.arrays < c.bytes < c.arrays + 64 * 1024 for c in ring[:-1])
        assert rec.flight.ring_held == sum(c.bytes for c in ring)


def test_a_ring_keeps_only_the_calls_whose_arrays_fit(tmp_path):
    """A bound of three and a half calls' arrays: the three newest calls before the NaN are
    its lead-up, and its summary says the bound let the other two go."""
    bound = 3 * CALL_ARRAYS + CALL_ARRAYS // 2
    held = []
    path = tmp_path / "run.tvz"
    with tv.record(path, flight={"first": 0, "every": 0, "before": 5,
                                 "ring_bytes": bound}) as rec:
        original = rec.flight._settle

        def settle(call):
            original(call)
            held.append(rec.flight.ring_held)
        rec.flight._settle = settle
        _train()
    assert held and max(held) <= bound
    bad = _summaries(path)[BAD_STEP]
    assert bad["why"] == "verdict"
    assert bad["lead_up"] == [BAD_STEP - 3, BAD_STEP - 2, BAD_STEP - 1]
    assert bad["lead_up_dropped"] == 2
