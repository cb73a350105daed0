"""The Keras-like kit and tv.Module: names, shapes, orders, updates and losses against NumPy."""
import numpy as np
import pytest

import tapeviz as tv
from tapeviz.keras import layers, losses, optimizers
from tapeviz.module import Module


@pytest.fixture(autouse=True)
def fresh_names():
    tv.keras.backend.clear_session()
    yield


# --- Module --------------------------------------------------------------------------------
class Affine(Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.w = tv.Variable([[1.0, 2.0]], name="w")
        self.b = tv.Variable([0.0, 0.0], name="b")
        self.frozen = tv.Variable(1.0, trainable=False, name="frozen")


class Stack(Module):
    def __init__(self):
        super().__init__()
        self.blocks = [Affine(), Affine(name="second")]
        self.extra = {"z": tv.Variable(3.0, name="z"), "a": tv.Variable(4.0, name="a")}


def test_module_name_defaults_to_snake_case_class_name():
    assert Affine().name == "affine"
    assert Stack().name == "stack"
    with pytest.raises(ValueError):
        Affine(name="not a name")


def test_module_variables_in_tensorflow_order():
    m = Affine()
    # TensorFlow: the module's attributes sorted by name
    assert [v.name for v in m.variables] == ["b:0", "frozen:0", "w:0"]
    assert [v.name for v in m.trainable_variables] == ["b:0", "w:0"]


def test_module_finds_variables_in_lists_dicts_and_submodules():
    s = Stack()
    names = [v.name for v in s.variables]
    # own attributes first (blocks holds modules, extra a dict sorted by key), then submodules
    assert names == ["a:0", "z:0", "b:0", "frozen:0", "w:0", "b:0", "frozen:0", "w:0"]
    assert [m.name for m in s.submodules] == ["affine", "second"]


def test_module_name_scope_groups_ops():
    from tapeviz.engine.tape import current_scope
    m = Affine()
    with m.name_scope:
        assert current_scope() == "affine"


# --- layers --------------------------------------------------------------------------------
def test_dense_builds_lazily_with_keras_names_and_shapes():
    d = layers.Dense(3)
    assert d.name == "dense" and not d.built and d.trainable_variables == []
    y = d(tv.ones((2, 5)))
    assert y.shape == (2, 3) and y.dtype == tv.float32
    assert [v.name for v in d.trainable_variables] == ["dense/kernel:0", "dense/bias:0"]
    assert d.kernel.shape == (5, 3) and d.bias.shape == (3,)
    assert np.all(d.bias.numpy() == 0)
    limit = np.sqrt(6 / (5 + 3))
    assert np.all(np.abs(d.kernel.numpy()) <= limit)
    assert layers.Dense(2).name == "dense_1"
    assert layers.Dense(2, name="head").name == "head"


def test_dense_activation_no_bias_and_rank3_and_int_inputs():
    d = layers.Dense(2, activation="relu", use_bias=False, kernel_initializer="ones")
    y = d(np.array([[-1.0, -2.0], [1.0, 2.0]]))       # float64 NumPy input is cast to float32
    assert y.dtype == tv.float32
    np.testing.assert_allclose(y.numpy(), [[0, 0], [3, 3]])
    assert len(d.trainable_variables) == 1
    d3 = layers.Dense(4)
    assert d3(tv.ones((2, 3, 5))).shape == (2, 3, 4)
    assert layers.Dense(1)(tv.constant([[1, 2]])).dtype == tv.float32


def test_dense_rejects_wrong_input_width():
    d = layers.Dense(2)
    d(tv.ones((1, 3)))
    with pytest.raises(ValueError, match="expected axis -1"):
        d(tv.ones((1, 4)))


def test_layer_ops_run_in_the_layer_name_scope():
    seen = []
    from tapeviz.engine import tape as tape_mod

    class Probe(layers.Layer):
        def call(self, x):
            seen.append(tape_mod.current_scope())
            return x

    model = tv.keras.Sequential([Probe(name="probe")])
    model(tv.ones((1, 2)))
    assert seen == ["sequential/probe"]


def test_sequential_order_flatten_and_input_shape_build():
    model = tv.keras.Sequential([layers.Flatten(input_shape=(2, 3)), layers.Dense(4, "relu"),
                                 layers.Dense(2)])
    assert model.built
    assert [v.name for v in model.trainable_variables] == [
        "dense/kernel:0", "dense/bias:0", "dense_1/kernel:0", "dense_1/bias:0"]
    assert model(tv.ones((5, 2, 3))).shape == (5, 2)
    assert model.count_params() == 6 * 4 + 4 + 4 * 2 + 2
    assert model.name == "sequential"


def test_custom_model_tracks_layers_and_non_trainable_layers():
    class Net(tv.keras.Model):
        def __init__(self):
            super().__init__()
            self.a = layers.Dense(2)
            self.b = layers.Dense(1)

        def call(self, x):
            return self.b(self.a(x))

    net = Net()
    net(tv.ones((1, 3)))
    assert len(net.trainable_variables) == 4
    net.a.trainable = False
    # built inside the model's call, so named under its scope, as Keras names them
    assert [v.name for v in net.trainable_variables] == ["net/dense_1/kernel:0",
                                                         "net/dense_1/bias:0"]
    assert len(net.variables) == 4


def test_training_is_deterministic_under_set_seed():
    def run():
        tv.keras.backend.clear_session()
        tv.random.set_seed(42)
        model = tv.keras.Sequential([layers.Dense(8, "tanh"), layers.Dense(1)])
        opt = optimizers.Adam(0.01)
        x = tv.random.normal((16, 3))
        y = tv.reduce_sum(x, axis=1, keepdims=True)
        for _ in range(3):
            with tv.GradientTape() as tape:
                loss = losses.MeanSquaredError()(y, model(x))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
        return [v.numpy() for v in model.trainable_variables], float(loss)

    a, la = run()
    b, lb = run()
    assert la == lb
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)


