# After: https://github.com/google/qkeras (qkeras/quantizers.py: _round_through, the
# straight-through estimator x + tf.stop_gradient(-x + tf.round(x))) and the
# tf.custom_gradient form of it (round with an identity gradient) of BinaryNet ports such
# as https://github.com/DingKe/nn_playground (binarynet: round_through, binary_tanh).
# Adapted: seeded synthetic inputs, fixed starting weights, 4 SGD steps.
import numpy as np
import tensorflow as tf

from adapt import data, fixed_weights, labels


def _round_through(x):
    return x + tf.stop_gradient(-x + tf.round(x))


@tf.custom_gradient
def round_ste(x):
    def grad(dy):
        return dy
    return tf.round(x), grad


def binary_sigmoid(x):
    return tf.clip_by_value((x + 1.) / 2., 0, 1)


def binary_tanh(x):
    return 2 * _round_through(binary_sigmoid(x)) - 1


class QuantDense(tf.keras.layers.Layer):
    def __init__(self, units, bits=4):
        super().__init__()
        self.units = units
        self.scale = 2.0 ** (bits - 1)

    def build(self, input_shape):
        self.kernel = self.add_weight("kernel", shape=(int(input_shape[-1]), self.units),
                                      initializer="glorot_uniform", trainable=True)

    def call(self, x):
        q = round_ste(self.kernel * self.scale) / self.scale
        return binary_tanh(tf.matmul(x, q))


def main():
    x, y = data(0, 16, 6), labels(1, 16, 2)
    layer = QuantDense(4)
    head = tf.keras.layers.Dense(2)
    head(layer(x))
    fixed_weights(layer.trainable_variables + head.trainable_variables, scale=0.7)
    opt = tf.keras.optimizers.SGD(0.1)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    hist, g0 = [], None
    for step in range(4):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, head(layer(x)))
        variables = layer.trainable_variables + head.trainable_variables
        grads = tape.gradient(loss, variables)
        if g0 is None:
            g0 = grads
        opt.apply_gradients(zip(grads, variables))
        hist.append(loss)
    return {"loss": hist, "first_grads": g0, "kernel": layer.kernel}
