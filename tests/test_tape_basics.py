"""Tape semantics against closed-form derivatives (the tutorials' first lessons)."""
import numpy as np
import pytest

import tapeviz as tv


def test_square_gradient_is_two_x():
    x = tv.constant(3.0)
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    g = tape.gradient(y, x)
    assert g.dtype == tv.float32
    assert float(g) == 6.0


def test_trainable_variable_is_watched_on_read_and_constant_is_not():
    v = tv.Variable(2.0)
    frozen = tv.Variable(2.0, trainable=False)
    c = tv.constant(2.0)
    with tv.GradientTape() as tape:
        y = v * frozen * c
    gv, gf, gc = tape.gradient(y, [v, frozen, c])
    assert float(gv) == 4.0
    assert gf is None and gc is None
    assert tape.watched_variables() == (v,)


def test_nested_tapes_give_second_derivative_of_cube():
    x = tv.Variable(3.0)
    with tv.GradientTape() as outer:
        with tv.GradientTape() as inner:
            y = x ** 3
        dy = inner.gradient(y, x)
    d2y = outer.gradient(dy, x)
    assert float(dy) == pytest.approx(27.0)
    assert float(d2y) == pytest.approx(18.0)


def test_second_gradient_on_one_shot_tape_raises():
    x = tv.Variable(1.0)
    with tv.GradientTape() as tape:
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError):
        tape.gradient(y, x)


def test_output_gradients_of_another_count_name_the_call_the_counts_and_the_fix():
    # (TensorFlow 2.21 crashes the interpreter on this call: the message is tapeviz's own)
    x = tv.constant([1.0, 2.0])
    with tv.GradientTape() as tape:
        tape.watch(x)
        y, z = x * 2.0, x * 3.0
    with pytest.raises(ValueError) as info:
        tape.gradient([y, z], x, output_gradients=[tv.ones(2)])
    text = str(info.value)
    assert "GradientTape.gradient" in text and "1 items" in text and "2 targets" in text
    assert "Fix:" in text


def test_a_tensor_that_is_no_integer_scalar_is_refused_as_an_index_with_the_fix():
    for bad, shape, dtype in ((tv.constant(1.5), "()", "float32"),
                              (tv.constant([1]), "(1,)", "int32")):
        with pytest.raises(TypeError) as info:
            [10, 20, 30][bad]
        text = str(info.value)
        assert f"shape={shape}" in text and f"dtype={dtype}" in text and "Fix:" in text


def test_broadcast_gradient_is_summed_back_to_input_shape():
    b = tv.Variable([1.0, 2.0, 3.0])
    x = tv.constant(np.ones((4, 3), np.float32))
    with tv.GradientTape() as tape:
        y = tv.reduce_sum((x + b) * 2.0)
    np.testing.assert_allclose(tape.gradient(y, b).numpy(), [8.0, 8.0, 8.0])


def test_jacobian_of_elementwise_square_is_diagonal():
    x = tv.constant([1.0, 2.0, 3.0])
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    np.testing.assert_allclose(tape.jacobian(y, x).numpy(), np.diag([2.0, 4.0, 6.0]))


def test_gradient_keeps_the_structure_of_flat_and_nested_sources():
    # a flat list or tuple of tensors skips nest's walk: it must pack as the walk does
    from collections import namedtuple
    from tapeviz.engine import nest
    Pair = namedtuple("Pair", "a b")
    a, b = tv.Variable(2.0), tv.Variable(3.0)
    c = tv.constant(5.0)
    expected = {id(a): 15.0, id(b): 10.0, id(c): 6.0}
    structures = [[a, b], (a, b), [a, c], [[a], b], [a, (b,)], {"b": b, "a": a}, Pair(a, b),
                  [a, [b, c]], [], (), a]
    for sources in structures:
        with tv.GradientTape() as tape:
            tape.watch(c)
            y = a * b * c
        got = tape.gradient(y, sources)
        want = nest.pack_sequence_as(sources, [expected[id(s)] for s in nest.flatten(sources)])
        assert type(got) is type(sources) or not nest.is_nested(sources)
        assert nest.pack_sequence_as(got, [float(g) for g in nest.flatten(got)]) == want
        if isinstance(sources, list):
            assert got is not sources
    with tv.GradientTape() as tape:
        y = a * 2.0
    with pytest.raises(ValueError, match="Argument `sources` must be a tensor"):
        tape.gradient(y, [a, 1.0])


def test_a_finite_gradient_whose_squared_norm_overflows_warns_nothing_and_is_a_value():
    """3e20 squared overflows float32: the health check's dot product must neither leak
    numpy's RuntimeWarning into the user's run nor call the finite gradient Inf."""
    import warnings
    big = tv.Variable([3e20, 3e20], name="big")
    with tv.events.capture() as seen, warnings.catch_warnings():
        warnings.simplefilter("error")
        with tv.GradientTape() as tape:
            y = tv.reduce_sum(big) * 3e20
        (g,) = tape.gradient(y, [big])
    assert g.numpy().tolist() == [np.float32(3e20)] * 2
    (finished,) = seen.of("gradient_finished")
    assert [v["verdict"] for v in finished.verdicts] == ["value"]


def test_explaining_a_gradient_whose_squared_norm_overflows_float32_warns_nothing():
    import warnings
    x = tv.constant([[1.0, 2.0]])
    w = tv.Variable([[3e19], [3e19]], name="w")
    with tv.GradientTape(persistent=True) as tape:
        y = tv.reduce_sum(tv.tanh(x @ w * 1e-30)) + tv.reduce_sum(x @ w) * 3e20
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (why,) = tape.explain(y, [w])
    assert why.verdict == "value"


def test_watching_an_integer_tensor_warns_as_tensorflow_the_first_five_times_only(caplog,
                                                                                  monkeypatch):
    # TensorFlow logs "The dtype of the watched tensor must be floating (e.g. tf.float32),
    # got tf.int32" through log_first_n(..., 5): 5 lines for 8 watches, variable or tensor
    from tapeviz.engine import tape as tape_module
    monkeypatch.setattr(tape_module, "_not_floating_warnings", __import__("itertools").count())
    v, c = tv.Variable(3), tv.constant(2)
    with caplog.at_level("WARNING", logger="tapeviz"):
        for _ in range(4):
            with tv.GradientTape() as tape:
                tape.watch(c)
                tape.watch(v)
    lines = [r.getMessage() for r in caplog.records if r.name == "tapeviz"]
    assert lines == ["The dtype of the watched tensor must be floating (e.g. tv.float32), "
                     "got int32"] * 5