# --- activations -------------------------------------------------------------------------------
def test_activations_by_name():
    x = tv.constant([[-1.0, 0.5]])
    for name, ref in [("relu", [[0, 0.5]]), ("linear", [[-1, 0.5]]),
                      ("sigmoid", 1 / (1 + np.exp([[1.0, -0.5]]))),
                      ("tanh", np.tanh([[-1.0, 0.5]]))]:
        np.testing.assert_allclose(tv.keras.activations.get(name)(x).numpy(), ref, rtol=1e-6)
    sm = tv.keras.activations.get("softmax")(x).numpy()
    np.testing.assert_allclose(sm, np.exp([[-1, 0.5]]) / np.exp([[-1, 0.5]]).sum(), rtol=1e-6)
    with pytest.raises(ValueError, match="Unknown activation"):
        tv.keras.activations.get("nope")


# --- optimizers ----------------------------------------------------------------------------------
def _step(opt, w0, grads):
    v = tv.Variable(np.array(w0, np.float32))
    for g in grads:
        opt.apply_gradients([(tv.constant(np.array(g, np.float32)), v)])
    return v.numpy()


def test_sgd_matches_numpy():
    w0, gs = [1.0, -2.0], [[0.5, 0.25], [-1.0, 2.0]]
    w = np.array(w0, np.float32)
    for g in gs:
        w = w - np.float32(0.1) * np.array(g, np.float32)
    np.testing.assert_allclose(_step(optimizers.SGD(0.1), w0, gs), w, rtol=1e-6)


def test_sgd_momentum_and_nesterov_match_numpy():
    w0, gs = [1.0, -2.0], [[0.5, 0.25], [-1.0, 2.0], [0.1, 0.1]]
    for nesterov in (False, True):
        w, m = np.array(w0, np.float32), np.zeros(2, np.float32)
        for g in gs:
            g = np.array(g, np.float32)
            m = 0.9 * m - 0.1 * g
            w = w + (0.9 * m - 0.1 * g if nesterov else m)
        got = _step(optimizers.SGD(0.1, momentum=0.9, nesterov=nesterov), w0, gs)
        np.testing.assert_allclose(got, w, rtol=1e-5)


