"""tf.train.Checkpoint, CheckpointManager and Model.save_weights: a run resumed from a
checkpoint is the run that never stopped, and checkpoint files tapeviz did not write are
refused. (What the API returns is checked against TensorFlow in the golden program
checkpoint_api.)"""
import json
import os

import numpy as np
import pytest

import tapeviz as tf
from tapeviz.checkpoint_files import CheckpointFileError

X = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(8, 3)
Y = (X @ np.array([[0.5], [-1.0], [2.0]], np.float32) + 0.3).astype(np.float32)


def make_model():
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"),
                                 tf.keras.layers.Dense(1)])
    model(X[:1])
    weights = [np.full(w.shape, 0.1 * (i + 1), np.float32) + np.arange(w.size, dtype=np.float32)
               .reshape(w.shape) * 0.01 for i, w in enumerate(model.get_weights())]
    model.set_weights(weights)
    return model


def train(model, optimizer, steps):
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(X) - Y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        losses.append(float(loss))
    return losses


@pytest.mark.parametrize("optimizer", [lambda: tf.keras.optimizers.Adam(0.05),
                                       lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9),
                                       lambda: tf.keras.optimizers.RMSprop(0.01, momentum=0.5),
                                       lambda: tf.keras.optimizers.Nadam(0.05)],
                         ids=["adam", "sgd_momentum", "rmsprop", "nadam"])
def test_a_resumed_run_gives_the_losses_of_the_uninterrupted_run(tmp_path, optimizer):
    uninterrupted = train(make_model(), optimizer(), 5)

    model, opt = make_model(), optimizer()
    first = train(model, opt, 3)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=model, optimizer=opt),
                                         tmp_path, max_to_keep=1)
    manager.save()

    # a new process would build the model again; its weights differ until restored
    new_model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"),
                                     tf.keras.layers.Dense(1)])
    new_opt = optimizer()
    status = tf.train.Checkpoint(model=new_model, optimizer=new_opt).restore(
        tf.train.latest_checkpoint(tmp_path))
    rest = train(new_model, new_opt, 2)       # built by its first call, then restored
    status.assert_consumed()
    assert int(new_opt.iterations.numpy()) == 5
    np.testing.assert_array_equal(first + rest, uninterrupted)


def test_a_subclassed_model_gets_its_values_when_it_builds(tmp_path):
    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = tf.keras.layers.Dense(3)
            self.out = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.out(self.hidden(x))

    net = Net()
    net(X)
    path = tf.train.Checkpoint(net=net).write(str(tmp_path / "net"))
    fresh = Net()
    status = tf.train.Checkpoint(net=fresh).read(path)
    with pytest.raises(AssertionError, match="Unresolved object in checkpoint"):
        status.assert_consumed()               # nothing built yet: the values wait
    np.testing.assert_array_equal(fresh(X).numpy(), net(X).numpy())
    status.assert_consumed()


def test_save_weights_and_load_weights(tmp_path):
    model = make_model()
    model.save_weights(str(tmp_path / "w" / "model"))
    other = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"),
                                 tf.keras.layers.Dense(1)])
    other(X[:1])
    other.load_weights(str(tmp_path / "w" / "model")).assert_consumed()
    for a, b in zip(model.get_weights(), other.get_weights()):
        np.testing.assert_array_equal(a, b)
    assert tf.train.latest_checkpoint(str(tmp_path / "w")) == str(tmp_path / "w" / "model")
    model.save_weights(str(tmp_path / "model.h5"))      # Keras's HDF5 layout (test_saving.py)
    assert (tmp_path / "model.h5").read_bytes()[:4] == b"\x89HDF"
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files"):
        other.load_weights(str(tmp_path / "missing"))


def saved(tmp_path):
    return tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).write(str(tmp_path / "c"))


def test_an_object_array_in_the_data_file_is_refused(tmp_path):
    path = saved(tmp_path)
    with open(path + ".data.npz", "wb") as f:     # what an attacker's pickle payload needs
        np.savez(f, a0=np.array([{"x": 1}, None], dtype=object))
    with pytest.raises(CheckpointFileError, match="only arrays of numbers"):
        tf.train.Checkpoint(v=tf.Variable([0.0, 0.0])).restore(path)


@pytest.mark.parametrize("array", ["../../etc/passwd", "/etc/passwd", "a0/../a1"])
def test_an_index_naming_a_file_is_refused(tmp_path, array):
    path = saved(tmp_path)
    index = json.loads(open(path + ".index.json").read())
    index["values"][0]["array"] = array
    open(path + ".index.json", "w").write(json.dumps(index))
    with pytest.raises(CheckpointFileError, match="never a file"):
        tf.train.Checkpoint(v=tf.Variable([0.0, 0.0])).restore(path)


@pytest.mark.parametrize("name", ["../outside/ckpt-1", "/etc/ckpt-1"])
def test_a_state_file_leading_out_of_its_directory_is_refused(tmp_path, name):
    (tmp_path / "checkpoint").write_text(f"model_checkpoint_path: {json.dumps(name)}\n")
    with pytest.raises(CheckpointFileError, match="not a checkpoint in that directory"):
        tf.train.latest_checkpoint(str(tmp_path))


def test_a_tensorflow_checkpoint_is_named_as_such(tmp_path):
    (tmp_path / "ckpt-1.index").write_bytes(b"\x00binary table")
    (tmp_path / "ckpt-1.data-00000-of-00001").write_bytes(b"\x00")
    with pytest.raises(tf.errors.UnimplementedError, match="is a TensorFlow checkpoint"):
        tf.train.Checkpoint(v=tf.Variable(1.0)).restore(str(tmp_path / "ckpt-1"))


def test_an_index_that_is_not_json_is_refused(tmp_path):
    path = saved(tmp_path)
    open(path + ".index.json", "wb").write(b"\x80\x04K\x01.")     # a pickle
    with pytest.raises(CheckpointFileError, match="not a tapeviz checkpoint index"):
        tf.train.Checkpoint(v=tf.Variable([0.0, 0.0])).restore(path)
    assert os.path.exists(path + ".data.npz")
