"""tv.debug.gradcheck and check_tape: they pass correct rules and name a wrong one."""
import numpy as np
import pytest

import tapeviz as tv
from tapeviz.engine.op import Op, apply

# an op with a wrong derivative (not registered: the registry test must not see it)
BAD_SIN = Op("BadSin", np.sin, [lambda g, y, x: g * tv.sin(x)], "y = sin(x)")


def test_gradcheck_passes_a_correct_function_and_reports_per_input():
    rng = np.random.default_rng(0)
    report = tv.debug.gradcheck(lambda x, w: tv.nn.softmax(tv.matmul(x, w)),
                                [rng.normal(size=(2, 3)), rng.normal(size=(3, 4))])
    assert report.ok and len(report.rows) == 2
    assert report.worst < 1e-6
    assert "input" in str(report)


def test_gradcheck_raises_a_readable_table_for_a_wrong_rule():
    with pytest.raises(AssertionError, match="FAIL"):
        tv.debug.gradcheck(lambda x: apply(BAD_SIN, (x,)), [[0.1, 0.5]])
    report = tv.debug.gradcheck(lambda x: apply(BAD_SIN, (x,)), [[0.1, 0.5]],
                                raise_on_failure=False)
    assert not report.ok


def test_gradcheck_skips_integer_inputs():
    report = tv.debug.gradcheck(
        lambda x, labels: tv.nn.sparse_softmax_cross_entropy_with_logits(labels=labels,
                                                                          logits=x),
        [np.random.default_rng(1).normal(size=(3, 4)), np.array([0, 3, 1])])
    assert [r["input"] for r in report.rows] == [0]


def test_check_tape_names_the_wrong_op_among_correct_ones():
    report = tv.debug.check_tape(lambda x: tv.reduce_sum(apply(BAD_SIN, (tv.exp(x),))),
                                 [0.1, 0.5])
    by_op = {r["op"]: r for r in report.rows}
    assert not by_op["BadSin"]["ok"] and by_op["Exp"]["ok"] and by_op["Sum"]["ok"]
    assert report.rows[0]["op"] == "BadSin"          # worst first
    assert "test_debug.py" in by_op["BadSin"]["site"]
    with pytest.raises(AssertionError, match="BadSin"):
        report.assert_ok()


def test_check_tape_on_an_mlp_and_on_a_persistent_tape():
    rng = np.random.default_rng(0)

    def mlp(x, w1, w2, labels):
        h = tv.nn.relu(tv.matmul(x, w1))
        logits = tv.matmul(h, w2)
        return tv.reduce_mean(tv.nn.sparse_softmax_cross_entropy_with_logits(labels=labels,
                                                                             logits=logits))
    report = tv.debug.check_tape(mlp, rng.normal(size=(4, 3)), rng.normal(size=(3, 5)),
                                 rng.normal(size=(5, 3)), np.array([0, 1, 2, 1]))
    assert report.ok, str(report)
    assert {r["op"] for r in report.rows} >= {"MatMul", "Relu",
                                              "SparseSoftmaxCrossEntropyWithLogits", "Mean"}
    v = tv.Variable([1.0, -2.0])          # float32 values are re-run in float64
    with tv.GradientTape(persistent=True) as tape:
        tv.reduce_sum(tv.nn.gelu(v) * tv.cast(v, tv.float32))
    report = tv.debug.check_tape(tape)
    assert report.ok, str(report)


def test_check_tape_refuses_a_released_tape():
    x = tv.constant(1.0)
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(ValueError, match="persistent"):
        tv.debug.check_tape(tape)


def test_check_tape_reads_a_one_shot_tape_that_kept_its_values(monkeypatch):
    # the README: with keep_values, check_tape can re-run every op of a tape after gradient()
    monkeypatch.setattr(tv.config, "keep_values", True)
    x = tv.Variable([0.5, -1.5])
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.tanh(x) * x)
    tape.gradient(y, x)
    report = tv.debug.check_tape(tape)
    assert report.ok, str(report)
    assert {r["op"] for r in report.rows} >= {"Tanh", "Mul", "Sum"}


def test_gradcheck_takes_a_sparse_gradient_as_its_dense_tensor():
    # a gather's gradient is IndexedSlices (as TensorFlow's); rows gathered twice add up
    table = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    report = tv.debug.gradcheck(lambda p: tv.reduce_sum(tv.gather(p, [0, 2, 0]) ** 2), [table])
    assert report.ok and not report.rows[0]["gradient_is_none"]
