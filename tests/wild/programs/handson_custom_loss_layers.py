# After: https://github.com/ageron/handson-ml2 (12_custom_models_and_training_with_tensorflow
# .ipynb: "Custom loss function" huber_fn compiled with nadam and the mae metric, the
# HuberLoss subclass of keras.losses.Loss with get_config, "Other custom functions"
# my_softplus/my_glorot_initializer/my_l1_regularizer/my_positive_weights on a Dense layer,
# and the MyDense custom layer with build, call and compute_output_shape)
# Adapted: 100 seeded synthetic rows of 8 features instead of California housing, already
# standardized; 2 epochs with batch_size 80 (one batch per epoch); fixed weights after each
# model is built.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import data, fixed_weights


def huber_fn(y_true, y_pred):
    error = y_true - y_pred
    is_small_error = tf.abs(error) < 1
    squared_loss = tf.square(error) / 2
    linear_loss  = tf.abs(error) - 0.5
    return tf.where(is_small_error, squared_loss, linear_loss)


class HuberLoss(keras.losses.Loss):
    def __init__(self, threshold=1.0, **kwargs):
        self.threshold = threshold
        super().__init__(**kwargs)
    def call(self, y_true, y_pred):
        error = y_true - y_pred
        is_small_error = tf.abs(error) < self.threshold
        squared_loss = tf.square(error) / 2
        linear_loss  = self.threshold * tf.abs(error) - self.threshold**2 / 2
        return tf.where(is_small_error, squared_loss, linear_loss)
    def get_config(self):
        base_config = super().get_config()
        return {**base_config, "threshold": self.threshold}


def my_softplus(z): # return value is just tf.nn.softplus(z)
    return tf.math.log(tf.exp(z) + 1.0)

def my_glorot_initializer(shape, dtype=tf.float32):
    stddev = tf.sqrt(2. / (shape[0] + shape[1]))
    return tf.random.normal(shape, stddev=stddev, dtype=dtype)

def my_l1_regularizer(weights):
    return tf.reduce_sum(tf.abs(0.01 * weights))

def my_positive_weights(weights): # return value is just tf.nn.relu(weights)
    return tf.where(weights < 0., tf.zeros_like(weights), weights)


class MyDense(keras.layers.Layer):
    def __init__(self, units, activation=None, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.activation = keras.activations.get(activation)

    def build(self, batch_input_shape):
        self.kernel = self.add_weight(
            name="kernel", shape=[batch_input_shape[-1], self.units],
            initializer="glorot_normal")
        self.bias = self.add_weight(
            name="bias", shape=[self.units], initializer="zeros")
        super().build(batch_input_shape) # must be at the end

    def call(self, X):
        return self.activation(X @ self.kernel + self.bias)

    def compute_output_shape(self, batch_input_shape):
        return tf.TensorShape(batch_input_shape.as_list()[:-1] + [self.units])

    def get_config(self):
        base_config = super().get_config()
        return {**base_config, "units": self.units,
                "activation": keras.activations.serialize(self.activation)}


def main():
    X = data(1, 100, 8, low=-2.0, high=2.0)
    y = (X[:, :1] * 1.5 - X[:, 1:2] + 2.0 * np.sin(X[:, 2:3])).astype(np.float32)
    X_train_scaled, y_train = X[:80], y[:80]
    X_valid_scaled, y_valid = X[80:], y[80:]
    input_shape = X_train_scaled.shape[1:]

    plt_errors = huber_fn(tf.constant([0., 0.]), tf.constant([-4., 0.5]))

    model = keras.models.Sequential([
        keras.layers.Dense(30, activation="selu", kernel_initializer="lecun_normal",
                           input_shape=input_shape),
        keras.layers.Dense(1),
    ])
    fixed_weights(model.trainable_variables, seed=2)
    model.compile(loss=huber_fn, optimizer="nadam", metrics=["mae"])
    h1 = model.fit(X_train_scaled, y_train, epochs=2, batch_size=80,
                   validation_data=(X_valid_scaled, y_valid), verbose=0)

    model.compile(loss=HuberLoss(2.), optimizer="nadam", metrics=["mae"])
    h2 = model.fit(X_train_scaled, y_train, epochs=2, batch_size=80,
                   validation_data=(X_valid_scaled, y_valid), verbose=0)
    config = HuberLoss(2.).get_config()

    model = keras.models.Sequential([
        keras.layers.Dense(30, activation="selu", kernel_initializer="lecun_normal",
                           input_shape=input_shape),
        keras.layers.Dense(1, activation=my_softplus,
                           kernel_regularizer=my_l1_regularizer,
                           kernel_constraint=my_positive_weights,
                           kernel_initializer=my_glorot_initializer),
    ])
    fixed_weights(model.trainable_variables, seed=3)
    model.compile(loss="mse", optimizer="nadam", metrics=["mae"])
    h3 = model.fit(X_train_scaled, y_train, epochs=2, batch_size=80,
                   validation_data=(X_valid_scaled, y_valid), verbose=0)

    model = keras.models.Sequential([
        MyDense(30, activation="relu", input_shape=input_shape),
        MyDense(1)
    ])
    fixed_weights(model.trainable_variables, seed=4)
    model.compile(loss="mse", optimizer="nadam")
    h4 = model.fit(X_train_scaled, y_train, epochs=2, batch_size=80,
                   validation_data=(X_valid_scaled, y_valid), verbose=0)
    score = model.evaluate(X_valid_scaled, y_valid, verbose=0)
    return {"errors": plt_errors, "huber_fn": h1.history, "huber_loss": h2.history,
            "threshold": config["threshold"], "custom_functions": h3.history,
            "my_dense": h4.history, "score": score,
            "output_shape": list(model.layers[0].compute_output_shape(tf.TensorShape([None, 8])))}
