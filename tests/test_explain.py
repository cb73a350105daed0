"""A corpus of broken and healthy programs: `tape.explain` must name the verdict, the cause and
the line a careful human would name. Each program marks that line with `# expect`; programs
whose cause needs no line (`ok`, `unconnected`, `zero_unconnected`) mark nothing.
"""
import inspect

import numpy as np
import pytest

import tapeviz as tv
from tapeviz import events
from tapeviz.explain import CAUSES


def _expected_line(fn):
    lines, start = inspect.getsourcelines(fn)
    marked = [start + i for i, text in enumerate(lines) if "# expect" in text]
    assert len(marked) <= 1, f"{fn.__name__} marks more than one line"
    return marked[0] if marked else None


# Each program returns (tape, target, source) and is listed with (verdict, cause).
def not_watched_constant():
    x = tv.constant(3.0)  # expect
    with tv.GradientTape() as tape:
        y = x * x
    return tape, y, x


def not_watched_tensor_from_constant():
    x = tv.constant([1.0, 2.0]) * 2.0  # expect
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(x ** 2)
    return tape, y, x


def watched_too_late():
    x = tv.constant(3.0)
    with tv.GradientTape() as tape:
        y = x * x  # expect
        tape.watch(x)
    return tape, y, x


def keras_layer_called_before_the_tape():
    layer = tv.keras.layers.Dense(2)
    x = tv.constant([[1.0, 2.0]])
    out = layer(x)  # expect
    with tv.GradientTape() as tape:
        loss = tv.reduce_sum(out ** 2)
    return tape, loss, layer.kernel


def loss_read_back_from_a_running_total():
    w = tv.Variable(2.0)
    total = tv.Variable(0.0, trainable=False)
    with tv.GradientTape() as tape:
        total.assign_add(w * 3.0)  # expect
        loss = total * 1.0
    return tape, loss, w


def not_trainable_variable():
    v = tv.Variable(3.0, trainable=False)  # expect
    with tv.GradientTape() as tape:
        y = v * v
    return tape, y, v


def not_trainable_in_sum():
    w = tv.Variable([1.0, 2.0])
    b = tv.Variable(0.5, trainable=False)  # expect
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(w * 2.0 + b)
    return tape, y, b


def auto_watch_off():
    v = tv.Variable(2.0)
    with tv.GradientTape(watch_accessed_variables=False) as tape:  # expect
        y = v * 3.0
    return tape, y, v


def auto_watch_off_other_watched():
    a, b = tv.Variable(1.0), tv.Variable(2.0)
    with tv.GradientTape(watch_accessed_variables=False) as tape:  # expect
        tape.watch(a)
        y = a * b
    return tape, y, b


def unconnected_variable():
    a, b = tv.Variable(1.0), tv.Variable(2.0)
    with tv.GradientTape() as tape:
        y = a * 2.0
    return tape, y, b


def unconnected_branch():
    x, z = tv.Variable(1.0), tv.Variable(5.0)
    with tv.GradientTape() as tape:
        y = x * x if float(x) > 0 else z * z
    return tape, y, z


def integer_source():
    x = tv.constant(10)  # expect
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape, y, x


def integer_cast_on_path():
    x = tv.Variable(2.7)
    with tv.GradientTape() as tape:
        n = tv.cast(x, tv.int32)  # expect
        y = tv.cast(n, tv.float32) * 2.0
    return tape, y, x


def numpy_function_escape():
    x = tv.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tv.GradientTape() as tape:
        x2 = x ** 2
        y = np.mean(x2, axis=0)  # expect
        y = tv.reduce_mean(y, axis=0)
    return tape, y, x


def _helper_uses_numpy(t):
    return np.sin(t)  # expect


def numpy_escape_in_helper():
    x = tv.Variable(1.0)
    with tv.GradientTape() as tape:
        y = tv.constant(_helper_uses_numpy(x * 2.0)) * 3.0
    return tape, y, x


def numpy_method_escape():
    x = tv.Variable(3.0)
    with tv.GradientTape() as tape:
        y = tv.constant((x * 2.0).numpy()) + 1.0  # expect
    return tape, y, x


def python_float_escape():
    x = tv.Variable(3.0)
    with tv.GradientTape() as tape:
        h = float(x * x)  # expect
        y = tv.constant(h) * 2.0
    return tape, y, x


def numpy_reads_the_variable_itself():
    # no op reads x first (which would watch it): NumPy's read is the only one
    x = tv.Variable(1.5)
    with tv.GradientTape() as tape:
        y = tv.constant(np.sin(x)) * 2.0  # expect
    return tape, y, x


def variable_numpy_method_escape():
    x = tv.Variable(1.5)
    with tv.GradientTape() as tape:
        y = tv.constant(x.numpy()) * 2.0  # expect
    return tape, y, x


def variable_float_escape():
    x = tv.Variable(1.5)
    with tv.GradientTape() as tape:
        y = tv.constant(float(x)) * 2.0  # expect
    return tape, y, x


def assign_add_inside_tape():
    x0, x1 = tv.Variable(3.0), tv.Variable(0.0)
    with tv.GradientTape() as tape:
        x1.assign_add(x0)  # expect
        y = x1 ** 2
    return tape, y, x0


