# After: https://www.tensorflow.org/guide/autodiff ("Gradient tapes", "Gradients with
# respect to a model", "Controlling what the tape watches", "Intermediate results")
# Adapted: fixed starting weights in place of random initializers.
import numpy as np
import tensorflow as tf

from adapt import fixed_weights


def main():
    w = tf.Variable(tf.random.normal((3, 2)), name='w')
    b = tf.Variable(tf.zeros(2, dtype=tf.float32), name='b')
    fixed_weights([w, b])
    x = [[1., 2., 3.]]

    with tf.GradientTape(persistent=True) as tape:
        y = x @ w + b
        loss = tf.reduce_mean(y**2)
    [dl_dw, dl_db] = tape.gradient(loss, [w, b])

    my_vars = {'w': w, 'b': b}
    grad = tape.gradient(loss, my_vars)

    layer = tf.keras.layers.Dense(2, activation='relu')
    x2 = tf.constant([[1., 2., 3.]])
    layer(x2)
    fixed_weights(layer.trainable_variables, seed=1)
    with tf.GradientTape() as tape2:
        y2 = layer(x2)
        loss2 = tf.reduce_mean(y2**2)
    grads = tape2.gradient(loss2, layer.trainable_variables)

    x0 = tf.Variable(0.1, name='x0')
    x1 = tf.Variable(10.0, name='x1', trainable=False)
    x2c = tf.Variable(2.0, name='x2') + 1.0
    x3 = tf.constant(3.0, name='x3')
    with tf.GradientTape() as tape3:
        y3 = (x0**2) + (x1**2) + (x2c**2)
    g3 = tape3.gradient(y3, [x0, x1, x2c, x3])

    x4 = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape4:
        tape4.watch(x4)
        y4 = x4 * x4
        z4 = y4 * y4
    dz_dx = tape4.gradient(z4, x4)
    dy_dx = tape4.gradient(y4, x4)
    del tape4

    return {"dl_dw": dl_dw, "dl_db": dl_db, "dict_w": grad['w'], "dict_b": grad['b'],
            "layer_grads": grads, "watch": g3, "dz_dx": dz_dx, "dy_dx": dy_dx,
            "watched": [v.name for v in [x0]]}
