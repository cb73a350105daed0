"""What the training charts draw, without a browser: the state of a gradient (read from its
summary, not its norm), the smoothing, the grouping by layer, and the scalars' axes."""
from __future__ import annotations

import math
import pathlib
import runpy
import warnings

import numpy as np
import pytest

import tapeviz as tv
from tapeviz.events import summarize
from tapeviz.ui.store.chart_series import (ema, gradient_state, ordered_by_group, scalar_group,
                                     value_state)

CORPUS = pathlib.Path(__file__).resolve().parents[2] / "broken_runs"


@pytest.mark.parametrize("grad, state", [
    ([3.0, float("nan")], "nan"),
    ([3.0, float("inf")], "inf"),
    ([0.0, 0.0], "zero"),
    ([1e-30, 0.0], "value"),            # vanishing but drawable on a log axis
    ([3.0, 4.0], "value"),
])
def test_gradient_state_reads_the_summary(grad, state):
    summary = summarize(np.array(grad, dtype=np.float32))
    assert gradient_state({"grad": summary, "norm": summary.get("norm")}) == state


def test_a_nan_gradient_has_a_healthy_looking_norm():
    """Why the norm alone cannot be trusted: it covers the finite elements only."""
    summary = summarize(np.array([3.0, float("nan")], dtype=np.float32))
    assert summary["norm"] == 3.0
    assert gradient_state({"grad": summary, "norm": summary["norm"]}) == "nan"
    assert gradient_state({"grad": None, "norm": None}) == "none"


def test_an_empty_gradient_is_drawn_as_the_engine_says_not_as_none():
    """A source of size 0 gets a gradient of size 0 (a tensor, not None): its summary has no
    norm, which the charts must not read as no gradient at all."""
    from tapeviz import events
    from tapeviz.ui.store.store import Store
    empty = tv.Variable(np.zeros((0,), np.float32), name="empty")
    w = tv.Variable(np.ones(2, np.float32), name="w")
    with events.capture() as seen:
        with tv.GradientTape() as tape:
            y = tv.reduce_sum(empty * 2.0) + tv.reduce_sum(w * w)
        grads = tape.gradient(y, [empty, w])
    assert grads[0] is not None and tuple(grads[0].shape) == (0,)
    (finished,) = seen.of("gradient_finished")
    verdicts = {r["tensor"]["name"]: r["verdict"] for r in finished.results}
    store = Store()
    store.ingest([e.to_dict() for e in seen])
    states = {h["name"]: h["state"] for h in store.history}
    # by hand: an empty gradient holds no non-zero element (zero, not None), w's is 2w
    assert states == {"empty:0": "zero", "w:0": "value"}, (states, verdicts)


def test_value_state():
    assert [value_state(v) for v in (0.0, 1.5, "nan", float("inf"), "-inf", None)] == \
        ["value", "value", "nan", "inf", "inf", "none"]


def test_ema_is_a_weighted_mean_of_the_finite_points():
    assert ema([1.0, 2.0, 4.0], 0.0) == [1.0, 2.0, 4.0]
    assert ema([5.0] * 4, 0.9) == pytest.approx([5.0] * 4)      # no pull toward 0
    out = ema([1.0, math.nan, 3.0], 0.5)
    assert math.isnan(out[1])
    # two finite points with weights 0.5 (older) and 1: (0.5 * 1 + 3) / 1.5
    assert out[0] == 1.0 and out[2] == pytest.approx(3.5 / 1.5)


def test_groups():
    assert ordered_by_group(["dense/kernel:0", "out:0", "dense/bias:0"]) == \
        ["dense/kernel:0", "dense/bias:0", "out:0"]
    assert scalar_group("val_loss") == scalar_group("train/loss") == scalar_group("loss")
    assert scalar_group("accuracy") != scalar_group("loss")


def test_a_layers_variables_share_a_colour(tmp_path):
    """sequential_six_layers: dense_k/kernel and dense_k/bias share a colour (one dash each),
    and the layers' colours differ."""
    from tapeviz.ui.dashboard.dashboard import Dashboard
    out = tmp_path / "run.tvz"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with tv.record(str(out), full=True):
            runpy.run_path(str(CORPUS / "sequential_six_layers.py"), run_name="__main__")
    d = Dashboard(str(out))
    d.parts["Training"].refresh()
    colour = {n.split(":")[0]: v["color"] for n, v in d.parts["Training"].vars.items()}
    layers = sorted({n.rsplit("/", 1)[0] for n in colour})
    assert len(layers) == 6
    for layer in layers:
        assert colour[f"{layer}/kernel"] == colour[f"{layer}/bias"]
    assert len({colour[f"{layer}/kernel"] for layer in layers}) == 6
