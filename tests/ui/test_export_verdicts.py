"""The exported page decides which side tab a tape opens on as the served dashboard does (one
rule, :func:`tapeviz.ui.render.cards.any_not_a_value`): Why first when a gradient is None, zero,
NaN or Inf, read from its value when the recording carries no verdict."""
from __future__ import annotations

import json

import pytest

from conftest import record_program

NONE_PROGRAM = """\
import tapeviz as tv

x = tv.Variable(1.0, name="x")
unused = tv.Variable(2.0, name="unused")
with tv.GradientTape() as tape:
    y = x * x
grads = tape.gradient(y, [x, unused])
"""

WHY = 2          # the side tabs: Inspector, Backward, Why


def _side_tab(recording, tmp_path):
    from tapeviz.ui.export import build
    from tapeviz.ui.store.source import load_events
    from tapeviz.ui.store.store import Store
    store = Store(max_tapes=100, max_calls=100)
    store.ingest(load_events(str(recording)))
    page = build(store, "t")
    (tid,) = store.tapes
    return next(m for m in page.references() if m.name == f"side_{tid}").active


@pytest.mark.slow
def test_a_none_gradient_opens_why_with_or_without_a_recorded_verdict(tmp_path):
    rec = record_program(tmp_path, "none_prog", NONE_PROGRAM)
    assert _side_tab(rec, tmp_path) == WHY
    # the same run as a writer that records no verdict leaves it: unused's gradient is None
    bare = tmp_path / "bare.tvz"
    with open(rec, encoding="utf-8") as src, open(bare, "w", encoding="utf-8") as out:
        for line in src:
            event = json.loads(line)
            for r in event.get("results") or []:
                if isinstance(r, dict):
                    r.pop("verdict", None)
            out.write(json.dumps(event) + "\n")
    assert _side_tab(bare, tmp_path) == WHY


DEAD_PROGRAM = """\
import tapeviz as tv

x = tv.constant([[1.0, 2.0]])
w = tv.Variable([[0.5], [0.25]], name="w")
b = tv.Variable([-10.0], name="b")
with tv.GradientTape() as tape:
    y = tv.reduce_sum(tv.nn.relu(x @ w + b))
grads = tape.gradient(y, [w, b])
"""


def test_a_zero_gradient_opens_why_served_and_exported(tmp_path):
    # by hand: x @ w + b = 1.0 - 10 < 0, so the ReLU passes nothing: w's and b's gradients
    # are zero (a dead layer), and both pages open on the Why tab
    from tapeviz import ui
    rec = record_program(tmp_path, "dead_prog", DEAD_PROGRAM)
    assert _side_tab(rec, tmp_path) == WHY
    d = ui.Dashboard(str(rec))
    assert d._shown(d.parts["Why"]) and not d._shown(d.parts["Inspector"])


def test_a_long_path_keeps_its_ends_and_counts_the_rest():
    # a path through a recurrent layer: 400 ops; the card shows the first and last four
    from tapeviz.ui.render.cards import path_text
    path = ["MatMul"] + ["Reshape"] * 398 + ["Log"]
    assert path_text(path) == ("MatMul → Reshape → Reshape → Reshape → … 392 ops … → "
                               "Reshape → Reshape → Reshape → Log")
    assert path_text(["MatMul", "AddV2", "Relu"]) == "MatMul → AddV2 → Relu"
