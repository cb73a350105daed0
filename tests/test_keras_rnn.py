"""Recurrent layers as tapeviz sees them: gradients against finite differences, a recording
of an LSTM classifier's `fit` with its unrolled steps, explanations inside a step, dropout's
shape, and what only tapeviz refuses. Values and gradients are checked against TensorFlow in
tests/golden/programs/keras_recurrent_*.py."""
import doctest
import importlib

import numpy as np
import pytest

import tapeviz as tv

L = tv.keras.layers


@pytest.fixture(autouse=True)
def fresh_names():
    tv.keras.backend.clear_session()
    yield


def _weights(layer, scale=0.5):
    layer.set_weights([np.sin(np.arange(w.size) * 0.37 + i).reshape(w.shape) * scale
                       for i, w in enumerate(layer.get_weights())])


def _numeric_gradient(f, value, eps=1e-6):
    grad = np.zeros_like(value)
    for i in np.ndindex(value.shape):
        up, down = value.copy(), value.copy()
        up[i] += eps
        down[i] -= eps
        grad[i] = (f(up) - f(down)) / (2 * eps)
    return grad


X = np.cos(np.arange(2 * 4 * 3) * 0.8).reshape(2, 4, 3)
MASK = np.array([[True, True, False, False], [True, True, True, True]])


@pytest.mark.parametrize("make", [
    lambda: L.SimpleRNN(3, return_sequences=True, dtype="float64"),
    lambda: L.LSTM(3, dtype="float64"),
    lambda: L.LSTM(2, go_backwards=True, return_state=True, dtype="float64"),
    lambda: L.GRU(3, return_sequences=True, dtype="float64"),
    lambda: L.GRU(2, reset_after=False, dtype="float64"),
    lambda: L.Bidirectional(L.LSTM(2, return_sequences=True, dtype="float64"), merge_mode="mul",
                            dtype="float64"),
], ids=["simple_rnn", "lstm", "lstm_backwards_state", "gru", "gru_reset_before",
        "bidirectional"])
@pytest.mark.parametrize("masked", [False, True], ids=["dense", "masked"])
def test_gradients_match_finite_differences(make, masked):
    layer = make()
    layer(X)
    _weights(layer)
    mask = MASK if masked else None

    def loss_of(x, weights):
        layer.set_weights(weights)
        out = layer(x, mask=mask)
        flat = out if isinstance(out, list) else [out]
        return sum(tv.reduce_sum(o * np.sin(np.arange(o.shape.num_elements())).reshape(o.shape))
                   for o in flat)

    weights = layer.get_weights()
    x = tv.constant(X)
    with tv.GradientTape() as tape:
        tape.watch(x)
        loss = loss_of(x, weights)
    grads = tape.gradient(loss, [x] + layer.trainable_variables)
    numeric = [_numeric_gradient(lambda v: float(loss_of(v, weights)), X)]
    for k, w in enumerate(weights):
        def f(v, k=k):
            return float(loss_of(X, weights[:k] + [v] + weights[k + 1:]))
        numeric.append(_numeric_gradient(f, w))
    for g, n in zip(grads, numeric):
        np.testing.assert_allclose(g.numpy(), n, rtol=1e-5, atol=1e-7)


def test_a_masked_step_carries_output_and_state_through():
    layer = L.GRU(2, return_sequences=True, return_state=True)
    out, state = layer(X.astype(np.float32), mask=MASK)
    out = out.numpy()
    np.testing.assert_array_equal(out[0, 2], out[0, 1])     # masked: the previous output
    np.testing.assert_array_equal(out[0, 3], out[0, 1])
    np.testing.assert_array_equal(state.numpy()[0], out[0, 1])
    assert not np.array_equal(out[1, 2], out[1, 1])


def test_dropout_draws_one_mask_per_sequence_and_only_when_training():
    # a linear SimpleRNN with an identity kernel and no recurrence outputs the dropped input
    layer = L.SimpleRNN(3, activation=None, dropout=0.5, use_bias=False)
    x = np.ones((64, 5, 3), np.float32)
    seq = L.RNN(layer.cell, return_sequences=True)
    seq(x)
    layer.cell.set_weights([np.eye(3), np.zeros((3, 3))])
    np.testing.assert_array_equal(seq(x).numpy(), x)                  # inference: no dropout
    dropped = seq(x, training=True).numpy()
    assert set(np.unique(dropped)) == {0.0, 2.0}                      # scaled by 1 / (1 - rate)
    np.testing.assert_array_equal(dropped, np.repeat(dropped[:, :1], 5, axis=1))  # every step


def test_recurrent_dropout_draws_one_mask_per_sequence_for_the_state():
    # no input, an identity recurrence: h_t = (h_{t-1} · mask) @ I = h_0 · mask^t
    layer = L.SimpleRNN(4, activation=None, recurrent_dropout=0.5, use_bias=False,
                        return_sequences=True)
    x = np.zeros((16, 3, 1), np.float32)
    layer(x)
    layer.set_weights([np.zeros((1, 4)), np.eye(4)])
    h0 = [tv.ones((16, 4))]
    np.testing.assert_array_equal(layer(x, initial_state=h0).numpy(), np.ones((16, 3, 4)))
    out = layer(x, initial_state=h0, training=True).numpy()
    mask = out[:, 0]
    assert set(np.unique(mask)) == {0.0, 2.0}
    np.testing.assert_array_equal(out[:, 1], mask ** 2)
    np.testing.assert_array_equal(out[:, 2], mask ** 3)


