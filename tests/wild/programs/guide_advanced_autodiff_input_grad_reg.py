# After: https://www.tensorflow.org/guide/advanced_autodiff ("Example: Input gradient
# regularization")
# Adapted: seeded synthetic inputs and fixed starting weights.
import numpy as np
import tensorflow as tf

from adapt import data, fixed_weights


def main():
    x = tf.constant(data(0, 7, 5))
    layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)
    layer.build([None, 5])
    fixed_weights(layer.trainable_variables)

    with tf.GradientTape() as t2:
        # The inner tape only takes the gradient with respect to the input,
        # not the variables.
        with tf.GradientTape(watch_accessed_variables=False) as t1:
            t1.watch(x)
            y = layer(x)
            out = tf.reduce_sum(layer(x)**2)
        # 1. Calculate the input gradient.
        g1 = t1.gradient(out, x)
        # 2. Calculate the magnitude of the input gradient.
        g1_mag = tf.norm(g1)

    # 3. Calculate the gradient of the magnitude with respect to the model.
    dg1_mag = t2.gradient(g1_mag, layer.trainable_variables)
    return {"y": y, "g1_mag": g1_mag, "dg1_mag": dg1_mag,
            "shapes": [list(var.shape) for var in dg1_mag]}
