# After: https://www.tensorflow.org/guide/advanced_autodiff ("Custom gradients":
# clip_gradients, and the gradient-of-gradient example with stop_recording)
import numpy as np
import tensorflow as tf


@tf.custom_gradient
def clip_gradients(y):
    def backward(dy):
        return tf.clip_by_norm(dy, 0.5)
    return y, backward


def main():
    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
        output = clip_gradients(v * v)
    clipped = t.gradient(output, v)

    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as t2:
        x_sq = x * x
        with t2.stop_recording():
            y_sq = y * y
        z = x_sq + y_sq
    grad = t2.gradient(z, {'x': x, 'y': y})

    with tf.GradientTape() as t3:
        y_sq3 = y * y
        z3 = x * x + tf.stop_gradient(y_sq3)
    grad3 = t3.gradient(z3, {'x': x, 'y': y})

    x4 = tf.Variable(2.0)
    y4 = tf.Variable(3.0)
    with tf.GradientTape() as t4:
        t4.watch(y4)
        y_sq4 = y4 * y4
        t4.reset()
        z4 = x4 * x4 + y_sq4
    grad4 = t4.gradient(z4, {'x': x4, 'y': y4})

    return {"clipped": clipped, "dz_dx": grad['x'], "dz_dy": grad['y'],
            "stop_dx": grad3['x'], "stop_dy": grad3['y'], "reset_dx": grad4['x'],
            "reset_dy": grad4['y']}
