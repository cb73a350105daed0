# After: https://github.com/michetonu/gradient_reversal_keras_tf (flipGradientTF.py:
# reverse_gradient(X, hp_lambda) and the GradientReversal layer), in its TF2 form with
# tf.custom_gradient of two arguments whose grad returns (-dy * hp_lambda, None).
# Adapted: seeded synthetic inputs, fixed starting weights.
import numpy as np
import tensorflow as tf

from adapt import data, fixed_weights


@tf.custom_gradient
def reverse_gradient(x, hp_lambda):
    def grad(dy):
        return tf.negative(dy) * hp_lambda, None
    return tf.identity(x), grad


class GradientReversal(tf.keras.layers.Layer):
    def __init__(self, hp_lambda=1.0, **kwargs):
        super().__init__(**kwargs)
        self.hp_lambda = hp_lambda

    def call(self, x):
        return reverse_gradient(x, self.hp_lambda)


def main():
    x = tf.constant(data(0, 4, 3))
    dense = tf.keras.layers.Dense(2)
    rev = GradientReversal(hp_lambda=0.3)
    head = tf.keras.layers.Dense(1)
    head(dense(x))
    fixed_weights(dense.trainable_variables + head.trainable_variables)
    with tf.GradientTape() as tape:
        y = head(rev(dense(x)))
        loss = tf.reduce_sum(y ** 2)
    grads = tape.gradient(loss, dense.trainable_variables + head.trainable_variables)
    return {"loss": loss, "grads": grads}