def assign_inside_tape():
    w, s = tv.Variable(2.0), tv.Variable(0.0)
    with tv.GradientTape() as tape:
        s.assign(w * 3.0)  # expect
        y = s * s
    return tape, y, w


def stop_gradient_cut():
    x = tv.Variable(2.0)
    with tv.GradientTape() as tape:
        y = tv.stop_gradient(x * 3.0) + 1.0  # expect
    return tape, y, x


def stop_gradient_on_every_path():
    x = tv.Variable([1.0, 2.0])
    with tv.GradientTape() as tape:
        h = tv.stop_gradient(x)  # expect
        y = tv.reduce_sum(h * h + h)
    return tape, y, x


def stop_recording_block():
    x = tv.Variable(2.0)
    with tv.GradientTape() as tape:
        with tape.stop_recording():
            z = x * 3.0  # expect
        y = z + 1.0
    return tape, y, x


def stop_recording_two_steps():
    x = tv.Variable([1.0, 2.0])
    with tv.GradientTape() as tape:
        with tape.stop_recording():
            z = tv.exp(x)  # expect
            z = z * 2.0
        y = tv.reduce_sum(z)
    return tape, y, x


def computed_after_tape_closed():
    x = tv.Variable(2.0)
    with tv.GradientTape() as tape:
        pass
    y = x * x  # expect
    return tape, y, x


def computed_before_tape_opened():
    x = tv.Variable(2.0)
    h = x * 4.0  # expect
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = h + 1.0
    return tape, y, x


def replaced_variable_by_addition():
    x = tv.Variable(2.0)
    x = x + 1.0  # expect
    with tv.GradientTape() as tape:
        y = x * x
    return tape, y, x


def replaced_variable_by_scaling():
    w = tv.Variable([1.0, 2.0])
    w = w * 0.5  # expect
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(w)
    return tape, y, w


def argmax_path():
    x = tv.Variable([1.0, 3.0, 2.0])
    with tv.GradientTape() as tape:
        i = tv.argmax(x)  # expect
        y = tv.cast(i, tv.float32) * 1.0
    return tape, y, x


def floor_path():
    x = tv.Variable(2.5)
    with tv.GradientTape() as tape:
        y = tv.floor(x) * 2.0  # expect
    return tape, y, x


def constant_of_a_variable():
    w = tv.Variable([1.0, -2.0])
    with tv.GradientTape() as tape:
        frozen = tv.constant(w)  # expect
        y = tv.reduce_sum(frozen * 2.0)
    return tape, y, w


def variable_made_inside_the_tape():
    x = tv.constant([1.0, 2.0])
    with tv.GradientTape() as tape:
        tape.watch(x)
        v = tv.Variable(x * 3.0)  # expect
        y = tv.reduce_sum(v * v)
    return tape, y, x


def constant_reshaping_a_tensor():
    w = tv.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tv.GradientTape() as tape:
        h = w * 2.0
        flat = tv.constant(h, shape=[4])  # expect
        y = tv.reduce_sum(flat * flat)
    return tape, y, w


def zero_unconnected_result():
    a, b = tv.Variable(1.0), tv.Variable(2.0)
    with tv.GradientTape() as tape:
        y = a * 2.0
    return tape, y, b


def zero_unconnected_vector():
    a, b = tv.Variable([1.0, 2.0]), tv.Variable([3.0])
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(a)
    return tape, y, b


def dead_relu_layer():
    w = tv.Variable([[1.0], [1.0]])
    x = tv.constant([[-1.0, -2.0], [-3.0, -1.0]])
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.nn.relu(x @ w))  # expect
    return tape, y, w


def dead_relu_before_a_convolution():
    w1 = tv.Variable(np.full((2, 2, 1, 2), 0.5))
    w2 = tv.Variable(np.full((2, 2, 2, 1), 0.5))
    x = tv.constant(np.linspace(-1.0, 1.0, 2 * 6 * 6).reshape(2, 6, 6, 1))
    with tv.GradientTape() as tape:
        z = tv.nn.conv2d(x, w1, 1, "VALID") - 100.0
        h = tv.nn.relu(z)  # expect
        y = tv.reduce_sum(tv.nn.conv2d(tv.nn.max_pool2d(h, 2, 2, "VALID"), w2, 1, "VALID"))
    return tape, y, w2


def dead_relu_bias():
    b = tv.Variable([-5.0, -5.0])
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.nn.relu(tv.constant([1.0, 2.0]) + b))  # expect
    return tape, y, b


def saturated_sigmoid():
    x = tv.Variable(100.0)
    with tv.GradientTape() as tape:
        y = tv.sigmoid(x)  # expect
    return tape, y, x


def saturated_tanh():
    w = tv.Variable([50.0, 60.0])
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.tanh(w * 10.0))  # expect
    return tape, y, w


def cancelled_through_two_sigmoids():
    # by hand: d/dw (sigmoid(0 w) + sigmoid(0 w)) = 2 sigmoid'(0) * 0 = 0, a local derivative
    # that is exactly zero, not a dead, clipped or saturated unit (TensorFlow: 0.0 too)
    w = tv.Variable(1.0)
    with tv.GradientTape() as tape:
        z = w * 0.0
        y = tv.sigmoid(z) + tv.sigmoid(z)
    return tape, y, w


