"""The lean op dispatch keeps its semantics: variable updates that never change an array
someone holds, node ids peeked without being consumed, NumPy's warnings silenced only for tapeviz's
own kernels, and source lines that still name the user's line."""
import warnings

import numpy as np
import pytest

import tapeviz as tv
from tapeviz.engine import op as _op


def test_assign_sub_never_changes_an_array_someone_holds():
    v = tv.Variable(np.ones(3, np.float32))
    v.assign_sub(np.ones(3, np.float32))        # the user's array is now only v's
    before = v._value
    v.assign_sub(np.ones(3, np.float32))
    assert before.tolist() == [0.0, 0.0, 0.0]
    assert v.numpy().tolist() == [-1.0, -1.0, -1.0]


def test_assign_never_writes_into_the_users_array_or_a_read():
    user = np.zeros(2, np.float32)
    v = tv.Variable(user)
    v.assign_add([1.0, 2.0])
    assert user.tolist() == [0.0, 0.0]
    read = v.read_value()
    v.assign_add([1.0, 1.0])
    assert read.numpy().tolist() == [1.0, 2.0]
    assert v.numpy().tolist() == [2.0, 3.0]
    v.assign_add(v)                              # the delta is the variable itself
    assert v.numpy().tolist() == [4.0, 6.0]


def test_tape_keeps_the_value_its_vjp_needs_across_an_assign():
    v = tv.Variable([1.0, 2.0])
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(v * v)
    v.assign_sub([10.0, 10.0])
    assert tape.gradient(y, v).numpy().tolist() == [2.0, 4.0]


def test_peek_node_id_does_not_consume():
    first = _op.peek_node_id()
    assert _op.peek_node_id() == first
    y = tv.constant(1.0) * 2.0
    assert y._node.id >= first
    assert _op.peek_node_id() == y._node.id + 1


