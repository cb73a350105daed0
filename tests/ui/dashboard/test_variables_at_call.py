"""The Variables table shows the state at the gradient call shown, as the Why tab does, and
says so in its title: at the first call whose gradient overflowed, the weights were still
finite, though later steps made them Inf/NaN. Truth: the weights the script itself wrote down
before each gradient call (``w.numpy()``), and the float32 overflow of its gradient."""
from __future__ import annotations

import json
import math
import re

from tapeviz.ui.dashboard.dashboard import Dashboard
from tapeviz.ui.dashboard.variables_table import COLUMNS
from tapeviz.ui.store.source import store_for

from conftest import record_program

# loss = sum(w^4): gradient 4 w^3; with lr 1 the step overshoots and w grows until 4 w^3
# passes float32's largest value (the third call), then w itself turns Inf and NaN
EXPLODING = """
import json
import tapeviz as tv
w = tv.Variable([2.0, 1.0], name="w")
seen = []
for step in range(6):
    seen.append([float(v) for v in w.numpy()])
    with tv.GradientTape() as tape:
        loss = tv.reduce_sum(w ** 4)
    g = tape.gradient(loss, w)
    w.assign_sub(1.0 * g)
json.dump(seen, open("seen.json", "w"))
"""


def _values(text: str) -> list:
    """The numbers a small value's summary lists: ``[-5.035e+15, -4.63e+06]``."""
    return [float(v) for v in re.findall(r"[-+]?(?:inf|nan|[0-9.]+(?:e[-+]?[0-9]+)?)", text)]


def _close(text: str, truth: list) -> bool:
    got = _values(text)
    return len(got) == len(truth) and all(math.isclose(a, b, rel_tol=1e-3)
                                          for a, b in zip(got, truth))


def test_the_table_shows_the_state_at_the_call_shown(tmp_path):
    path = record_program(tmp_path, "exploding", EXPLODING)
    seen = json.loads((tmp_path / "seen.json").read_text())
    # the first call whose gradient overflows float32, computed here from the weights seen
    first_bad = next(i for i, w in enumerate(seen)
                     if not all(math.isfinite(v) and abs(4 * v ** 3) < 3.4028235e38 for v in w))
    assert all(math.isfinite(v) for v in seen[first_bad])          # w itself still finite
    assert not all(math.isfinite(v) for v in seen[-1])              # and later it is not

    store = store_for(path)
    d = Dashboard(None, title="t", store=store)
    vt = d.parts["Variables"]
    cid = sorted(store.calls, key=int)[first_bad]
    assert d.state.show_call(cid) is not False
    row = vt.table.value.iloc[0]
    assert row["name"].startswith("w")
    assert _close(row["value"], seen[first_bad]), (row["value"], seen[first_bad])
    assert row["verdict"] in ("inf", "nan")
    assert f"gradient call {cid}" in vt.title.object
    # the first call: finite everything, the value it read then
    d.state.show_call(sorted(store.calls, key=int)[0])
    row = vt.table.value.iloc[0]
    assert _close(row["value"], seen[0]), (row["value"], seen[0])
    assert row["verdict"] == "value"


def test_verdict_and_cause_come_before_the_wide_columns():
    assert COLUMNS.index("verdict") < 3 and COLUMNS.index("cause") < 3
    assert COLUMNS.index("watched by") > COLUMNS.index("cause")