def clipped_by_value():
    x = tv.Variable(5.0)
    with tv.GradientTape() as tape:
        y = tv.clip_by_value(x, 0.0, 1.0)  # expect
    return tape, y, x


def clipped_by_maximum():
    x = tv.Variable([-1.0, -2.0])
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.maximum(x, 0.5))  # expect
    return tape, y, x


def nan_from_softplus_overflow():
    x = tv.Variable(100.0)
    with tv.GradientTape() as tape:
        y = tv.math.log(1.0 + tv.exp(x))  # expect
    return tape, y, x


def nan_from_where_trap():
    x = tv.Variable([0.0, 4.0])
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.where(x > 0, x ** 0.5, 0.0))  # expect
    return tape, y, x


def nan_from_where_trap_log():
    v = tv.Variable([0.0, 1.0])
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.where(v > 0, tv.math.log(v), tv.zeros_like(v)))  # expect
    return tape, y, v


def nan_from_where_trap_divide():
    v = tv.Variable([0.0, 4.0])
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.where(v != 0, 1.0 / v, 0.0))  # expect
    return tape, y, v


def inf_from_log_the_where_keeps():
    # the where keeps log(0) = -inf: no trap, the plain log fix applies
    v = tv.Variable([0.0, 1.0])
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.where(v >= 0, tv.math.log(v), 0.0))  # expect
    return tape, y, v


def nan_from_norm_of_zero():
    x = tv.Variable([0.0, 0.0])
    with tv.GradientTape() as tape:
        y = tv.norm(x)  # expect
    return tape, y, x


def inf_from_log_of_zero():
    x = tv.Variable(0.0)
    with tv.GradientTape() as tape:
        y = tv.math.log(x)  # expect
    return tape, y, x


def inf_from_reciprocal():
    x = tv.Variable([0.0, 1.0])
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(1.0 / x)  # expect
    return tape, y, x


def nan_input_written_by_an_optimizer():
    # step 1's gradient is NaN (sqrt at a negative); SGD writes it into w; step 2's gradient
    # is NaN because w already holds NaN: the update names the line, not step 2's ops
    w = tv.Variable([-1.0, 4.0])
    opt = tv.keras.optimizers.SGD(0.1)
    for _ in range(2):
        with tv.GradientTape() as tape:
            y = tv.reduce_sum(tv.sqrt(w) * 2.0)
        opt.apply_gradients([(tape.gradient(y, w), w)])  # expect
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(w * w)
    return tape, y, w


def nan_input_from_the_data():
    x = tv.constant([1.0, float("nan"), 3.0])  # expect
    w = tv.Variable([0.5, 0.5, 0.5])
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.square(x * w - 1.0))
    return tape, y, w


def saturated_layer_keeps_a_tiny_value():
    w = tv.Variable([[2.0]])
    x = tv.constant([[1.0], [2.0]])
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.sigmoid(x @ w - 40.0))  # expect
    return tape, y, w


def saturated_beside_a_dead_relu():
    # the gradient comes through the sigmoid, tiny; the ReLU recorded before it is dead but
    # explains none of it (it once hid the saturation: the first suspect on the path won)
    w = tv.Variable([[2.0]])
    x = tv.constant([[1.0], [2.0]])
    with tv.GradientTape() as tape:
        h = x @ w
        dead = tv.reduce_sum(tv.nn.relu(h - 100.0))
        y = dead + tv.reduce_sum(tv.sigmoid(h - 40.0))  # expect
    return tape, y, w


def healthy_square():
    x = tv.Variable(3.0)
    with tv.GradientTape() as tape:
        y = x * x
    return tape, y, x


def healthy_dense():
    w = tv.Variable([[1.0, 2.0], [3.0, 4.0]])
    x = tv.constant([[1.0, 1.0]])
    with tv.GradientTape() as tape:
        y = tv.reduce_mean(tv.square(x @ w))
    return tape, y, w


def sqrt_where_is_safe():
    # TensorFlow's sqrt gradient is exactly 0 where the upstream gradient is 0: no NaN here
    x = tv.Variable([0.0, 4.0])
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.where(x > 0, tv.sqrt(x), 0.0))
    return tape, y, x


