"""Keras's functional API and `fit` as tapeviz sees them: what the tape and a recording get.

(Values are checked against TensorFlow in tests/golden/programs/keras_f*.py; these tests check
what only tapeviz has: tapes, events and recordings.)
"""
import numpy as np
import pytest

import tapeviz as tv


@pytest.fixture(autouse=True)
def fresh_names():
    tv.keras.backend.clear_session()
    yield


def _mlp():
    inputs = tv.keras.Input(shape=(2,), name="x")
    hidden = tv.keras.layers.Dense(3, activation="tanh", name="hidden")(inputs)
    outputs = tv.keras.layers.Dense(1, name="out")(hidden)
    model = tv.keras.Model(inputs, outputs, name="mlp")
    model.set_weights([np.array([[0.4, -0.3, 0.2], [0.1, 0.5, -0.6]], np.float32),
                       np.array([0.0, 0.1, -0.1], np.float32),
                       np.array([[0.7], [-0.4], [0.3]], np.float32),
                       np.array([0.2], np.float32)])
    return model


X = np.stack([np.linspace(-1.0, 1.0, 10), np.cos(np.linspace(0.0, 3.0, 10))], axis=1)
Y = (0.5 * X[:, :1] - X[:, 1:] ** 2 + 0.3).astype(np.float32)


