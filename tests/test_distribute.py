"""tf.distribute on one replica: what the golden program `distribute_one_replica` cannot say
(tapeviz's own refusals, threads, recording, the docstring). TensorFlow's answers are in
tests/golden/programs/distribute_one_replica.py."""
import doctest
import threading

import numpy as np
import pytest

import tapeviz as tv
import tapeviz.distribute


def test_docstring_example_runs():
    assert doctest.testmod(tapeviz.distribute).failed == 0


def test_several_devices_are_refused_with_the_fix():
    with pytest.raises(ValueError, match=r"one replica on one device.*Fix: MirroredStrategy\(\)"):
        tv.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    assert tv.distribute.MirroredStrategy(["/cpu:0"]).num_replicas_in_sync == 1


def test_an_unknown_reduce_op_names_the_function_and_the_fix():
    ctx = tv.distribute.get_replica_context()
    with pytest.raises(ValueError, match=r"all_reduce: 'MAX'.*ReduceOp.SUM"):
        ctx.all_reduce("MAX", tv.constant(1.0))


def test_a_scope_belongs_to_its_thread():
    strategy, seen = tv.distribute.MirroredStrategy(), []
    with strategy.scope():
        worker = threading.Thread(target=lambda: seen.append(tv.distribute.has_strategy()))
        worker.start()
        worker.join()
        assert tv.distribute.has_strategy()
    assert seen == [False] and not tv.distribute.has_strategy()


def test_the_scope_is_left_when_run_raises():
    strategy = tv.distribute.MirroredStrategy()

    def broken():
        raise KeyError("x")
    with pytest.raises(KeyError):
        strategy.run(broken)
    assert not tv.distribute.has_strategy()
    assert tv.distribute.get_replica_context().strategy is tv.distribute.get_strategy()


def test_a_step_run_by_the_strategy_is_recorded_like_any_tape():
    strategy = tv.distribute.MirroredStrategy()
    with strategy.scope():
        w = tv.Variable([1.0, -2.0], name="w")

    def step(x):
        with tv.GradientTape() as tape:
            loss = tv.reduce_sum(w * x)
        return tape.gradient(loss, w)
    with tv.events.capture() as seen:
        grad = strategy.run(step, args=(tv.constant([3.0, 4.0]),))
    np.testing.assert_array_equal(grad.numpy(), [3.0, 4.0])
    assert "gradient_finished" in seen.kinds()


def test_model_fit_inside_a_scope_trains():
    tv.keras.backend.clear_session()
    tv.random.set_seed(0)
    with tv.distribute.MirroredStrategy().scope():
        model = tv.keras.Sequential([tv.keras.layers.Dense(1)])
        model.compile(optimizer=tv.keras.optimizers.SGD(0.1), loss="mse")
    x = np.linspace(-1, 1, 32, dtype=np.float32).reshape(-1, 1)
    history = model.fit(x, 3 * x, epochs=5, batch_size=8, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