CORPUS = [
    (not_watched_constant, "none", "not_watched"),
    (not_watched_tensor_from_constant, "none", "not_watched"),
    (watched_too_late, "none", "not_watched"),
    (keras_layer_called_before_the_tape, "none", "outside_tape"),
    (loss_read_back_from_a_running_total, "none", "variable_assign"),
    (not_trainable_variable, "none", "not_trainable"),
    (not_trainable_in_sum, "none", "not_trainable"),
    (auto_watch_off, "none", "auto_watch_off"),
    (auto_watch_off_other_watched, "none", "auto_watch_off"),
    (unconnected_variable, "none", "unconnected"),
    (unconnected_branch, "none", "unconnected"),
    (integer_source, "none", "integer_dtype"),
    (integer_cast_on_path, "none", "integer_dtype"),
    (numpy_function_escape, "none", "numpy_escape"),
    (numpy_escape_in_helper, "none", "numpy_escape"),
    (numpy_method_escape, "none", "numpy_escape"),
    (python_float_escape, "none", "numpy_escape"),
    (numpy_reads_the_variable_itself, "none", "numpy_escape"),
    (variable_numpy_method_escape, "none", "numpy_escape"),
    (variable_float_escape, "none", "numpy_escape"),
    (assign_add_inside_tape, "none", "variable_assign"),
    (assign_inside_tape, "none", "variable_assign"),
    (stop_gradient_cut, "none", "stop_gradient"),
    (stop_gradient_on_every_path, "none", "stop_gradient"),
    (stop_recording_block, "none", "stop_recording"),
    (stop_recording_two_steps, "none", "stop_recording"),
    (computed_after_tape_closed, "none", "outside_tape"),
    (computed_before_tape_opened, "none", "outside_tape"),
    (replaced_variable_by_addition, "none", "replaced_variable"),
    (replaced_variable_by_scaling, "none", "replaced_variable"),
    (argmax_path, "none", "non_differentiable"),
    (floor_path, "none", "non_differentiable"),
    (constant_of_a_variable, "none", "copied_value"),
    (variable_made_inside_the_tape, "none", "copied_value"),
    (constant_reshaping_a_tensor, "none", "copied_value"),
    (dead_relu_layer, "zero", "dead_relu"),
    (dead_relu_bias, "zero", "dead_relu"),
    (dead_relu_before_a_convolution, "zero", "dead_relu"),
    (saturated_sigmoid, "zero", "saturated"),
    (saturated_tanh, "zero", "saturated"),
    (cancelled_through_two_sigmoids, "zero", "cancelled"),
    (clipped_by_value, "zero", "clipped"),
    (clipped_by_maximum, "zero", "clipped"),
    (nan_from_softplus_overflow, "nan", "nan_origin"),
    (nan_from_where_trap, "nan", "nan_origin"),
    (nan_from_where_trap_log, "nan", "nan_origin"),
    (nan_from_where_trap_divide, "nan", "nan_origin"),
    (inf_from_log_the_where_keeps, "inf", "inf_origin"),
    (nan_from_norm_of_zero, "nan", "nan_origin"),
    (nan_input_written_by_an_optimizer, "nan", "nan_input"),
    (nan_input_from_the_data, "nan", "nan_input"),
    (inf_from_log_of_zero, "inf", "inf_origin"),
    (inf_from_reciprocal, "inf", "inf_origin"),
    (saturated_layer_keeps_a_tiny_value, "value", "saturated"),
    (saturated_beside_a_dead_relu, "value", "saturated"),
    (healthy_square, "value", "ok"),
    (healthy_dense, "value", "ok"),
    (sqrt_where_is_safe, "value", "ok"),
]
def zero_unconnected_prediction_made_before_the_tape():
    w = tv.Variable([1.0, 2.0])
    prediction = w * 3.0
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(prediction ** 2)
    return tape, y, w


ZERO_CORPUS = [(zero_unconnected_result, "zero", "zero_unconnected"),
               (zero_unconnected_vector, "zero", "zero_unconnected"),
               (zero_unconnected_prediction_made_before_the_tape, "zero", "zero_unconnected")]


@pytest.mark.parametrize("program,verdict,cause", CORPUS, ids=[p[0].__name__ for p in CORPUS])
def test_explanation_names_verdict_cause_and_line(program, verdict, cause):
    tape, target, source = program()
    (why,) = tape.explain(target, [source])
    assert (why.verdict, why.cause) == (verdict, cause), str(why)
    marked = _helper_uses_numpy if program is numpy_escape_in_helper else program
    assert why.lineno == _expected_line(marked), str(why)
    if why.lineno is not None:
        assert why.filename == __file__
    assert why.message and (why.fix or cause == "ok")


@pytest.mark.parametrize("program,verdict,cause", ZERO_CORPUS,
                         ids=[p[0].__name__ for p in ZERO_CORPUS])
def test_zero_from_unconnected_gradients_is_named(program, verdict, cause):
    tape, target, source = program()
    (why,) = tape.explain(target, [source], unconnected_gradients="zero")
    assert (why.verdict, why.cause) == (verdict, cause), str(why)


def test_every_documented_cause_is_exercised_by_the_corpus():
    exercised = {c for _, _, c in CORPUS + ZERO_CORPUS}
    assert set(CAUSES) == exercised, set(CAUSES) - exercised


@pytest.mark.parametrize("program,verdict,cause", CORPUS, ids=[p[0].__name__ for p in CORPUS])
def test_a_recorded_gradient_call_tells_the_same_explanation(program, verdict, cause):
    """What a recording and the dashboard read: the explanation in the `gradient_finished`
    event, worked out when the event is read (after the call: the tape's state copied at
    it), not by `tape.explain`. The same hand-marked verdict, cause and line."""
    with events.capture() as seen:
        tape, target, source = program()
        tape.gradient(target, [source])
    (result,) = seen.of("gradient_finished")[-1].results     # (a program may call before)
    assert (result["verdict"], result["cause"]) == (verdict, cause), result["message"]
    marked = _helper_uses_numpy if program is numpy_escape_in_helper else program
    assert result["lineno"] == _expected_line(marked), result


