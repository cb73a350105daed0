"""Keras's saving formats in tapeviz: `.h5` weights and whole models, `.weights.h5`,
`.keras` zips and tapeviz's SavedModel directory; files TensorFlow wrote (tests/saving/,
recorded by tests/saving/record.py under a Python with tensorflow-cpu and tf-keras) load with
TensorFlow's weights and predictions; bad files get TensorFlow's error classes."""
from __future__ import annotations

import importlib.util
import json
import os
import zipfile

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


# --- files TensorFlow wrote ---------------------------------------------------------------------
SAVED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "saved_models")


def _recorder():
    """tests/golden/saved_models/record.py by its path (it builds the models it recorded)."""
    spec = importlib.util.spec_from_file_location("saved_models_record",
                                                  os.path.join(SAVED, "record.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RECORD = _recorder()
with open(os.path.join(SAVED, "answers.json"), encoding="utf-8") as _f:
    ANSWERS = json.load(_f)
MODELS = sorted(k for k in ANSWERS if k != "tensorflow_version")


def _close(actual, expected, rtol=1e-4, atol=1e-6):
    np.testing.assert_allclose(np.asarray(actual, dtype="float64"), np.asarray(expected),
                               rtol=rtol, atol=atol)


@pytest.mark.parametrize("kind", ["keras", "h5"])
@pytest.mark.parametrize("name", MODELS)
def test_load_model_reads_tensorflows_file(name, kind):
    """Same predictions as TensorFlow, and after one more step of the restored optimizer the
    same predictions as TensorFlow's loaded model (Adam's moments and step count came back)."""
    _, inputs, targets = RECORD.build_models(tf)[name]
    model = keras.models.load_model(os.path.join(RECORD.FILES, name + RECORD.SUFFIXES[kind]))
    _close(RECORD.predict(model, inputs), ANSWERS[name]["predict"])
    RECORD.train_step(model, inputs, targets)
    _close(RECORD.predict(model, inputs), ANSWERS[name]["after_step_" + kind], 1e-3, 1e-5)


@pytest.mark.parametrize("kind", ["weights_h5", "weights_v3"])
@pytest.mark.parametrize("name", MODELS)
def test_load_weights_reads_tensorflows_file(name, kind):
    model, inputs, _ = RECORD.build_models(tf)[name]
    model.load_weights(os.path.join(RECORD.FILES, name + RECORD.SUFFIXES[kind]))
    _close(RECORD.predict(model, inputs), ANSWERS[name]["predict"])


@pytest.mark.parametrize("suffix", [".keras", ".h5", ""])
@pytest.mark.parametrize("name", MODELS)
def test_a_saved_model_loads_back_the_same(tmp_path, name, suffix):
    model, inputs, targets = RECORD.build_models(tf)[name]
    RECORD.train_step(model, inputs, targets)
    path = str(tmp_path / ("model" + suffix))
    model.save(path)
    loaded = keras.models.load_model(path)
    assert [layer.name for layer in loaded.layers] == [layer.name for layer in model.layers]
    np.testing.assert_array_equal(RECORD.predict(loaded, inputs), RECORD.predict(model, inputs))
    if not suffix:       # a SavedModel comes back with a fresh optimizer, as in tf-keras
        assert int(loaded.optimizer.iterations.numpy()) == 0
        return
    assert int(loaded.optimizer.iterations.numpy()) == int(model.optimizer.iterations.numpy())
    RECORD.train_step(model, inputs, targets)
    RECORD.train_step(loaded, inputs, targets)
    np.testing.assert_allclose(RECORD.predict(loaded, inputs), RECORD.predict(model, inputs),
                               rtol=1e-6)


# --- bad input ----------------------------------------------------------------------------------
def _rewrite_config(src, dst, edit):
    with zipfile.ZipFile(src) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    config = json.loads(parts["config.json"])
    edit(config)
    parts["config.json"] = json.dumps(config)
    with zipfile.ZipFile(dst, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)


def test_missing_and_corrupted_model_files(tmp_path):
    for name in ("nope.keras", "nope.h5", "nope"):
        with pytest.raises(OSError, match="No file or directory found at"):
            keras.models.load_model(tmp_path / name)
    for name, data in (("bad.keras", b"PK\x03\x04garbage"), ("bad.h5", b"\x89HDF\r\n\x1a\n.."),
                       ("text.keras", b"hello")):
        (tmp_path / name).write_bytes(data)
        with pytest.raises(OSError):
            keras.models.load_model(tmp_path / name)


def test_weights_only_h5_is_not_a_model(tmp_path):
    _model().save_weights(tmp_path / "w.h5")
    with pytest.raises(ValueError, match="No model config found.*load_weights"):
        keras.models.load_model(tmp_path / "w.h5")


def test_unknown_layer_class_is_named_with_the_fix(tmp_path):
    src = os.path.join(RECORD.FILES, "series.keras")

    def rename(config):
        config["config"]["layers"][1]["class_name"] = "NoSuchLayer"
    _rewrite_config(src, tmp_path / "unknown.keras", rename)
    with pytest.raises(TypeError, match="Unknown layer: 'NoSuchLayer'.*custom_objects"):
        keras.models.load_model(tmp_path / "unknown.keras")


def test_a_config_never_imports_the_module_it_names(tmp_path, monkeypatch):
    """A file naming `os.system` (or any module) gets a lookup among known classes only."""
    src = os.path.join(RECORD.FILES, "series.keras")

    def evil(config):
        config["config"]["layers"][1].update(module="os", class_name="system",
                                             registered_name="system")
    _rewrite_config(src, tmp_path / "evil.keras", evil)
    imported = []
    real_import = __builtins__["__import__"] if isinstance(__builtins__, dict) else \
        __builtins__.__import__

    def spy(name, *args, **kwargs):
        imported.append(name)
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr("builtins.__import__", spy)
    with pytest.raises(TypeError, match="Unknown layer: 'system'"):
        keras.models.load_model(tmp_path / "evil.keras")
    monkeypatch.undo()
    assert "os" not in imported


class Scale(keras.layers.Layer):
    def __init__(self, factor, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def call(self, inputs):
        return inputs * self.factor


def _custom_model():
    x = keras.Input(shape=(3,))
    return keras.Model(x, keras.layers.Dense(2)(Scale(2.5)(x)))


def test_custom_layers_come_from_custom_objects_or_the_registry(tmp_path):
    model = _custom_model()
    model.save(tmp_path / "custom.keras")
    with pytest.raises(TypeError, match="Unknown layer: 'Scale'"):
        keras.models.load_model(tmp_path / "custom.keras")
    loaded = keras.models.load_model(tmp_path / "custom.keras", custom_objects={"Scale": Scale})
    np.testing.assert_array_equal(loaded.predict(X, verbose=0), model.predict(X, verbose=0))
    assert loaded.layers[1].factor == 2.5

    @keras.utils.register_keras_serializable(package="tests")
    class Shift(keras.layers.Layer):
        def __init__(self, by=1.0, **kwargs):
            super().__init__(**kwargs)
            self.by = by

        def call(self, inputs):
            return inputs + self.by
    x = keras.Input(shape=(3,))
    shifted = keras.Model(x, Shift(by=-1.5)(x))
    shifted.save(tmp_path / "shift.keras")
    loaded = keras.models.load_model(tmp_path / "shift.keras")
    np.testing.assert_array_equal(loaded.predict(X, verbose=0), X - 1.5)


class Net(keras.Model):
    def __init__(self, width=3, **kwargs):
        super().__init__(**kwargs)
        self.width = width
        self.hidden = keras.layers.Dense(width, activation="relu")
        self.out = keras.layers.Dense(2)

    def call(self, inputs):
        return self.out(self.hidden(inputs))


class NetWithConfig(Net):
    def get_config(self):
        return {"width": self.width, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Table(keras.Model):
    def __init__(self, table):
        super().__init__()
        self.table = table

    def call(self, inputs):
        return inputs * self.table


def test_a_subclassed_model_saves_with_its_arguments_or_its_config(tmp_path):
    """As tf-keras: JSON arguments are the config; a .keras file names an unknown class with
    TypeError; an argument that is not data is refused before anything is written."""
    net = Net(width=4)
    expected = net.predict(X, verbose=0)
    net.save(tmp_path / "net.keras")
    with pytest.raises(TypeError, match="Unknown layer: 'Net'"):
        keras.models.load_model(tmp_path / "net.keras")
    loaded = keras.models.load_model(tmp_path / "net.keras", custom_objects={"Net": Net})
    assert loaded.width == 4
    np.testing.assert_array_equal(loaded.predict(X, verbose=0), expected)
    net = NetWithConfig(width=5)
    expected = net.predict(X, verbose=0)
    net.save(tmp_path / "config.keras")
    loaded = keras.models.load_model(tmp_path / "config.keras",
                                     custom_objects={"NetWithConfig": NetWithConfig})
    np.testing.assert_array_equal(loaded.predict(X, verbose=0), expected)
    table = Table(np.ones(3, "float32"))
    table(X)
    with pytest.raises(NotImplementedError, match="table=.*get_config.*save_weights"):
        table.save(tmp_path / "table.keras")
    assert not (tmp_path / "table.keras").exists()


def test_tensorflows_saved_model_directory_is_refused_with_the_fix(tmp_path):
    folder = tmp_path / "tf_saved_model"
    folder.mkdir()
    (folder / "saved_model.pb").write_bytes(b"\x08\x01")
    with pytest.raises(OSError, match="TensorFlow wrote.*model.save\\('model.keras'\\)"):
        keras.models.load_model(folder)


def test_model_checkpoint_saves_whole_models_each_epoch(tmp_path):
    model = _model()
    model.compile(optimizer="sgd", loss="mse")
    path = str(tmp_path / "m-{epoch}.keras")
    model.fit(X, np.ones((4, 2)), epochs=2, verbose=0,
              callbacks=[keras.callbacks.ModelCheckpoint(path)])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m-1.keras", "m-2.keras"]
    loaded = keras.models.load_model(tmp_path / "m-2.keras")
    np.testing.assert_array_equal(loaded.predict(X, verbose=0), model.predict(X, verbose=0))


class WithInitializer(keras.layers.Layer):
    """A custom layer as Keras's guides write one: its own get_config, Keras's from_config."""

    def __init__(self, units=2, initializer="he_normal", **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.initializer = keras.initializers.get(initializer)

    def build(self, input_shape):
        self.w = self.add_weight(name="w", shape=(input_shape[-1], self.units),
                                 initializer=self.initializer)

    def call(self, inputs):
        return tf.matmul(inputs, self.w)

    def get_config(self):
        return dict(super().get_config(), units=self.units,
                    initializer=keras.initializers.serialize(self.initializer))


def test_a_custom_get_config_with_a_serialized_initializer_loads(tmp_path):
    model = keras.Sequential([keras.Input(shape=(3,)), WithInitializer(4),
                              keras.Sequential([keras.layers.Dense(2)], name="inner")])
    expected = model.predict(X, verbose=0)
    model.save(tmp_path / "custom.keras")
    loaded = keras.models.load_model(tmp_path / "custom.keras",
                                     custom_objects={"WithInitializer": WithInitializer})
    assert type(loaded.layers[0].initializer).__name__ == "HeNormal"
    assert isinstance(loaded.layers[1], keras.Sequential)
    np.testing.assert_array_equal(loaded.predict(X, verbose=0), expected)


def test_a_zip_layout_file_named_h5_gets_a_clear_error(tmp_path):
    _model().save_weights(tmp_path / "w.weights.h5")
    (tmp_path / "w.weights.h5").rename(tmp_path / "w.h5")
    with pytest.raises(ValueError, match="not Keras's HDF5 weights layout.*weights.h5"):
        _model().load_weights(tmp_path / "w.h5")


def test_the_saving_namespace_is_tf_keras_saving(tmp_path):
    model = _model()
    keras.saving.save_model(model, tmp_path / "m.keras")
    loaded = keras.saving.load_model(tmp_path / "m.keras")
    np.testing.assert_array_equal(loaded.predict(X, verbose=0), model.predict(X, verbose=0))
    assert keras.saving.register_keras_serializable is keras.utils.register_keras_serializable


def test_a_model_of_layers_shared_with_another_model_saves_its_own_calls(tmp_path):
    """The inference model of a seq2seq (keras.io's lstm_seq2seq): its LSTM was first called
    in the training model, so in its own config that call is node 0, not 1."""
    encoder = keras.layers.Dense(3, activation="tanh")
    x = keras.Input(shape=(3,))
    keras.Model(x, encoder(x))                     # the first model's call: node 0
    y = keras.Input(shape=(3,))
    second = keras.Model(y, keras.layers.Dense(2)(encoder(y)))
    expected = second.predict(X, verbose=0)
    second.save(tmp_path / "second.keras")
    loaded = keras.models.load_model(tmp_path / "second.keras")
    np.testing.assert_array_equal(loaded.predict(X, verbose=0), expected)


def test_an_optimizer_with_a_schedule_comes_back_with_it(tmp_path):
    model = _model()
    schedule = keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=2, decay_rate=0.5)
    model.compile(optimizer=keras.optimizers.SGD(schedule, momentum=0.9), loss="mse")
    model.fit(X, np.ones((4, 2)), epochs=3, verbose=0)
    model.save(tmp_path / "m.keras")
    loaded = keras.models.load_model(tmp_path / "m.keras")
    assert type(loaded.optimizer._learning_rate).__name__ == "ExponentialDecay"
    assert loaded.optimizer.momentum == 0.9
    for m in (model, loaded):
        m.fit(X, np.ones((4, 2)), epochs=1, verbose=0)
    np.testing.assert_allclose(loaded.predict(X, verbose=0), model.predict(X, verbose=0),
                               rtol=1e-6)


@pytest.mark.parametrize("save_format", [None, "tf", "tensorflow"])
def test_weights_without_suffix_are_tapevizs_checkpoint(tmp_path, save_format):
    model = _model()
    model.save_weights(tmp_path / "ckpt", save_format=save_format)
    fresh = _model(units=4)
    for w in fresh.weights:
        w.assign(np.zeros(w.shape, "float32"))
    fresh.load_weights(tmp_path / "ckpt")
    np.testing.assert_array_equal(fresh.predict(X, verbose=0), model.predict(X, verbose=0))


@pytest.mark.parametrize("suffix", ["keras", "h5"])
def test_layers_with_numpy_settings_round_trip(tmp_path, suffix):
    # ReLU keeps max_value/negative_slope/threshold as floatx NumPy scalars, as tf-keras, and
    # its config is written as JSON numbers
    model = keras.Sequential([keras.layers.Dense(4, input_shape=(3,)),
                              keras.layers.ReLU(max_value=1.5, negative_slope=0.1),
                              keras.layers.Permute((1,)), keras.layers.ELU(0.5),
                              keras.layers.GaussianNoise(0.2)])
    path = str(tmp_path / f"m.{suffix}")
    model.save(path)
    loaded = keras.models.load_model(path)
    assert [type(layer).__name__ for layer in loaded.layers] == \
        ["Dense", "ReLU", "Permute", "ELU", "GaussianNoise"]
    assert float(loaded.layers[1].max_value) == 1.5
    np.testing.assert_allclose(loaded(X).numpy(), model(X).numpy(), rtol=1e-6)
