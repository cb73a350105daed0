"""Keras `fit` and `tf.data` beside the loops people write by hand, for benchmarks/run.py.

  E1  one epoch of W3's MLP (784-256-256-10, relu, sparse softmax cross-entropy from
      logits, SGD 0.1) over 2,048 samples in batches of 256, as a Keras model:
      `model.fit(x, y, batch_size=256, epochs=1, shuffle=False)` vs the hand-written loop
      of TensorFlow's "training loop from scratch" guide (NumPy slices, GradientTape, the
      same loss object and optimizer, a Mean metric of the loss, as fit reports)
  E2  one epoch of W3's step (tapeviz, GradientTape, as W3) over 2,048 samples fed by
      `tf.data.Dataset.from_tensor_slices((x, y)).shuffle(2048).batch(256)` vs by NumPy
      (a permutation, then fancy-index slices)

E1's two sides start from the same weights and are checked to make the same updates; E2's
cannot be (the two shuffles differ), so it is timed without a check.
"""
from __future__ import annotations

import numpy as np

import tapeviz as tv
import timing
from workloads import BATCH, LR, SIZES, mlp_data

EPOCH = 2048


def epoch_data(seed=0):
    rng = np.random.default_rng(seed + 1)
    x = rng.normal(size=(EPOCH, SIZES[0])).astype(np.float32)
    labels = rng.integers(0, SIZES[-1], size=EPOCH).astype(np.int32)
    return x, labels


def keras_mlp():
    """W3's MLP as a Keras Sequential model with W3's starting weights."""
    _, _, params = mlp_data()
    model = tv.keras.Sequential([tv.keras.layers.Dense(SIZES[1], activation="relu"),
                                 tv.keras.layers.Dense(SIZES[2], activation="relu"),
                                 tv.keras.layers.Dense(SIZES[3])])
    model.build((None, SIZES[0]))
    model.set_weights(params)
    return model


def _loss():
    return tv.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def fit_epoch():
    x, labels = epoch_data()
    model = keras_mlp()
    model.compile(optimizer=tv.keras.optimizers.SGD(learning_rate=LR), loss=_loss())

    def epoch():
        history = model.fit(x, labels, batch_size=BATCH, epochs=1, shuffle=False, verbose=0)
        return np.float32(history.history["loss"][0])
    epoch.check = timing.update_check(epoch, model.trainable_variables)
    return epoch


def loop_epoch():
    x, labels = epoch_data()
    model = keras_mlp()
    optimizer = tv.keras.optimizers.SGD(learning_rate=LR)
    loss_fn = _loss()
    loss_metric = tv.keras.metrics.Mean()

    def epoch():
        loss_metric.reset_states()
        for start in range(0, len(x), BATCH):
            x_batch, y_batch = x[start:start + BATCH], labels[start:start + BATCH]
            with tv.GradientTape() as tape:
                logits = model(x_batch, training=True)
                loss_value = loss_fn(y_batch, logits)
            grads = tape.gradient(loss_value, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            loss_metric.update_state(loss_value)
        return loss_metric.result()
    epoch.check = timing.update_check(epoch, model.trainable_variables)
    return epoch


def _w3_step():
    _, _, params_np = mlp_data()
    params = [tv.Variable(p) for p in params_np]
    opt = tv.keras.optimizers.SGD(learning_rate=LR)

    def step(x, labels):
        with tv.GradientTape() as tape:
            loss = timing.mlp_loss(tv, x, labels, params)
        grads = tape.gradient(loss, params)
        opt.apply_gradients(zip(grads, params))
        return loss
    return step


def dataset_epoch():
    x, labels = epoch_data()
    tv.random.set_seed(0)
    dataset = tv.data.Dataset.from_tensor_slices((x, labels)).shuffle(EPOCH).batch(BATCH)
    step = _w3_step()

    def epoch():
        for x_batch, y_batch in dataset:
            loss = step(x_batch, y_batch)
        return loss
    return epoch


def numpy_epoch():
    x, labels = epoch_data()
    rng = np.random.default_rng(0)
    step = _w3_step()

    def epoch():
        order = rng.permutation(EPOCH)
        for start in range(0, EPOCH, BATCH):
            idx = order[start:start + BATCH]
            loss = step(x[idx], labels[idx])
        return loss
    return epoch


FACTORIES = {
    "fit E1": fit_epoch,
    "loop E1": loop_epoch,
    "tf.data E2": dataset_epoch,
    "numpy E2": numpy_epoch,
}