def test_numpy_warnings_stay_silent_in_ops_and_backward():
    x = tv.constant([0.0, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with tv.GradientTape() as tape:
            tape.watch(x)
            y = tv.math.log(x) / x
        g = tape.gradient(y, x)
    assert not np.isfinite(g.numpy()[0])


def test_custom_gradient_code_sees_the_users_numpy_settings():
    seen = []

    @tv.custom_gradient
    def f(x):
        def grad(upstream):
            seen.append(np.geterr()["divide"])
            return upstream
        return tv.identity(x) if hasattr(tv, "identity") else x * 1.0, grad

    x = tv.constant(2.0)
    with np.errstate(divide="raise"):
        with tv.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        tape.gradient(y, x)
    assert seen == ["raise"]


def test_op_sites_name_the_users_line_for_operators_and_functions():
    x = tv.constant(3.0)
    y = x * 2.0; line_mul = _line()                        # noqa: E702
    z = tv.sin(x); line_sin = _line()                      # noqa: E702
    for t, line in ((y, line_mul), (z, line_sin)):
        code, lineno = t._node.site
        assert code.co_filename == __file__ and lineno == line


def _line():
    import sys
    return sys._getframe(1).f_lineno


@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_broadcast_gradients_unbroadcast_only_when_shapes_differ(shape):
    x = tv.constant(np.ones(shape, np.float32))
    b = tv.constant(np.float32(2.0))
    with tv.GradientTape(persistent=True) as tape:
        tape.watch([x, b])
        y = x * b
    gx, gb = tape.gradient(y, [x, b])
    assert gx.shape == x.shape and gx.dtype == tv.float32
    assert gb.shape == () and float(gb) == float(np.prod(shape))


def test_gradients_wrt_every_watched_tensor_equal_those_taken_one_source_at_a_time():
    # wrt every watched tensor, backward starts from what the tape marked while recording;
    # wrt a subset, it works out what the sources reach: the answers must be the same
    rng = np.random.default_rng(3)
    a = tv.Variable(rng.normal(size=(4, 3)), name="a")
    b = tv.Variable(rng.normal(size=(3,)), name="b")
    c = tv.constant(rng.normal(size=(4, 3)))
    with tv.GradientTape(persistent=True) as tape:
        tape.watch(c)
        h = a * b + tv.round(c) * c                   # Round: no VJP, a float output
        k = tv.cast(tv.argmax(h, axis=1), tv.float64)  # an integer path, cut
        s = tv.stop_gradient(h) * a
        y = tv.reduce_sum(h * h) + tv.reduce_sum(s) + tv.reduce_sum(k)
    together = tape.gradient(y, [a, b, c])
    alone = [tape.gradient(y, v) for v in (a, b, c)]
    for g1, g2 in zip(together, alone):
        np.testing.assert_array_equal(g1.numpy(), g2.numpy())
    hv = (a.numpy() * b.numpy() + np.round(c.numpy()) * c.numpy())
    np.testing.assert_allclose(together[1].numpy(), (2 * hv * a.numpy()).sum(axis=0))


def test_python_numbers_beside_a_tensor_are_converted_once_and_exactly():
    from tapeviz.engine.ops import _base
    x32 = tv.constant(np.float32(3.0))
    x64 = tv.constant(np.float64(3.0))
    a, b = x32 * 0.1, x64 * 0.1          # one key per dtype: float32(0.1) != float64(0.1)
    assert a.dtype == tv.float32 and b.dtype == tv.float64
    assert b.numpy() == 3.0 * 0.1 and a.numpy() == np.float32(3.0) * np.float32(0.1)
    assert (x32 * 0.1).numpy() == a.numpy()                   # and from the cache again
    # 0.0 and -0.0 are equal keys, but their products differ: never mixed up
    for z in (0.0, -0.0, 0.0, -0.0):
        got = (tv.constant(np.float32(1.0)) / (x32 * z)).numpy()
        assert got == (np.inf if str(z) == "0.0" else -np.inf)
    for _ in range(2000):                  # NaN keys never match: the cache stays bounded
        assert np.isnan((x32 * float("nan")).numpy())
    assert len(_base.SCALARS) <= 512


def test_a_backward_pass_no_tape_records_sends_no_op_events():
    # the ops of a gradient no tape records are arithmetic on gradients, in no graph: a
    # subscriber sees the forward ops and the backward steps, never the VJPs' own ops
    from tapeviz import events
    rng = np.random.default_rng(3)
    x_np = rng.normal(size=(5, 4)).astype(np.float32)
    w_np = rng.normal(size=(4, 3)).astype(np.float32)
    x, w, b = tv.constant(x_np), tv.Variable(w_np), tv.Variable(np.zeros(3, np.float32))
    seen = []
    with events.subscribe(seen.append):
        with tv.GradientTape() as tape:
            y = tv.reduce_sum(tv.matmul(x, w) + b)
            recorded = len([e for e in seen if e.kind == "op_recorded"])
            gw, gb = tape.gradient(y, [w, b])   # (inside the block: the tape is open, paused)
    kinds = [e.kind for e in seen]
    during = kinds[kinds.index("gradient_started"):kinds.index("gradient_finished")]
    assert recorded == 3 and during.count("backward_step") == 3
    assert "op_recorded" not in during and "op_defined" not in during, during
    np.testing.assert_allclose(gw.numpy(), x_np.T @ np.ones((5, 3), np.float32), rtol=1e-6)
    np.testing.assert_allclose(gb.numpy(), np.full(3, 5.0), rtol=1e-6)
    assert gw.dtype == gb.dtype == tv.float32


def _sgd_run(listened):
    """Two SGD steps on two variables; ``listened``: inside an open tape (the general
    assignment path) instead of outside any (the optimizer's quiet path)."""
    ws = [tv.Variable(np.array([1.0, -2.0], np.float32), name="w"),
          tv.Variable(np.float32(0.5), name="b")]
    grads = [tv.constant([0.5, 0.25]), tv.constant(2.0)]
    opt = tv.keras.optimizers.SGD(0.1)
    ids_drawn, nodes = [], []
    for _ in range(2):
        first = tv.constant(0.0)._id
        before = [w._node for w in ws]
        if listened:
            with tv.GradientTape():
                opt.apply_gradients(zip(grads, ws))
        else:
            opt.apply_gradients(zip(grads, ws))
        ids_drawn.append(tv.constant(0.0)._id - first)
        nodes.append([(w._node.op, w._node.attrs, w._node.parents[0] is b, w._node.in_ids[0])
                      for w, b in zip(ws, before)])
    return [w.numpy().tolist() for w in ws], int(opt.iterations), ids_drawn, nodes, ws


def test_optimizer_quiet_path_updates_as_the_listened_one():
    quiet = _sgd_run(False)
    listened = _sgd_run(True)
    assert quiet[:3] == listened[:3]
    assert [[n[:3] for n in step] for step in quiet[3]] == \
        [[n[:3] for n in step] for step in listened[3]]
    assert all(n[0] == "assign_sub" and n[3] == w._id for step in quiet[3]
               for n, w in zip(step, quiet[4]))
    assert quiet[0] == [[pytest.approx(0.9), pytest.approx(-2.05)], pytest.approx(0.1)]


def test_optimizer_quiet_path_never_changes_a_read():
    w = tv.Variable(np.ones(3, np.float32))
    opt = tv.keras.optimizers.SGD(1.0)
    g = tv.constant(np.ones(3, np.float32))
    opt.apply_gradients([(g, w)])
    read = w.read_value()
    opt.apply_gradients([(g, w)])
    assert read.numpy().tolist() == [0.0, 0.0, 0.0]
    assert w.numpy().tolist() == [-1.0, -1.0, -1.0]


# A bias's gradient folds the batch axis: `_sum_to_forward` does that with BLAS (`ones @ x`)
# for float32/float64, and NumPy's reduction for everything else. Both against a float64 sum.
@pytest.mark.parametrize("shapes", [((256, 256), (256,)), ((2000, 3), (3,)), ((4, 5, 6), (6,)),
                                    ((4, 5, 6), (5, 6)), ((4, 5, 6), (1, 6)),
                                    ((4, 5, 6), (1, 1, 6)), ((4, 5, 6), (4, 1, 6)),
                                    ((3, 4), (3, 1)), ((3,), ()), ((0, 3), (3,))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32])
def test_unbroadcast_sums_agree_with_a_float64_sum_and_keep_the_dtype(shapes, dtype):
    from tapeviz.engine.ops.reduce import _sum_to_forward
    big, small = shapes
    x = (np.random.default_rng(7).normal(size=big) * 10).astype(dtype)
    got = _sum_to_forward(x, small)
    ref = x.astype(np.float64).sum(axis=tuple(range(len(big) - len(small))))
    ref = ref.sum(axis=tuple(i for i, n in enumerate(small) if n == 1 and ref.shape[i] != 1),
                  keepdims=True).reshape(small)
    assert got.shape == small and got.dtype == dtype
    # (float16 sums in float16: its unit in the last place is 0.25 past 256)
    rtol, atol = (2e-2, 4.0) if dtype == np.float16 else (1e-5, 1e-3)
    np.testing.assert_allclose(got.astype(np.float64), ref, rtol=rtol, atol=atol)


def test_unbroadcast_sums_by_blas_propagate_nan_and_inf_as_numpy_does():
    from tapeviz.engine.ops.reduce import _sum_to_forward
    x = np.array([[np.nan, 1, np.inf, np.inf], [2, np.inf, -np.inf, 1]], np.float32)
    with np.errstate(invalid="ignore"):
        want = x.sum(axis=0)
    with np.errstate(invalid="ignore"):      # (the engine runs kernels in that context)
        got = _sum_to_forward(x, (4,))
    np.testing.assert_array_equal(got, want)          # [nan, inf, nan, inf]


def test_bias_gradient_of_a_float32_layer_is_float32_and_the_batch_sum():
    rng = np.random.default_rng(0)
    h = tv.constant(rng.normal(size=(64, 5)).astype(np.float32))
    b = tv.Variable(np.zeros(5, np.float32))
    w = rng.normal(size=(64, 5)).astype(np.float32)
    with tv.GradientTape() as tape:
        y = tv.reduce_sum((h + b) * w)
    g = tape.gradient(y, b)
    assert g.dtype == tv.float32
    np.testing.assert_allclose(g.numpy(), w.astype(np.float64).sum(axis=0), rtol=1e-5)
