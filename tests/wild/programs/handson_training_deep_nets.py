# After: https://github.com/ageron/handson-ml2 (11_training_deep_neural_networks.ipynb:
# LeakyReLU and PReLU layers after he_normal Dense layers; Batch Normalization, before the
# activation with use_bias=False; gradient clipping by clipvalue and clipnorm; exponential
# scheduling with LearningRateScheduler; ExponentialDecay as the SGD learning rate;
# ExponentialLearningRate and OneCycleScheduler callbacks reading and setting
# model.optimizer.learning_rate with keras.backend get_value/set_value; l2 regularization
# with functools.partial(Dense) compiled with "nadam"; max-norm with
# keras.constraints.max_norm)
# Adapted: 32 training and 16 validation seeded synthetic 28x28 images instead of Fashion
# MNIST (pixel means and stds computed the book's way), 2 epochs instead of 10 to 25 (batch
# 32 covers the training data, so fit's shuffle cannot change a step); fixed weights.
from functools import partial

import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import data, fixed_weights, labels

K = keras.backend


def exponential_decay(lr0, s):
    def exponential_decay_fn(epoch):
        return lr0 * 0.1**(epoch / s)
    return exponential_decay_fn


class ExponentialLearningRate(keras.callbacks.Callback):
    def __init__(self, factor):
        self.factor = factor
        self.rates = []
        self.losses = []
    def on_batch_end(self, batch, logs):
        self.rates.append(K.get_value(self.model.optimizer.learning_rate))
        self.losses.append(logs["loss"])
        K.set_value(self.model.optimizer.learning_rate, self.model.optimizer.learning_rate * self.factor)


class OneCycleScheduler(keras.callbacks.Callback):
    def __init__(self, iterations, max_rate, start_rate=None,
                 last_iterations=None, last_rate=None):
        self.iterations = iterations
        self.max_rate = max_rate
        self.start_rate = start_rate or max_rate / 10
        self.last_iterations = last_iterations or iterations // 10 + 1
        self.half_iteration = (iterations - self.last_iterations) // 2
        self.last_rate = last_rate or self.start_rate / 1000
        self.iteration = 0
    def _interpolate(self, iter1, iter2, rate1, rate2):
        return ((rate2 - rate1) * (self.iteration - iter1)
                / (iter2 - iter1) + rate1)
    def on_batch_begin(self, batch, logs):
        if self.iteration < self.half_iteration:
            rate = self._interpolate(0, self.half_iteration, self.start_rate, self.max_rate)
        elif self.iteration < 2 * self.half_iteration:
            rate = self._interpolate(self.half_iteration, 2 * self.half_iteration,
                                     self.max_rate, self.start_rate)
        else:
            rate = self._interpolate(2 * self.half_iteration, self.iterations,
                                     self.start_rate, self.last_rate)
        self.iteration += 1
        K.set_value(self.model.optimizer.learning_rate, rate)