@pytest.mark.parametrize("program,verdict,cause", CORPUS, ids=[p[0].__name__ for p in CORPUS])
def test_verdict_matches_the_gradient_the_tape_returns(program, verdict, cause):
    """The verdict describes the gradient `tape.gradient` returns for the same program: None,
    one with a NaN or an Inf, all zeros, or (`value`) a finite one that is not all zeros."""
    tape, target, source = program()
    grad = tape.gradient(target, source)
    if verdict == "none":
        assert grad is None
        return
    assert grad is not None, verdict
    g = np.asarray(grad.numpy())
    expected = {"nan": np.isnan(g).any(),
                "inf": np.isinf(g).any() and not np.isnan(g).any(),
                "zero": np.isfinite(g).all() and not g.any(),
                "value": np.isfinite(g).all() and g.any()}
    assert expected[verdict], (verdict, g)


@pytest.mark.parametrize("program,op,phase,call", [
    (nan_from_where_trap_log, "Log", "forward", "tv.math.log(tv.where(v > 0, v, 1.0))"),
    (nan_from_where_trap_divide, "RealDiv", "forward", "1.0 / tv.where(v > 0, v, 1.0)"),
    (nan_from_where_trap, "Pow", "backward", "tv.where(v > 0, v, 1.0) ** p"),
], ids=["log", "divide", "pow"])
def test_where_trap_fix_names_the_safe_input_whatever_the_op(program, op, phase, call):
    # the NaN/Inf came from the branch tv.where discarded: the fix is a safe input for the op
    # (in the forward pass for log(0) = -inf and 1/0 = inf, in the backward pass for 0 ** 0.5)
    tape, y, v = program()
    (why,) = tape.explain(y, v)
    assert why.cause == "nan_origin" and why.node is not None
    assert f"at {op} " in why.message and f"in the {phase} pass" in why.message
    if phase == "forward":
        assert "tv.where after it discarded those elements" in why.message
    assert "where trap" in why.fix and "branch it discarded" in why.fix
    assert f"Give {op} a safe input" in why.fix
    assert "x_safe = tv.where(cond, x, 1.0)" in why.fix and call in why.fix
    assert "epsilon" not in why.fix


def test_log_of_zero_the_where_keeps_is_not_the_where_trap():
    tape, y, v = inf_from_log_the_where_keeps()
    (why,) = tape.explain(y, v)
    assert why.cause == "inf_origin" and "Log" in why.message
    assert "where trap" not in why.fix and "epsilon" in why.fix


def test_explain_does_not_consume_a_one_shot_tape_and_works_after_gradient():
    tape, y, x = nan_from_softplus_overflow()
    before = tape.explain(y, x)
    grad = tape.gradient(y, x)
    after = tape.explain(y, x)
    assert np.isnan(grad.numpy())
    assert [e.cause for e in before] == [e.cause for e in after] == ["nan_origin"]


def test_nested_sources_are_flattened_in_tensorflow_order():
    a, b, c = tv.Variable(1.0, name="a"), tv.Variable(2.0, name="b"), tv.constant(3.0)
    with tv.GradientTape() as tape:
        y = a * b
    why = tape.explain(y, {"z": a, "m": [c, b]})
    # keys sorted (m, z); each source named as the caller's code names it, then its tensor name
    assert [e.source_name for e in why] == [f"c ({c.name})", "b (b:0)", "a (a:0)"]
    assert [e.cause for e in why] == ["unconnected", "ok", "ok"]


def test_explain_none_config_warns_with_the_explanation(monkeypatch):
    monkeypatch.setattr(tv.config, "explain_none", True)
    x = tv.constant(1.0)
    with tv.GradientTape() as tape:
        y = x * 2.0
    with pytest.warns(UserWarning, match="not_watched"):
        assert tape.gradient(y, x) is None


def test_a_released_one_shot_tape_still_explains_sources_it_was_not_asked_about():
    a, b = tv.Variable(1.0), tv.Variable(2.0)
    with tv.GradientTape() as tape:
        y = a * b
    tape.gradient(y, a)
    why_b, = tape.explain(y, b)
    assert (why_b.verdict, why_b.cause) == ("value", "ok")
    assert "released" in why_b.message


def test_vanishing_gradient_after_a_one_shot_gradient_is_still_explained():
    tape, y, w = saturated_layer_keeps_a_tiny_value()
    g = tape.gradient(y, w)
    assert 0 < abs(float(g.numpy()[0, 0])) < 1e-6
    (why,) = tape.explain(y, w)
    assert why.cause == "saturated"


def test_explanation_as_dict_has_every_field_in_order():
    import dataclasses
    from tapeviz.explain import Explanation
    e = Explanation("x (x:0)", "none", "not_watched", "msg", "fix", "a.py", 3, ("Mul",), 7,
                    origin_call=2, cell=4, path_nodes=(5, 7))
    expected = dataclasses.asdict(e)
    expected["path"], expected["path_nodes"] = ["Mul"], [5, 7]
    assert e.as_dict() == expected and list(e.as_dict()) == [f.name for f in
                                                              dataclasses.fields(e)]
    # outside a notebook cell there is no cell: a script's results are as they always were
    # (and a route of node ids only for a NaN/Inf)
    script = dataclasses.replace(e, cell=None, path_nodes=())
    assert list(script.as_dict()) == [f.name for f in dataclasses.fields(e)
                                      if f.name not in ("cell", "path_nodes")]


