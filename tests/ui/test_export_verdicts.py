"""The exported page decides which side tab a tape opens on as the served dashboard does (one
rule, :func:`tapeviz.ui.render.cards.any_not_finite`): Why first when a gradient is None, NaN
or Inf, read from its value when the recording carries no verdict."""
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
