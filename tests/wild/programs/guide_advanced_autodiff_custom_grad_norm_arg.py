# After: https://www.tensorflow.org/guide/eager ("Custom gradients": clip_gradient_by_norm,
# whose second argument is a Python number) and the advanced autodiff guide's log1pexp.
import numpy as np
import tensorflow as tf


@tf.custom_gradient
def clip_gradient_by_norm(x, norm):
    y = tf.identity(x)

    def grad_fn(dresult):
        return [tf.clip_by_norm(dresult, norm), None]
    return y, grad_fn


def log1pexp(x):
    return tf.math.log(1 + tf.exp(x))


@tf.custom_gradient
def log1pexp_stable(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


def main():
    x = tf.constant([3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = clip_gradient_by_norm(x * 2.0, 1.0)
    g = tape.gradient(y, x)

    z = tf.constant(0.)
    with tf.GradientTape() as t:
        t.watch(z)
        v = log1pexp(z)
    dz = t.gradient(v, z)
    z100 = tf.constant(100.)
    with tf.GradientTape() as t:
        t.watch(z100)
        v = log1pexp(z100)
    d100 = t.gradient(v, z100)
    with tf.GradientTape() as t:
        t.watch(z100)
        v = log1pexp_stable(z100)
    d100_stable = t.gradient(v, z100)
    return {"clip_by_norm_grad": g, "log1pexp_0": dz, "log1pexp_100": d100,
            "log1pexp_stable_100": d100_stable}