def test_adam_matches_numpy():
    w0, gs = [1.0, -2.0, 0.0], [[0.5, 0.25, 0.0], [-1.0, 2.0, 1.0], [0.1, 0.1, -3.0]]
    lr, b1, b2, eps = 0.01, 0.9, 0.999, 1e-7
    w, m, v = np.array(w0, np.float64), np.zeros(3), np.zeros(3)
    for t, g in enumerate(gs, 1):
        g = np.array(g)
        m = m + (g - m) * (1 - b1)
        v = v + (g * g - v) * (1 - b2)
        alpha = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        w = w - m * alpha / (np.sqrt(v) + eps)
    opt = optimizers.Adam(lr)
    np.testing.assert_allclose(_step(opt, w0, gs), w, rtol=1e-5, atol=1e-7)
    assert int(opt.iterations.numpy()) == 3


def test_none_gradients_are_skipped_with_a_warning_and_all_none_raises():
    a, b = tv.Variable(1.0, name="a"), tv.Variable(2.0, name="b")
    opt = optimizers.SGD(1.0)
    with pytest.warns(UserWarning, match="b:0"):
        opt.apply_gradients([(tv.constant(1.0), a), (None, b)])
    assert float(a) == 0.0 and float(b) == 2.0
    with pytest.raises(ValueError, match="No gradients provided"):
        opt.apply_gradients([(None, a)])


def test_minimize_with_a_callable_loss():
    w = tv.Variable(3.0)
    opt = optimizers.SGD(0.25)
    opt.minimize(lambda: w * w, [w])
    assert float(w) == pytest.approx(3.0 - 0.25 * 6.0)


# --- losses --------------------------------------------------------------------------------------
def test_mean_squared_error_matches_numpy_and_sample_weight():
    yt = np.array([[0.0, 1.0], [1.0, 1.0]], np.float32)
    yp = np.array([[0.5, 0.5], [1.0, 0.0]], np.float32)
    mse = losses.MeanSquaredError()
    assert float(mse(yt, yp)) == pytest.approx(np.mean((yp - yt) ** 2))
    per = np.mean((yp - yt) ** 2, axis=-1)
    w = np.array([1.0, 0.5], np.float32)
    assert float(mse(yt, yp, sample_weight=w)) == pytest.approx(np.sum(per * w) / 2)
    none = losses.MeanSquaredError(reduction="none")(yt, yp)
    np.testing.assert_allclose(none.numpy(), per)


def test_sparse_categorical_crossentropy_logits_and_probabilities():
    logits = np.array([[2.0, 1.0, 0.1], [0.5, 2.5, -1.0]], np.float32)
    labels = np.array([0, 2])
    lsm = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    ref = -lsm[np.arange(2), labels].mean()
    got = losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)
    assert float(got) == pytest.approx(ref, rel=1e-6)
    probs = np.exp(lsm)
    got = losses.SparseCategoricalCrossentropy()(labels.reshape(2, 1).astype(np.float32), probs)
    assert float(got) == pytest.approx(ref, rel=1e-5)


def test_categorical_crossentropy_matches_numpy():
    y = np.array([[1.0, 0.0, 0.0], [0.0, 0.5, 0.5]], np.float32)
    logits = np.array([[2.0, 1.0, 0.1], [0.5, 2.5, -1.0]], np.float32)
    lsm = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    ref = np.mean(-(y * lsm).sum(-1))
    got = losses.CategoricalCrossentropy(from_logits=True)(y, logits)
    assert float(got) == pytest.approx(ref, rel=1e-6)
    got = losses.CategoricalCrossentropy()(y, np.exp(lsm))
    assert float(got) == pytest.approx(ref, rel=1e-5)