# --- fixes in the user's words: `import tapeviz as tf` gets `tf.` -------------------------------
ALIASED = '''\
import numpy as np
import {module} as {alias}
x = {alias}.Variable(2.0)
v = {alias}.Variable([0.0, 1.0])
with {alias}.GradientTape(persistent=True) as tape:
    y = {alias}.constant(float(np.sin(x.numpy())), name="tv.sin") * 3.0   # was tv.sin(x)
    z = {alias}.reduce_sum({alias}.where(v > 0, {alias}.math.log(v), 0.0))
escaped, = tape.explain(y, x)
trapped, = tape.explain(z, v)
with {alias}.events.capture() as seen:
    with {alias}.GradientTape() as once:
        w = {alias}.reduce_sum({alias}.where(v > 0, {alias}.math.log(v), 0.0))
    once.gradient(w, v)
finished = [e for e in seen if e.kind == "gradient_finished"][0].results[0]
'''


@pytest.mark.parametrize("alias", ["tf", "tv", "tapeviz_engine"])
def test_fixes_name_tapeviz_as_the_users_code_does(alias, tmp_path):
    script = tmp_path / "aliased.py"       # a file: explanations quote the user's line
    script.write_text(ALIASED.format(module="tapeviz", alias=alias))
    namespace = {}
    exec(compile(script.read_text(), str(script), "exec"), namespace)
    escaped, trapped, finished = (namespace[k] for k in ("escaped", "trapped", "finished"))
    assert escaped.cause == "numpy_escape" and trapped.cause == finished["cause"] == "nan_origin"
    other = "tv" if alias != "tv" else "tf"
    for text in (escaped.fix, trapped.message, trapped.fix, finished["fix"]):
        assert f"{alias}." in text and f"{other}." not in text, text
    assert f"{alias}.where(v > 0, {alias}.math.log({alias}.where(v > 0, v, 1.0)), 0.0)" in \
        trapped.fix
    # the user's own code is quoted as written, its string's "tv." included, without the
    # line's comment (the code is what the message names)
    assert "(`y = " in escaped.message and 'name="tv.sin") * 3.0`)' in escaped.message
    assert "# was" not in escaped.message


def test_released_tapes_say_so_in_the_users_words():
    namespace = {}
    exec(compile("import tapeviz as tf\na, b = tf.Variable(1.0), tf.Variable(2.0)\n"
                 "with tf.GradientTape() as tape:\n    y = a * b\n"
                 "tape.gradient(y, a)\nwhy, = tape.explain(y, b)\n", "<released>", "exec"),
         namespace)
    assert "tf.GradientTape(persistent=True)" in namespace["why"].fix


def test_a_second_gradient_on_a_one_shot_tape_names_tapeviz_as_the_user_does():
    # the script imports tapeviz as tf: the RuntimeError's fix must be code they can paste
    namespace = {}
    exec(compile("import tapeviz as tf\na = tf.Variable(1.0)\n"
                 "with tf.GradientTape() as tape:\n    y = a * a\n"
                 "tape.gradient(y, a)\ntry:\n    tape.gradient(y, a)\n"
                 "except RuntimeError as e:\n    error = str(e)\n", "<one_shot>", "exec"),
         namespace)
    assert "tf.GradientTape(persistent=True)" in namespace["error"], namespace["error"]
    assert "tv." not in namespace["error"]


@pytest.mark.parametrize("make,op,smallest", [
    (lambda v: tv.sqrt(tv.reduce_mean(v * v) - 1.0), "Sqrt", 0.25 - 1.0),
    (lambda v: tv.square(tv.math.log(v - 1.0)), "Log", 0.5 - 1.0),
], ids=["sqrt", "log"])
def test_a_root_or_log_of_a_negative_input_says_the_input_left_its_domain(make, op, smallest):
    # sqrt(mean(v²) - 1) with v = 0.5 is the root of -0.75: NaN in the forward pass. The fix
    # for that is a non-negative input, not an epsilon against an infinite slope at 0.
    v = tv.Variable([0.5, 0.5])
    with tv.GradientTape() as tape:
        y = make(v)
    (why,) = tape.explain(y, v)
    assert why.cause == "nan_origin" and f"at {op} " in why.message
    assert f"smallest {smallest:.4g}" in why.message and "not defined" in why.message
    assert f"stay at or above 0" in why.fix and "infinite at 0" not in why.fix


def test_a_read_of_a_variable_is_explained_as_its_own_source():
    # two reads of one variable are two tensors (as in TensorFlow): a target computed from
    # the second read does not depend on the first, though both read the same variable
    v = tv.Variable(2.0)
    with tv.GradientTape(persistent=True) as tape:
        first, second = v.read_value(), v.read_value()
        y = second * 5.0
    assert tape.gradient(y, [first, second, v])[0] is None
    assert [e.verdict for e in tape.explain(y, [first, second, v])] == ["none", "value", "value"]


def test_a_copy_names_the_call_that_copied_and_what_it_copied():
    tape, y, x = variable_made_inside_the_tape()
    (why,) = tape.explain(y, [x])
    line = _expected_line(variable_made_inside_the_tape)
    assert why.message.startswith(f"tv.Variable at line {line} (`v = tv.Variable(x * 3.0)`) "
                                  "copied a value computed from"), why.message
    assert "tv.identity" in why.fix and "before the tape" in why.fix
    tape, y, w = constant_of_a_variable()
    (why,) = tape.explain(y, [w])
    assert why.message.startswith("tv.constant at line") and "copied the value of" in \
        why.message and "into a new constant" in why.message, why.message


