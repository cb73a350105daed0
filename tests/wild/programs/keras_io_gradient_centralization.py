# After: https://keras.io/examples/vision/gradient_centralization/ (the tf.keras version:
# images rescaled by 1/255 in tf.data, GCRMSprop subclassing RMSprop with a
# get_gradients that centralizes each gradient of rank > 1, the Sequential of five
# Conv2D/MaxPooling2D pairs, Flatten and two Dense layers, a TimeHistory callback, the
# model compiled and fit with RMSprop(1e-4), then compiled and fit again with GCRMSprop)
# Adapted: 8 seeded synthetic 94x94 RGB images (the smallest size the five conv/pool
# stages keep positive) in one tf.data batch instead of horses_or_humans at 300x300, 2
# epochs instead of 10 per fit; fixed weights; prepare()'s resize, shuffle and random
# augmentation and the Dropout(0.5) layers left out (their random draws differ between
# libraries).
from time import time

import numpy as np
import tensorflow as tf
from tensorflow.keras import layers
from tensorflow.keras import models
from tensorflow.keras.optimizers import RMSprop
from tensorflow.keras import callbacks
from adapt import data, fixed_weights

batch_size = 8
input_shape = (94, 94, 3)


class GCRMSprop(RMSprop):
    def get_gradients(self, loss, params):
        # We here just provide a modified get_gradients() function since we are
        # trying to just compute the centralized gradients.

        grads = []
        gradients = super().get_gradients()
        for grad in gradients:
            grad_len = len(grad.shape)
            if grad_len > 1:
                axis = list(range(grad_len - 1))
                grad -= tf.reduce_mean(grad, axis=axis, keep_dims=True)
            grads.append(grad)

        return grads


class TimeHistory(callbacks.Callback):
    def on_train_begin(self, logs={}):
        self.times = []

    def on_epoch_begin(self, batch, logs={}):
        self.epoch_time_start = time()

    def on_epoch_end(self, batch, logs={}):
        self.times.append(time() - self.epoch_time_start)


def main():
    images = np.round(data(1, batch_size, *input_shape, low=0, high=255))
    labels = (data(2, batch_size) > 0).astype(np.int64)
    rescale = layers.Rescaling(1.0 / 255)
    train_ds = tf.data.Dataset.from_tensor_slices((images, labels)).batch(batch_size)
    train_ds = train_ds.map(lambda x, y: (rescale(x), y), num_parallel_calls=tf.data.AUTOTUNE)

    optimizer = GCRMSprop(learning_rate=1e-4)

    model = models.Sequential(
        [
            layers.Input(shape=input_shape),
            layers.Conv2D(16, (3, 3), activation="relu"),
            layers.MaxPooling2D(2, 2),
            layers.Conv2D(32, (3, 3), activation="relu"),
            layers.MaxPooling2D(2, 2),
            layers.Conv2D(64, (3, 3), activation="relu"),
            layers.MaxPooling2D(2, 2),
            layers.Conv2D(64, (3, 3), activation="relu"),
            layers.MaxPooling2D(2, 2),
            layers.Conv2D(64, (3, 3), activation="relu"),
            layers.MaxPooling2D(2, 2),
            layers.Flatten(),
            layers.Dense(512, activation="relu"),
            layers.Dense(1, activation="sigmoid"),
        ]
    )
    fixed_weights(model.trainable_variables, seed=3, scale=0.1)

    model.compile(loss="binary_crossentropy", optimizer=RMSprop(learning_rate=1e-4), metrics=["accuracy"])
    model.summary()

    time_callback_no_gc = TimeHistory()
    history_no_gc = model.fit(
        train_ds, epochs=2, verbose=1, callbacks=[time_callback_no_gc]
    )

    model.compile(loss="binary_crossentropy", optimizer=optimizer, metrics=["accuracy"])
    model.summary()

    time_callback_gc = TimeHistory()
    history_gc = model.fit(train_ds, epochs=2, verbose=1, callbacks=[time_callback_gc])
    return {"history_no_gc": history_no_gc.history, "history_gc": history_gc.history,
            "epochs_timed": [len(time_callback_no_gc.times), len(time_callback_gc.times)],
            "dense_bias": model.layers[-1].bias}