def test_fit_is_the_hand_written_gradient_tape_loop():
    fitted, by_hand = _mlp(), _mlp()
    fitted.compile(optimizer=tv.keras.optimizers.SGD(0.1), loss="mse")
    history = fitted.fit(X, Y, batch_size=4, epochs=3, shuffle=False, verbose=0)
    opt, loss_fn = tv.keras.optimizers.SGD(0.1), tv.keras.losses.MeanSquaredError()
    epoch_losses = []
    for _ in range(3):
        total = 0.0
        for start in range(0, 10, 4):
            x, y = tv.constant(X[start:start + 4], tv.float32), tv.constant(Y[start:start + 4])
            with tv.GradientTape() as tape:
                loss = loss_fn(y, by_hand(x, training=True))
            grads = tape.gradient(loss, by_hand.trainable_variables)
            opt.apply_gradients(zip(grads, by_hand.trainable_variables))
            total += float(loss) * len(x)
        epoch_losses.append(total / 10)
    for a, b in zip(fitted.get_weights(), by_hand.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    np.testing.assert_allclose(history.history["loss"], epoch_losses, rtol=1e-5)


def test_a_recording_of_fit_has_one_tape_per_step_with_the_layers_scopes(tmp_path):
    path = tmp_path / "fit.tvz"
    with tv.record(path, full=True):
        model = _mlp()          # built inside the recording: its symbolic calls send no op
        model.compile(optimizer="sgd", loss="mse")
        model.fit(X, Y, batch_size=4, epochs=2, verbose=0)
    rec = tv.load_recording(path)
    opened = rec.of("tape_opened")
    assert len(opened) == 2 * 3                       # 10 examples in batches of 4, 2 epochs
    assert len(rec.of("gradient_started")) == 2 * 3
    ops = rec.of("op_recorded")
    forward = [e for e in ops if e.tapes and e.backward_of is None]
    scopes = {e.scope for e in forward}
    assert {"mlp/hidden", "mlp/out"} <= scopes, scopes
    assert all(e.tapes for e in ops if e.scope.startswith("mlp")), \
        "a layer's op outside any tape: the symbolic calls leaked"


def test_building_a_functional_model_inside_a_tape_records_nothing_on_it():
    with tv.GradientTape() as tape:
        model = _mlp()
    assert tape.watched_variables() == ()
    x = tv.constant(X, tv.float32)
    with tv.GradientTape() as tape:
        y = model(x)
    assert [v.name for v in tape.watched_variables()] == [
        "hidden/kernel:0", "hidden/bias:0", "out/kernel:0", "out/bias:0"]
    assert all(g is not None for g in tape.gradient(y, model.trainable_variables))


def test_a_custom_train_step_runs_under_fit():
    class Halved(tv.keras.Model):
        def train_step(self, data):
            x, y = data
            with tv.GradientTape() as tape:
                loss = 0.5 * self.compiled_loss(y, self(x, training=True))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            self.compiled_metrics.update_state(y, self(x))
            return {m.name: m.result() for m in self.metrics}

    inputs = tv.keras.Input(shape=(2,))
    model = Halved(inputs, tv.keras.layers.Dense(1, kernel_initializer="zeros")(inputs))
    model.compile(optimizer=tv.keras.optimizers.SGD(0.2), loss="mse", metrics=["mae"])
    before = model.evaluate(X, Y, verbose=0)[0]
    history = model.fit(X, Y, batch_size=10, epochs=4, shuffle=False, verbose=0)
    assert sorted(history.history) == ["loss", "mae"]
    assert model.evaluate(X, Y, verbose=0)[0] < before


def test_shuffled_fit_repeats_under_set_seed():
    def run():
        tv.random.set_seed(3)
        model = _mlp()
        model.compile(optimizer=tv.keras.optimizers.SGD(0.1), loss="mse")
        return model.fit(X, Y, batch_size=3, epochs=2, verbose=0).history["loss"]

    first, second = run(), run()
    assert first == second
    model = _mlp()
    model.compile(optimizer=tv.keras.optimizers.SGD(0.1), loss="mse")
    unshuffled = model.fit(X, Y, batch_size=3, epochs=2, shuffle=False, verbose=0)
    assert unshuffled.history["loss"] != first        # the order did change


def test_fit_prints_one_line_per_epoch(capsys):
    model = _mlp()
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    model.fit(X, Y, batch_size=5, epochs=2, shuffle=False, verbose=2)
    lines = capsys.readouterr().out.splitlines()
    assert [line for line in lines if line.startswith("Epoch")] == ["Epoch 1/2", "Epoch 2/2"]
    assert sum("2/2 - " in line and "loss: " in line and "mae: " in line
               for line in lines) == 2


def test_numpy_on_a_symbolic_input_says_what_to_do():
    # tf.* functions on a KerasTensor make layers (tests/golden keras_functional_tf_functions);
    # NumPy cannot: the error names the input and says to use tf.* functions or a Lambda
    symbolic = tv.keras.Input(shape=(3,), name="features")
    with pytest.raises(TypeError, match=r"KerasTensor \(shape \(None, 3\).*'features'.*Lambda"):
        np.asarray(symbolic)
    assert list(tv.reduce_sum(symbolic, axis=1).shape) == [None]


def test_summary_rows_are_keras_s():
    # rows of TensorFlow's summary of the same models (tf-keras 2.21)
    seq = tv.keras.Sequential([tv.keras.Input(shape=(3,)), tv.keras.layers.Dense(4),
                               tv.keras.layers.Dense(1)])
    lines = []
    seq.summary(print_fn=lines.append)
    rows = [line.split() for line in lines[0].splitlines()]
    assert ["dense", "(Dense)", "(None,", "4)", "16"] in rows
    assert ["dense_1", "(Dense)", "(None,", "1)", "5"] in rows
    assert ["Total", "params:", "21"] in rows
    lines = []
    _mlp().summary(print_fn=lines.append)
    rows = [line.split() for line in lines[0].splitlines()]
    assert ["x", "(InputLayer)", "[(None,", "2)]", "0", "[]"] in rows
    assert ["hidden", "(Dense)", "(None,", "3)", "9", "['x[0][0]']"] in rows
    assert ["out", "(Dense)", "(None,", "1)", "4", "['hidden[0][0]']"] in rows


def test_shape_inference_sends_no_op_event(tmp_path):
    path = tmp_path / "build.tvz"
    with tv.record(path, full=True):
        tv.keras.Sequential([tv.keras.Input(shape=(3,)), tv.keras.layers.Flatten(),
                             tv.keras.layers.Lambda(lambda t: t * 2.0)])
        _mlp().summary(print_fn=lambda text: None)
    assert tv.load_recording(path).of("op_recorded") == []


def test_build_gets_a_tensor_shape_from_a_symbolic_input():
    class Scale(tv.keras.layers.Layer):
        def build(self, input_shape):
            assert input_shape.as_list() == [None, 3] and input_shape.rank == 2
            self.w = self.add_weight(name="w", shape=(input_shape[-1],), initializer="ones")

        def call(self, x):
            return x * self.w

    inputs = tv.keras.Input(shape=(3,))
    model = tv.keras.Model(inputs, Scale()(inputs))
    assert [v.name for v in model.weights] == ["scale/w:0"]


def test_functional_only_attributes_of_a_subclassed_model_say_so():
    class Plain(tv.keras.Model):
        def call(self, x):
            return x

    model = Plain()
    assert model.inputs is None and model.outputs is None
    for name in ("input", "output", "input_names", "output_names", "input_shape",
                 "output_shape"):
        with pytest.raises(AttributeError, match="has no inbound nodes.*Fix"):
            getattr(model, name)


def test_predict_on_no_examples_raises_tensorflow_s_value_error():
    with pytest.raises(ValueError, match="Expected input data to be non-empty.*Fix"):
        _mlp().predict(np.ones((0, 2)), verbose=0)