def stop_gradient_on_the_prediction_side():
    w = tv.Variable([[0.5, -1.0], [2.0, 0.25]], name="proj")
    x = tv.constant([[1.0, 2.0]])
    probs = tv.constant([[0.3, 0.7]])
    with tv.GradientTape() as tape:
        # a consistency loss that meant to hold `probs` fixed, as the new user's script did
        y = tv.reduce_mean(tv.square(tv.stop_gradient(x @ w) - probs))
    return tape, y, w


def test_a_stop_gradient_beside_a_difference_suggests_moving_it_to_the_target():
    """Hand-marked: the stop_gradient is one side of `a - b`, so the fix names the other
    side as where it may belong; a stop_gradient not on a difference keeps the plain fix."""
    tape, y, w = stop_gradient_on_the_prediction_side()
    (why,) = tape.explain(y, w)
    assert (why.verdict, why.cause) == ("none", "stop_gradient"), str(why)
    assert "one side of a difference (Sub)" in why.message
    assert "tv.stop_gradient(target) - prediction" in why.fix
    tape, y, x = stop_gradient_cut()
    (why,) = tape.explain(y, x)
    assert why.fix == "Remove the stop_gradient if this gradient is wanted."


def test_a_log_of_a_relu_names_the_relu_in_its_fix():
    # by hand: x @ w = [-1, 3.5]; the ReLU makes an exact 0, whose log is -inf (NaN in the
    # gradient); the fix must point at the ReLU's line (softplus), not only at the log
    x = tv.constant([[1.0, -2.0], [0.5, 3.0]])
    w = tv.Variable([[1.0], [1.0]])
    with tv.GradientTape() as tape:
        var = tv.nn.relu(x @ w)
        y = tv.reduce_sum(tv.math.log(var))  # expect
    (why,) = tape.explain(y, [w])
    assert (why.verdict, why.cause) == ("nan", "nan_origin"), str(why)
    relu_line = _expected_line(test_a_log_of_a_relu_names_the_relu_in_its_fix) - 1
    assert f"ReLU at line {relu_line}" in why.fix and "softplus" in why.fix, why.fix
    # a log whose input is not a ReLU's keeps the plain fix
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.math.log(x @ w))
    assert "ReLU" not in tape.explain(y, [w])[0].fix


def test_a_gradient_that_cancels_behind_a_dead_layer_names_the_layer():
    # by hand: the hidden ReLU is dead (x @ w - 10 < 0 for every row), so the output is b
    # for real and fake rows alike; softplus(-b) + softplus(b) has derivative 2 sigmoid(b) - 1,
    # 0 at b = 0: the bias's gradient cancels exactly, because the layer before it is dead
    real = tv.constant([[1.0, 2.0], [0.5, -1.0]])
    fake = tv.constant([[0.3, 0.1], [-2.0, 1.5]])
    w = tv.Variable([[1.0], [1.0]], name="w")
    b = tv.Variable(0.0, name="b")
    with tv.GradientTape() as tape:
        with tv.name_scope("disc"):
            real_out = tv.nn.relu(real @ w - 10.0) + b  # expect
        fake_out = tv.nn.relu(fake @ w - 10.0) + b
        loss = tv.reduce_mean(tv.nn.softplus(-real_out)) + tv.reduce_mean(
            tv.nn.softplus(fake_out))
    (why,) = tape.explain(loss, [b])
    assert (why.verdict, why.cause) == ("zero", "cancelled"), str(why)
    line = _expected_line(test_a_gradient_that_cancels_behind_a_dead_layer_names_the_layer)
    assert f"A ReLU in disc at line {line}" in why.fix and "dead layer" in why.fix, why.fix
    # terms that cancel beside a live ReLU (real @ w = [3, -0.5]: one unit fires): no dead
    # layer is named
    with tv.GradientTape() as tape:
        loss = b * 3.0 - b * 3.0 + tv.reduce_sum(tv.nn.relu(real @ w))
    (why,) = tape.explain(loss, [b])
    assert why.cause == "cancelled" and "dead layer" not in why.fix, why.fix
    assert "Nothing is broken if that is the maths" in why.fix


def test_a_numpy_escape_fix_names_the_tapeviz_op_for_the_function_found():
    # hand-marked: the value left through np.mean here (a fix names tv.reduce_mean), and a
    # GAN loss written with np.log names tv.math.log; a read with no NumPy call on its line
    # (.numpy()) keeps the general fix
    tape, y, x = numpy_function_escape()
    (why,) = tape.explain(y, x)
    assert why.fix.startswith("Use tv.reduce_mean instead of np.mean"), why.fix
    w = tv.Variable([0.5, 0.2])
    with tv.GradientTape() as tape:
        y = -tv.reduce_mean(np.log(w * 2.0 + 1e-7))
    assert tape.explain(y, [w])[0].fix.startswith("Use tv.math.log instead of np.log")
    with tv.GradientTape() as tape:
        y = tv.constant(w.numpy() * 2.0)
    assert tape.explain(y, [w])[0].fix.startswith("Use the tapeviz op instead")