def main():
    out = {}
    X_train_full = np.round(data(1, 48, 28, 28, low=0, high=255))
    y_train_full = labels(2, 48, 10)
    X_train_full = X_train_full / 255.0
    X_valid, X_train = X_train_full[:16], X_train_full[16:]
    y_valid, y_train = y_train_full[:16], y_train_full[16:]
    pixel_means = X_train.mean(axis=0, keepdims=True)
    pixel_stds = X_train.std(axis=0, keepdims=True)
    X_train_scaled = (X_train - pixel_means) / pixel_stds
    X_valid_scaled = (X_valid - pixel_means) / pixel_stds

    tf.random.set_seed(42)
    np.random.seed(42)

    model = keras.models.Sequential([
        keras.layers.Flatten(input_shape=[28, 28]),
        keras.layers.Dense(300, kernel_initializer="he_normal"),
        keras.layers.LeakyReLU(),
        keras.layers.Dense(100, kernel_initializer="he_normal"),
        keras.layers.LeakyReLU(),
        keras.layers.Dense(10, activation="softmax")
    ])
    fixed_weights(model.trainable_variables, seed=3, scale=0.1)
    model.compile(loss="sparse_categorical_crossentropy",
                  optimizer=keras.optimizers.SGD(learning_rate=1e-3),
                  metrics=["accuracy"])
    history = model.fit(X_train, y_train, epochs=2,
                        validation_data=(X_valid, y_valid))
    out["leaky_relu"] = history.history

    model = keras.models.Sequential([
        keras.layers.Flatten(input_shape=[28, 28]),
        keras.layers.Dense(300, kernel_initializer="he_normal"),
        keras.layers.PReLU(),
        keras.layers.Dense(100, kernel_initializer="he_normal"),
        keras.layers.PReLU(),
        keras.layers.Dense(10, activation="softmax")
    ])
    fixed_weights(model.trainable_variables, seed=4, scale=0.1)
    model.compile(loss="sparse_categorical_crossentropy",
                  optimizer=keras.optimizers.SGD(learning_rate=1e-3),
                  metrics=["accuracy"])
    history = model.fit(X_train, y_train, epochs=2,
                        validation_data=(X_valid, y_valid))
    out["prelu"] = history.history

    model = keras.models.Sequential([
        keras.layers.Flatten(input_shape=[28, 28]),
        keras.layers.BatchNormalization(),
        keras.layers.Dense(300, use_bias=False),
        keras.layers.BatchNormalization(),
        keras.layers.Activation("relu"),
        keras.layers.Dense(100, use_bias=False),
        keras.layers.BatchNormalization(),
        keras.layers.Activation("relu"),
        keras.layers.Dense(10, activation="softmax")
    ])
    fixed_weights([model.layers[2].kernel, model.layers[5].kernel, model.layers[8].kernel], seed=5, scale=0.1)
    out["bn_variables"] = [(var.name, var.trainable) for var in model.layers[1].variables]
    model.compile(loss="sparse_categorical_crossentropy",
                  optimizer=keras.optimizers.SGD(learning_rate=1e-3),
                  metrics=["accuracy"])
    history = model.fit(X_train, y_train, epochs=2,
                        validation_data=(X_valid, y_valid))
    out["bn_before_activation"] = history.history

    optimizer = keras.optimizers.SGD(clipvalue=1.0)
    model = keras.models.Sequential([
        keras.layers.Flatten(input_shape=[28, 28]),
        keras.layers.Dense(100, activation="selu", kernel_initializer="lecun_normal"),
        keras.layers.Dense(10, activation="softmax")
    ])
    fixed_weights(model.trainable_variables, seed=6, scale=0.1)
    model.compile(loss="mse", optimizer=optimizer)
    out["clipvalue"] = model.fit(X_train_scaled, y_train, epochs=2).history
    optimizer = keras.optimizers.SGD(clipnorm=1.0)
    model.compile(loss="mse", optimizer=optimizer)
    out["clipnorm"] = model.fit(X_train_scaled, y_train, epochs=2).history

    exponential_decay_fn = exponential_decay(lr0=0.01, s=20)
    model = keras.models.Sequential([
        keras.layers.Flatten(input_shape=[28, 28]),
        keras.layers.Dense(300, activation="selu", kernel_initializer="lecun_normal"),
        keras.layers.Dense(100, activation="selu", kernel_initializer="lecun_normal"),
        keras.layers.Dense(10, activation="softmax")
    ])
    fixed_weights(model.trainable_variables, seed=7, scale=0.1)
    model.compile(loss="sparse_categorical_crossentropy", optimizer="nadam", metrics=["accuracy"])
    n_epochs = 2
    lr_scheduler = keras.callbacks.LearningRateScheduler(exponential_decay_fn)
    history = model.fit(X_train_scaled, y_train, epochs=n_epochs,
                        validation_data=(X_valid_scaled, y_valid),
                        callbacks=[lr_scheduler])
    out["exponential_scheduling"] = history.history

    model = keras.models.Sequential([
        keras.layers.Flatten(input_shape=[28, 28]),
        keras.layers.Dense(300, activation="selu", kernel_initializer="lecun_normal"),
        keras.layers.Dense(100, activation="selu", kernel_initializer="lecun_normal"),
        keras.layers.Dense(10, activation="softmax")
    ])
    fixed_weights(model.trainable_variables, seed=8, scale=0.1)
    s = 20 * len(X_train) // 32 # number of steps in 20 epochs (batch size = 32)
    learning_rate = keras.optimizers.schedules.ExponentialDecay(0.01, s, 0.1)
    optimizer = keras.optimizers.SGD(learning_rate)
    model.compile(loss="sparse_categorical_crossentropy", optimizer=optimizer, metrics=["accuracy"])
    history = model.fit(X_train_scaled, y_train, epochs=n_epochs,
                        validation_data=(X_valid_scaled, y_valid))
    out["exponential_decay_schedule"] = history.history

    model = keras.models.Sequential([
        keras.layers.Flatten(input_shape=[28, 28]),
        keras.layers.Dense(300, activation="selu", kernel_initializer="lecun_normal"),
        keras.layers.Dense(100, activation="selu", kernel_initializer="lecun_normal"),
        keras.layers.Dense(10, activation="softmax")
    ])
    fixed_weights(model.trainable_variables, seed=9, scale=0.1)
    model.compile(loss="sparse_categorical_crossentropy",
                  optimizer=keras.optimizers.SGD(learning_rate=1e-3),
                  metrics=["accuracy"])
    expon_lr = ExponentialLearningRate(factor=1.005)
    history = model.fit(X_train_scaled, y_train, epochs=2, batch_size=8,
                        callbacks=[expon_lr], shuffle=False)
    out["expon_rates"] = expon_lr.rates
    out["expon_losses"] = expon_lr.losses

    n_epochs = 2
    batch_size = 8
    onecycle = OneCycleScheduler(
        int(np.ceil(len(X_train) / batch_size)) * n_epochs, max_rate=0.05)
    history = model.fit(X_train_scaled, y_train, epochs=n_epochs, batch_size=batch_size,
                        validation_data=(X_valid_scaled, y_valid),
                        callbacks=[onecycle], shuffle=False)
    out["one_cycle"] = history.history
    out["one_cycle_rate"] = K.get_value(model.optimizer.learning_rate)

    RegularizedDense = partial(keras.layers.Dense,
                               activation="elu",
                               kernel_initializer="he_normal",
                               kernel_regularizer=keras.regularizers.l2(0.01))

    model = keras.models.Sequential([
        keras.layers.Flatten(input_shape=[28, 28]),
        RegularizedDense(300),
        RegularizedDense(100),
        RegularizedDense(10, activation="softmax")
    ])
    fixed_weights(model.trainable_variables, seed=10, scale=0.1)
    model.compile(loss="sparse_categorical_crossentropy", optimizer="nadam", metrics=["accuracy"])
    history = model.fit(X_train_scaled, y_train, epochs=n_epochs,
                        validation_data=(X_valid_scaled, y_valid))
    out["l2_partial"] = history.history

    MaxNormDense = partial(keras.layers.Dense,
                           activation="selu", kernel_initializer="lecun_normal",
                           kernel_constraint=keras.constraints.max_norm(1.))

    model = keras.models.Sequential([
        keras.layers.Flatten(input_shape=[28, 28]),
        MaxNormDense(300),
        MaxNormDense(100),
        keras.layers.Dense(10, activation="softmax")
    ])
    fixed_weights(model.trainable_variables, seed=11, scale=0.1)
    model.compile(loss="sparse_categorical_crossentropy", optimizer="nadam", metrics=["accuracy"])
    history = model.fit(X_train_scaled, y_train, epochs=n_epochs,
                        validation_data=(X_valid_scaled, y_valid))
    out["max_norm"] = history.history
    out["max_norm_kernel_norms"] = np.linalg.norm(model.layers[1].kernel.numpy(), axis=0)[:8]
    return out
