"""Keras's saving formats in tapeviz: `.h5` weights and whole models, `.weights.h5`,
`.keras` zips and tapeviz's SavedModel directory; files TensorFlow wrote (tests/saving/,
recorded by tests/saving/record.py under a Python with tensorflow-cpu and tf-keras) load with
TensorFlow's weights and predictions; bad files get TensorFlow's error classes."""
from __future__ import annotations

import numpy as np
import pytest

import tapeviz as tf

keras = tf.keras


def _model(units=4):
    model = keras.Sequential([keras.layers.Dense(units, activation="relu", input_shape=(3,)),
                              keras.layers.Dense(2)])
    for i, w in enumerate(model.weights):
        w.assign(np.linspace(-1, 1, int(np.prod(w.shape))).reshape(w.shape) * (i + 1))
    return model


X = np.linspace(-2, 2, 12).reshape(4, 3).astype("float32")


@pytest.mark.parametrize("name", ["w.h5", "w.hdf5", "w.weights.h5"])
def test_weights_round_trip_through_hdf5(tmp_path, name):
    model = _model()
    model.save_weights(tmp_path / name)
    fresh = keras.Sequential([keras.layers.Dense(4, activation="relu", input_shape=(3,)),
                              keras.layers.Dense(2)])
    fresh.load_weights(tmp_path / name)
    np.testing.assert_array_equal(fresh.predict(X, verbose=0), model.predict(X, verbose=0))


def test_legacy_h5_weights_are_in_keras_layout(tmp_path):
    import h5py
    model = _model()
    model.save_weights(tmp_path / "w.h5")
    with h5py.File(tmp_path / "w.h5", "r") as f:
        names = [_text(n) for n in f.attrs["layer_names"]]
        assert names == [layer.name for layer in model.layers]
        first = f[names[0]]
        assert [_text(n) for n in first.attrs["weight_names"]] == [
            names[0] + "/kernel:0", names[0] + "/bias:0"]
        assert first[names[0] + "/kernel:0"].shape == (3, 4)


def test_h5_weights_of_another_model_are_refused_unchanged(tmp_path):
    _model().save_weights(tmp_path / "w.h5")
    other = keras.Sequential([keras.layers.Dense(4, input_shape=(3,))])
    with pytest.raises(ValueError, match="Layer count mismatch"):
        other.load_weights(tmp_path / "w.h5")
    wider = _model(units=5)
    before = [w.numpy() for w in wider.weights]
    with pytest.raises(ValueError, match="Shape mismatch"):
        wider.load_weights(tmp_path / "w.h5")
    for w, b in zip(wider.weights, before):      # nothing half-loaded
        np.testing.assert_array_equal(w.numpy(), b)


def test_missing_and_corrupted_weight_files(tmp_path):
    model = _model()
    with pytest.raises(FileNotFoundError):
        model.load_weights(tmp_path / "nope.h5")
    bad = tmp_path / "bad.h5"
    bad.write_bytes(b"\x89HDF\r\n\x1a\ngarbage")
    with pytest.raises(OSError):
        model.load_weights(bad)


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value)
