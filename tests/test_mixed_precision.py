"""Mixed-precision models through saving: what TensorFlow 2.21 does with a model saved under
the 'mixed_float16' policy (checked by hand in a virtual environment with tensorflow-cpu:
the loaded layers keep their policy, and compiling under it wraps the optimizer in a
LossScaleOptimizer). The numbers themselves are checked against TensorFlow by the golden
program keras_mixed_precision."""
import numpy as np
import pytest

import tapeviz as tf

mp = tf.keras.mixed_precision


@pytest.fixture
def mixed_policy():
    mp.set_global_policy("mixed_float16")
    yield
    mp.set_global_policy("float32")


def _model():
    inputs = tf.keras.Input(shape=(3,))
    hidden = tf.keras.layers.Dense(4, activation="relu")(inputs)
    outputs = tf.keras.layers.Activation("softmax", dtype="float32")(
        tf.keras.layers.Dense(2)(hidden))
    model = tf.keras.Model(inputs, outputs)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    return model


@pytest.mark.parametrize("suffix", [".keras", ".h5"])
def test_a_saved_mixed_model_loads_with_its_policies_and_state(mixed_policy, tmp_path,
                                                                 suffix):
    tf.random.set_seed(1)
    model = _model()
    x = np.linspace(0, 1, 12, dtype=np.float32).reshape(4, 3)
    model.fit(x, np.array([0, 1, 0, 1]), verbose=0)
    path = str(tmp_path / ("model" + suffix))
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    assert [layer.dtype_policy.name for layer in loaded.layers[1:]] == \
        ["mixed_float16", "mixed_float16", "float32"]
    assert isinstance(loaded.optimizer, mp.LossScaleOptimizer)
    hidden = loaded.layers[1]
    assert hidden.kernel.dtype.name == "float32"
    assert tf.keras.Model(loaded.inputs, hidden.output)(x).dtype.name == "float16"
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
    # the inner optimizer's state is restored: one more step of each gives the same weights
    loaded.fit(x, np.array([0, 1, 0, 1]), verbose=0)
    model.fit(x, np.array([0, 1, 0, 1]), verbose=0)
    for a, b in zip(loaded.get_weights(), model.get_weights()):
        np.testing.assert_array_equal(a, b)
