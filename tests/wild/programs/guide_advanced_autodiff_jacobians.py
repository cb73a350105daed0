# After: https://www.tensorflow.org/guide/advanced_autodiff ("Jacobians": scalar source,
# tensor source, batch Jacobian; "Higher-order gradients")
import numpy as np
import tensorflow as tf

from adapt import fixed_weights


def main():
    x = tf.linspace(-10.0, 10.0, 200 + 1)
    delta = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        y = tf.nn.sigmoid(x + delta)
    dy_dx = tape.jacobian(y, delta)

    x2 = tf.constant(np.random.default_rng(0).normal(size=[7, 5]).astype(np.float32))
    layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)
    layer.build([None, 5])
    fixed_weights(layer.trainable_variables)
    with tf.GradientTape(persistent=True) as tape:
        y2 = layer(x2)
    j = tape.jacobian(y2, layer.kernel)
    g = tape.gradient(y2, layer.kernel)
    j_sum = tf.reduce_sum(j, axis=[0, 1])
    delta_max = tf.reduce_max(abs(g - j_sum))

    x3 = tf.constant(np.random.default_rng(1).normal(size=[7, 5]).astype(np.float32))
    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
    layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)
    layer1.build([None, 5])
    layer2.build([None, 8])
    fixed_weights(layer1.trainable_variables + layer2.trainable_variables, seed=2)
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(x3)
        y3 = layer1(x3)
        y3 = layer2(y3)
    jb = tape.batch_jacobian(y3, x3)
    jf = tape.jacobian(y3, x3)
    diag = tf.reduce_sum(jf, axis=2)

    x4 = tf.Variable(1.0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y4 = x4 * x4 * x4
        dy_dx4 = t1.gradient(y4, x4)
    d2y_dx2 = t2.gradient(dy_dx4, x4)

    return {"sigmoid_jacobian": dy_dx, "dense_jacobian_shape": list(j.shape),
            "dense_delta": delta_max, "batch_jacobian": jb, "diag": diag,
            "dy_dx": dy_dx4, "d2y_dx2": d2y_dx2}