def test_a_training_loop_reduces_the_loss():
    tv.random.set_seed(1)
    x = tv.random.normal((64, 4))
    labels = tv.argmax(x, axis=1)
    model = tv.keras.Sequential([layers.Dense(16, "relu"), layers.Dense(4)])
    loss_fn = losses.SparseCategoricalCrossentropy(from_logits=True)
    opt = optimizers.Adam(0.05)
    first = None
    for _ in range(30):
        with tv.GradientTape() as tape:
            loss = loss_fn(labels, model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        first = float(loss) if first is None else first
    assert float(loss) < 0.5 * first


# --- metrics ---------------------------------------------------------------------------------
def test_metrics_mean_and_accuracies():
    from tapeviz.keras import metrics
    m = metrics.Mean()
    m.update_state([1.0, 2.0])
    m.update_state(tv.constant(6.0))
    assert float(m.result()) == pytest.approx(3.0)
    m.reset_state()
    assert float(m.result()) == 0.0
    acc = metrics.SparseCategoricalAccuracy()
    out = acc([[1], [0], [2]], [[0.1, 0.9, 0.0], [0.8, 0.1, 0.1], [0.5, 0.3, 0.2]])
    assert float(out) == pytest.approx(2 / 3)
    cat = metrics.CategoricalAccuracy()
    assert float(cat([[0, 1], [1, 0]], [[0.2, 0.8], [0.3, 0.7]])) == pytest.approx(0.5)
    assert float(metrics.Accuracy()([1, 2, 3], [1, 2, 0])) == pytest.approx(2 / 3)
    w = metrics.Mean()
    w.update_state([1.0, 3.0], sample_weight=[3.0, 1.0])
    assert float(w.result()) == pytest.approx(1.5)


def test_dense_needs_a_batch_axis_as_keras():
    with pytest.raises(ValueError, match="min_ndim=2"):
        layers.Dense(2)(tv.ones((3,)))


def test_sequential_with_an_input_declaration_builds_at_once():
    model = tv.keras.Sequential([tv.keras.Input(shape=(3,)), layers.Dense(2, name="out")])
    assert model.built and [l.name for l in model.layers] == ["out"]
    assert [v.shape for v in model.trainable_variables] == [(3, 2), (2,)]
    assert model.get_layer("out") is model.layers[0]
    assert model(tv.ones((4, 3))).shape == (4, 2)


def test_add_metric_finds_the_metric_of_a_result_made_in_another_thread():
    # each thread calls its own metric; the results are added to layers afterwards, in other
    # threads: each result must still name the metric that made it (nothing shared between
    # the calls decides it)
    import threading
    from tapeviz.keras.metrics import metric_of

    made, errors = {}, []

    def run(fn):
        def target():
            try:
                fn()
            except Exception as exc:  # noqa: BLE001  (reported by the test below)
                errors.append(exc)
        thread = threading.Thread(target=target)
        thread.start()
        thread.join()

    mean, total = tv.keras.metrics.Mean(name="mean_a"), tv.keras.metrics.Sum(name="sum_b")
    run(lambda: made.update(a=mean([1.0, 3.0])))
    run(lambda: made.update(b=total([2.0, 5.0])))
    layer_a, layer_b = layers.Layer(), layers.Layer()
    run(lambda: layer_a.add_metric(made["a"]))
    run(lambda: layer_b.add_metric(made["b"]))
    assert errors == []
    assert (metric_of(made["a"]), metric_of(made["b"])) == (mean, total)
    assert (float(made["a"]), float(made["b"])) == (2.0, 7.0)


def test_an_unknown_compiled_loss_names_every_loss_known_by_name():
    import ast
    import re
    model = tv.keras.Sequential([layers.Dense(1, input_shape=(2,))])
    model.compile(optimizer="sgd", loss="hubr")
    with pytest.raises(ValueError, match="Unknown loss function: 'hubr'") as info:
        model.fit(np.ones((4, 2), np.float32), np.ones((4, 1), np.float32), verbose=0)
    listed = ast.literal_eval(re.search(r"use one of (\[.*?\])", str(info.value)).group(1))
    assert "huber" in listed                      # the name the user meant is offered
    for name in listed:                           # and every name offered is accepted
        assert callable(losses.get(name)), name
    with pytest.raises(ValueError, match="Known names"):
        losses.get("hubr")