def test_a_division_by_a_relu6_names_it_and_a_maximum_with_zero_has_no_nan():
    # by hand: x @ w = [-1, 3.5]; relu6 makes an exact 0 of the -1, 1 / 0 is Inf, and its
    # gradient, multiplied by ReLU6's 0 there, is NaN: the fix names the ReLU6's line
    x = tv.constant([[1.0, -2.0], [0.5, 3.0]])
    w = tv.Variable([[1.0], [1.0]])
    with tv.GradientTape(persistent=True) as tape:
        scale = tv.nn.relu6(x @ w)
        y = tv.reduce_sum(1.0 / scale)  # expect
        # TensorFlow's Maximum selects its gradient (0 where the floor won), so the Inf of
        # the division stays out of w's gradient: row 2's alone, -x[1] / 3.5 ** 2
        clipped = tv.reduce_sum(1.0 / tv.maximum(x @ w, 0.0))
    (why,) = tape.explain(y, [w])
    assert (why.verdict, why.cause) == ("nan", "nan_origin"), str(why)
    line = _expected_line(test_a_division_by_a_relu6_names_it_and_a_maximum_with_zero_has_no_nan) - 1
    assert f"a ReLU6 at line {line}" in why.fix and "instead of tv.nn.relu6(x)" in why.fix
    np.testing.assert_allclose(tape.gradient(clipped, w).numpy(),
                               [[-0.5 / 12.25], [-3.0 / 12.25]], rtol=1e-6)


def test_a_dead_relu_names_what_made_its_input_negative():
    # by hand: x @ w is -3 and -4 before the bias; with b = -5 the bias is not why (no input
    # would be positive without it): the weights are, as made (line of w) or as an update
    # left them (line of the assign_sub); with x @ v positive (3, 4) the bias of -5 is why
    x = tv.constant([[1.0, 2.0]])
    w = tv.Variable([[-1.0], [-1.0]], name="w")
    b = tv.Variable([-5.0], name="b")
    v = tv.Variable([[1.0], [1.0]], name="v")
    with tv.GradientTape(persistent=True) as tape:
        by_weights = tv.reduce_sum(tv.nn.relu(x @ w + b))
        by_bias = tv.reduce_sum(tv.nn.relu(x @ v + b))
        product_only = tv.reduce_sum(tv.nn.relu(x @ w))
    (e,) = tape.explain(by_weights, [w])
    assert e.cause == "dead_relu" and "Not because of b:0 (-5): without it, 0.0% " in e.message
    assert "The product with w:0, made at line" in e.message, e.message
    assert e.fix.startswith("Check how w:0 is initialised at line"), e.fix
    (e,) = tape.explain(by_bias, [v])
    assert "b:0 (-5, made at line" in e.message and "without it, 100% of them" in e.message
    assert e.fix.startswith("Initialise b:0 at zero"), e.fix
    (e,) = tape.explain(product_only, [w])     # its own ReLU, not the first loss's
    assert "(`product_only = " in e.message, e.message
    assert "Its input, the product with w:0, made at line" in e.message, e.message
    # an update drove the weights there: the fix names it and the learning rate (an update's
    # line is kept while a tape records or someone listens: a recording, the dashboard)
    u = tv.Variable([[1.0], [1.0]], name="u")
    with tv.events.subscribe(lambda event: None):
        u.assign_sub([[2.0], [2.0]]); updated = inspect.currentframe().f_lineno
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.nn.relu(x @ u + b))
    (e,) = tape.explain(y, [u])
    assert f"last updated at line {updated} " in e.message, e.message
    assert e.fix.startswith(f"An update at line {updated} ") and "learning rate" in e.fix


def test_another_loss_of_a_persistent_tape_is_not_why_this_gradient_is_zero():
    # by hand: x @ w is -3, so the first loss's ReLU is dead and the second loss's clip to
    # [0, 1] holds: the second loss's zero gradient is the clip's, not the other ReLU's
    x = tv.constant([[1.0, 2.0]])
    w = tv.Variable([[-1.0], [-1.0]], name="w")
    with tv.GradientTape(persistent=True) as tape:
        dead = tv.reduce_sum(tv.nn.relu(x @ w - 5.0))
        clipped = tv.reduce_sum(tv.clip_by_value(x @ w, 0.0, 1.0))
    assert [e.cause for e in tape.explain(dead, [w])] == ["dead_relu"]
    (e,) = tape.explain(clipped, [w])
    assert (e.verdict, e.cause) == ("zero", "clipped") and "(`clipped = " in e.message, e.message


def test_a_log_of_an_underflowed_probability_offers_the_log_space_op():
    # by hand: exp(-200) is 0 in float32, so the hand-written softmax has a 0 and its log -inf
    x = tv.Variable([0.0, -200.0], name="x")
    with tv.GradientTape() as tape:
        p = tv.exp(x) / tv.reduce_sum(tv.exp(x))
        y = -tv.reduce_sum(tv.math.log(p))
    (e,) = tape.explain(y, [x])
    assert e.verdict in ("nan", "inf") and e.path[-1] == "Log", (e.verdict, e.path)
    assert "tv.nn.log_softmax" in e.fix and "from_logits=True" in e.fix, e.fix
