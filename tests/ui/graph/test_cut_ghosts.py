"""The graph draws a cast to an integer as a cut, as a user expects from the legend's "not
recorded" ghosts: in `tf.cast(tf.cast(x @ w, tf.int32), tf.float32)` TensorFlow records the
MatMul and the int32 Cast, and nothing after it (an integer is not watched), so the float
Cast and what is computed from it are ghosts joined to the graph by red cut edges. Truth by
hand from the corpus script `tests/broken_runs/warmup_that_never_stops.py`."""
from __future__ import annotations

import pytest

from conftest import WARMUP as SCRIPT


@pytest.fixture(scope="module")
def graph(warmup_recording):
    from tapeviz.ui.store.source import store_for
    store = store_for(str(warmup_recording))
    return store.graph(next(iter(store.tapes)))


def _line(code: str) -> int:
    return next(i for i, text in enumerate(SCRIPT.read_text().splitlines(), 1) if code in text)


def test_an_integer_cast_and_what_follows_it_are_ghosts_behind_cut_edges(graph):
    nodes = {n["key"]: n for n in graph["nodes"]}
    at = lambda line: [n for n in graph["nodes"] if (n.get("site") or {}).get("line") == line]  # noqa: E731
    bucket, gate, pred = _line("bucket = tf.cast"), _line("gate = tf.cast"), _line("pred = (h1")
    casts = {n["dtypes"]: n for n in at(bucket) if n["op"] == "Cast"}
    assert casts["int32"]["kind"] == "op" and casts["float32"]["kind"] == "skipped"
    gate_cast = next(n for n in at(gate) if n["op"] == "Cast")
    assert gate_cast["kind"] == "skipped"
    edges = {(e["tail"], e["head"]): e for e in graph["edges"]}
    assert edges[(casts["int32"]["key"], casts["float32"]["key"])]["cut"]
    # `0.01 * gate[:, None]` and `0.01 * bucket` (at pred's line) are ghosts too; each reaches
    # the recorded sum over a red cut edge
    reads = {(e["tail"], e["head"]) for e in graph["edges"]}
    bucket_mul = next(h for t, h in reads if t == casts["float32"]["key"])
    assert nodes[bucket_mul]["op"] == "Mul" and nodes[bucket_mul]["kind"] == "skipped"
    assert nodes[bucket_mul]["site"]["line"] == pred
    out = [e for e in graph["edges"] if e["tail"] == bucket_mul]
    assert len(out) == 1 and out[0]["cut"] and nodes[out[0]["head"]]["op"] == "AddV2"
    assert nodes[out[0]["head"]]["kind"] in ("op", "output")


def test_a_regulariser_computed_before_the_tape_is_drawn_as_cut_ghosts(graph):
    """`reg = 0.01 * tf.reduce_sum(tf.square(w_reg))` runs before `with tf.GradientTape()`:
    by hand, its three ops (Square, Sum, Mul) are ghosts at that line, w_reg feeds the Square
    over a cut edge, and the Mul reaches the tape's last AddV2 (`... + reg`) over a cut edge;
    the data made before the loop (`y = x @ true_w + ...`, no variable) draws no ghost."""
    nodes = {n["key"]: n for n in graph["nodes"]}
    reg_line, y_line = _line("reg = 0.01"), _line("y = x @ true_w")
    ghosts = [n for n in graph["nodes"] if (n.get("site") or {}).get("line") == reg_line]
    assert sorted(n["op"] for n in ghosts) == ["Mul", "Square", "Sum"]
    assert {n["kind"] for n in ghosts} == {"skipped"}
    assert {n["skip_reason"] for n in ghosts} == {"outside_tape"}
    assert not [n for n in graph["nodes"] if (n.get("site") or {}).get("line") == y_line]
    by_op = {n["op"]: n["key"] for n in ghosts}
    edges = {(nodes[e["tail"]].get("name"), nodes[e["head"]]["key"]): e for e in graph["edges"]}
    assert edges[("w_reg:0", by_op["Square"])]["cut"]
    out = [e for e in graph["edges"] if e["tail"] == by_op["Mul"]]
    loss_line = _line("loss = tf.reduce_mean")
    assert len(out) == 1 and out[0]["cut"]
    head = nodes[out[0]["head"]]
    assert head["op"] == "AddV2" and head["site"]["line"] == loss_line
    assert head["kind"] in ("op", "output")
