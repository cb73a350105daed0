"""Convolutional models as tapeviz sees them: a recording of a CNN's `fit` opens in the
dashboard's store with one tape per step, and what only tapeviz has (stand-in calls, error
texts). Values and gradients are checked against TensorFlow in
tests/golden/programs/keras_cnn_training.py, keras_conv_layers.py and nn_conv_pool.py."""
import numpy as np
import pytest

import tapeviz as tv


@pytest.fixture(autouse=True)
def fresh_names():
    tv.keras.backend.clear_session()
    yield


def _cnn():
    layers = tv.keras.layers
    return tv.keras.Sequential([tv.keras.Input(shape=(6, 6, 1)),
                                layers.Conv2D(2, 3, name="conv"),
                                layers.BatchNormalization(name="bn"),
                                layers.MaxPooling2D(name="pool"),
                                layers.Flatten(name="flat"),
                                layers.Dense(3, name="dense")], name="cnn")


def test_a_recording_of_a_cnn_fit_opens_with_one_tape_per_step(tmp_path):
    from tapeviz.ui.store.source import store_for
    path = tmp_path / "cnn.tvz"
    rng = np.random.default_rng(0)
    with tv.record(path, full=True):       # every step's tape (not a flight recording)
        model = _cnn()
        model.compile(optimizer="sgd",
                      loss=tv.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        model.fit(rng.normal(size=(8, 6, 6, 1)), np.arange(8) % 3, batch_size=4, epochs=2,
                  verbose=0)
    store = store_for(path)
    tapes = store.tape_ids()
    assert len(tapes) == 2 * 2                        # 8 images in batches of 4, 2 epochs
    for tid in tapes:
        calls = store.calls_for(tid)
        assert len(calls) == 1
        backward_ops = {step["op"] for step in store.calls[calls[0]]["steps"]}
        assert {"Conv2D", "MaxPool", "MatMul", "SparseSoftmaxCrossEntropyWithLogits"} <= \
            backward_ops
        drawn = {node.get("label") for node in store.graph(tid)["nodes"] if node["kind"] == "op"}
        assert {"Conv2D", "MaxPool"} <= drawn
    rows = {row["name"]: row for row in store.variables_rows()}
    for name in ("conv/kernel:0", "conv/bias:0", "bn/gamma:0", "bn/beta:0", "dense/kernel:0"):
        assert rows[name]["trainable"] == "yes" and rows[name]["verdict"] == "value", name
    assert rows["bn/moving_mean:0"]["trainable"] == "no"


def test_the_functional_api_s_stand_in_calls_leave_the_moving_statistics_alone():
    inputs = tv.keras.Input(shape=(4,))
    bn = tv.keras.layers.BatchNormalization(momentum=0.5)
    outputs = bn(inputs, training=True)         # run on stand-in zeros to learn the shape
    model = tv.keras.Model(inputs, outputs)
    np.testing.assert_array_equal(bn.moving_mean.numpy(), np.zeros(4))
    np.testing.assert_array_equal(bn.moving_variance.numpy(), np.ones(4))
    model(np.full((2, 4), 3.0, np.float32))     # a real call: this one trains
    np.testing.assert_allclose(bn.moving_mean.numpy(), np.full(4, 1.5))


def test_a_conv2d_on_the_wrong_channels_names_both_shapes_and_the_fix():
    with pytest.raises(tv.errors.InvalidArgumentError) as err:
        tv.nn.conv2d(tv.ones((1, 5, 5, 3)), tv.ones((3, 3, 2, 4)), 1, "VALID")
    text = str(err.value)
    assert "Conv2D" in text and "(1, 5, 5, 3)" in text and "(3, 3, 2, 4)" in text
    assert "Fix:" in text