def test_a_custom_cell_runs_as_in_keras_guide():
    class MinimalRNNCell(L.Layer):          # the Keras RNN guide's cell
        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units, self.state_size = units, units

        def build(self, input_shape):
            self.kernel = self.add_weight(shape=(input_shape[-1], self.units), name="kernel")
            self.recurrent_kernel = self.add_weight(shape=(self.units, self.units),
                                                    name="recurrent_kernel")

        def call(self, inputs, states):
            h = tv.matmul(inputs, self.kernel) + tv.matmul(states[0], self.recurrent_kernel)
            return h, [h]

    rnn = L.RNN(MinimalRNNCell(2))
    x = X.astype(np.float32)
    out = rnn(x).numpy()
    k, r = rnn.cell.kernel.numpy(), rnn.cell.recurrent_kernel.numpy()
    h = np.zeros((2, 2), np.float32)
    for t in range(4):
        h = x[:, t] @ k + h @ r
    np.testing.assert_allclose(out, h, rtol=1e-5)
    assert [v.name for v in rnn.weights] == ["rnn/minimal_rnn_cell/kernel:0",
                                             "rnn/minimal_rnn_cell/recurrent_kernel:0"]


def test_a_seq2seq_functional_model_passes_states_between_layers():
    enc_in, dec_in = tv.keras.Input(shape=(None, 3)), tv.keras.Input(shape=(None, 3))
    _, h, c = L.LSTM(4, return_state=True)(enc_in)
    dec = L.LSTM(4, return_sequences=True)(dec_in, initial_state=[h, c])
    model = tv.keras.Model([enc_in, dec_in], L.TimeDistributed(L.Dense(5))(dec))
    assert model.output_shape == (None, None, 5)
    assert model([X, X[:, :2]]).shape == (2, 2, 5)


def _classifier():
    return tv.keras.Sequential([L.Embedding(12, 4, mask_zero=True, name="emb"),
                                L.LSTM(3, name="lstm"), L.Dense(1, name="out")])


def test_a_recording_of_an_lstm_classifier_fit_shows_every_unrolled_step(tmp_path):
    from tapeviz.ui.store.source import store_for
    path = tmp_path / "lstm.tvz"
    ids = np.array([[3, 5, 2, 0], [7, 1, 0, 0], [4, 4, 9, 11], [2, 0, 0, 0]])
    with tv.record(path, full=True):
        model = _classifier()
        model.compile(optimizer="adam", loss=tv.keras.losses.BinaryCrossentropy(from_logits=True))
        model.fit(ids, np.array([1.0, 0.0, 1.0, 0.0]), batch_size=2, epochs=1, verbose=0)
    store = store_for(path)
    tapes = store.tape_ids()
    assert len(tapes) == 2
    for tid in tapes:
        ops = [node for node in store.graph(tid)["nodes"] if node["kind"] == "op"]
        steps = {node["scope"] for node in ops if "/step_" in (node["scope"] or "")}
        assert steps == {f"sequential/lstm/step_{t}" for t in range(4)}, steps
        for t in range(4):
            in_step = {n["label"] for n in ops if n["scope"] == f"sequential/lstm/step_{t}"}
            assert {"MatMul", "SplitV", "Sigmoid", "Tanh", "SelectV2"} <= in_step
    rows = {row["name"]: row for row in store.variables_rows()}
    for name in ("emb/embeddings:0", "lstm/lstm_cell/kernel:0",
                 "lstm/lstm_cell/recurrent_kernel:0", "lstm/lstm_cell/bias:0"):
        assert rows[name]["verdict"] == "value", name


def test_a_saturated_gate_is_explained_inside_the_unrolled_step():
    layer = L.SimpleRNN(2)
    x = tv.constant(np.full((1, 3, 2), 1.0, np.float32))
    layer(x)
    layer.set_weights([np.full((2, 2), 40.0), np.zeros((2, 2)), np.zeros(2)])
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(layer(x))
    (why,) = tape.explain(y, [layer.cell.kernel])
    assert why.cause == "saturated", str(why)


@pytest.mark.parametrize("make,fix", [
    (lambda: L.LSTM(2, stateful=True), "stateful=False"),
    (lambda: L.RNN([L.LSTMCell(2), L.LSTMCell(2)]), "stack recurrent layers"),
    (lambda: L.Bidirectional(L.Dense(2)), "Bidirectional(tf.keras.layers.LSTM"),
])
def test_what_tapeviz_does_not_imitate_is_refused_with_the_fix(make, fix):
    with pytest.raises(NotImplementedError) as err:
        make()
    assert "not supported by tapeviz" in str(err.value) and fix in str(err.value)


def test_a_mask_of_the_wrong_shape_names_both_shapes():
    with pytest.raises(ValueError, match=r"\(2, 4\).*\(2, 3\)"):
        L.LSTM(2)(X.astype(np.float32), mask=MASK[:, :3])


@pytest.mark.parametrize("module", ["tapeviz.keras.layers_recurrent",
                                    "tapeviz.keras.layers_wrappers", "tapeviz.keras.masking"])
def test_docstring_examples_run(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
