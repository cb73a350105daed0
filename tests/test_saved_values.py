"""A tape keeps only the values its ops' VJPs read (`defop(..., saves=...)`): what it drops can
be freed at once, and nothing the user sees (gradients, explanations) may change."""
import gc
import weakref

import numpy as np
import pytest

import tapeviz as tv
from tapeviz import config
from tapeviz.engine.op import REGISTRY, ValueNotKept


@pytest.fixture(params=[False, True], ids=["lean", "keep_values"])
def keep(request, monkeypatch):
    monkeypatch.setattr(config, "keep_values", request.param)
    return request.param


def test_an_array_no_vjp_reads_is_freed_during_the_forward_pass(keep):
    w = tv.Variable(np.random.default_rng(0).normal(size=(32, 32)), name="w")
    with tv.GradientTape() as tape:
        z = tv.matmul(w, w)                 # MatMul's VJPs read its inputs, not z
        alive = weakref.ref(z._value)
        h = tv.nn.relu(z + 1.0)             # AddV2 reads nothing; Relu reads its output
        del z
        gc.collect()
        freed = alive() is None
        loss = tv.reduce_sum(h)
    g = tape.gradient(loss, w)
    assert freed is not keep                # kept only when tv.config.keep_values asks for it
    wv = w.numpy()
    mask = (wv @ wv + 1.0) > 0
    np.testing.assert_allclose(g.numpy(), mask @ wv.T + wv.T @ mask, rtol=1e-12)


def _kept(n):
    x = tv.Variable(np.ones((n, n), np.float32))
    with tv.GradientTape() as tape:
        tv.reduce_sum(tv.nn.relu(tv.matmul(x, x) + 1.0))
    return {node.op.name: ([type(t._value) is not ValueNotKept for t in ins],
                           [type(t._value) is not ValueNotKept for t in outs])
            for node, ins, outs in tape._entries}


def test_the_tape_keeps_what_each_vjp_reads():
    assert _kept(32) == {"MatMul": ([True, True], [False]), "AddV2": ([False, True], [False]),
                         "Relu": ([False], [True]), "Sum": ([False], [True])}
    # (the constant 1.0 and Sum's scalar output: small values are kept, a stand-in costs more)


def test_small_values_are_kept_whole():
    assert all(all(ins) and all(outs) for ins, outs in _kept(31).values())   # 961 < SMALL


def _program(x, w):
    """Every op that declares `saves`, first and second order, through a Jacobian too."""
    with tv.GradientTape() as outer:
        with tv.GradientTape(persistent=True) as inner:
            h = tv.nn.relu(tv.matmul(x, w) - 0.1) * tv.tanh(tv.matmul(x, w))
            h = tv.exp(-h) + tv.cast(tv.cast(h, tv.float64), tv.float32) + tv.negative(h)
            logits = h[:, :3]
            loss = tv.reduce_mean(tv.nn.sparse_softmax_cross_entropy_with_logits(
                labels=tf_labels(x), logits=logits)) + tv.reduce_sum(h) * 0.01
        g = inner.gradient(loss, w)
        jac = inner.jacobian(h, w)
        gsum = tv.reduce_sum(g * g)
    hess_row = outer.gradient(gsum, w)
    return [g.numpy(), jac.numpy(), hess_row.numpy()]


def tf_labels(x):
    return tv.constant(np.arange(x.shape[0], dtype=np.int32) % 3)


def test_lean_saves_change_no_gradient_at_any_order(monkeypatch):
    rng = np.random.default_rng(1)
    # (big enough that the tape keeps stand-ins: see tapeviz.engine.op.SMALL)
    x = tv.constant(rng.normal(size=(40, 30)).astype(np.float32))
    w = tv.Variable(rng.normal(size=(30, 36)).astype(np.float32), name="w")
    monkeypatch.setattr(config, "keep_values", True)
    full = _program(x, w)
    monkeypatch.setattr(config, "keep_values", False)
    lean = _program(x, w)
    for a, b in zip(full, lean):
        np.testing.assert_array_equal(a, b)
    declared = {name for name, op in REGISTRY.items() if op.saves is not None}
    assert {"AddV2", "Sub", "Mul", "Neg", "Exp", "Tanh", "MatMul", "Relu", "ReluGrad", "Sum",
            "Mean", "SumToShape", "SparseSoftmaxCrossEntropyWithLogits"} <= declared


def _explained(program):
    out = []
    for keep in (True, False):
        config.keep_values = keep
        try:
            out.append([(e.verdict, e.cause, e.lineno, e.node is not None) for e in program()])
        finally:
            config.keep_values = False
    return out


@pytest.mark.parametrize("case", ["overflow_in_mul", "inf_minus_inf", "dead_relu"])
def test_explanations_are_the_same_with_lean_saves(case):
    def program():
        if case == "overflow_in_mul":
            x = tv.Variable(np.full(2048, 1e30, np.float32), name="x")
            with tv.GradientTape() as tape:
                big = x * x                                  # overflows to inf here
                y = tv.reduce_sum(tv.exp(big + 1.0) * 0.0)   # inf·0: NaN, forward and back
        elif case == "inf_minus_inf":
            x = tv.Variable(np.full(2048, 1000.0, np.float32), name="x")
            with tv.GradientTape() as tape:
                y = tv.reduce_sum(tv.exp(x) - tv.exp(x))     # exp overflows; inf - inf
        else:
            x = tv.Variable(np.linspace(1.0, 2.0, 2048, dtype=np.float32), name="x")
            with tv.GradientTape() as tape:
                y = tv.reduce_sum(tv.nn.relu(-x * x + 0.0))
        return tape.explain(y, [x])
    full, lean = _explained(program)
    assert lean == full
    expected = {"overflow_in_mul": "nan_origin", "inf_minus_inf": "nan_origin",
                "dead_relu": "dead_relu"}[case]
    assert lean[0][1] == expected, lean
    if case == "overflow_in_mul":   # found where it happened, though the tape kept no value
        assert lean[0][2] == program.__code__.co_firstlineno + 4


def test_check_tape_says_when_a_tape_did_not_keep_inputs():
    x = tv.Variable(np.linspace(0.0, 1.0, 2000), name="x")
    with tv.GradientTape(persistent=True) as tape:
        tv.reduce_sum(tv.sin(x) + x)
    report = tv.debug.check_tape(tape)
    skipped = dict(report.skipped)
    assert "keep_values" in skipped["AddV2"], report.skipped
    assert "Sin" not in skipped            # Sin keeps its input: checked
    report = tv.debug.check_tape(lambda v: tv.reduce_sum(tv.sin(v) + v), x)
    assert not report.skipped and report.ok


def test_a_view_of_a_lean_tape_shows_shapes_of_values_it_did_not_keep(monkeypatch):
    from tapeviz.engine.replay import tape_events
    monkeypatch.setattr(config, "keep_values", False)
    x = tv.Variable(np.ones((40, 40), np.float32), name="x")
    with tv.GradientTape(persistent=True) as tape:
        y = tv.reduce_sum(tv.matmul(x, x) + 1.0)
    tape.gradient(y, x)
    ops = {}
    for e in tape_events(tape):
        d = e if isinstance(e, dict) else e.to_dict()
        if d["kind"] == "op_recorded":
            ops[d["op"]] = [(r["shape"], r["summary"] is not None) for r in d["outputs"]]
    assert ops["MatMul"] == [([40, 40], False)]       # shape known, value not kept
    assert ops["Sum"] == [([], True)]
    assert type(tv.show(tape)).__name__ == "Dashboard"
