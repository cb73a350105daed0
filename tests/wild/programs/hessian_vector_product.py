# After: https://www.tensorflow.org/api_docs/python/tf/autodiff/ForwardAccumulator and
# https://www.tensorflow.org/guide/advanced_autodiff (Hessian-vector products by
# "back-over-back": the gradient under an outer tape, then the gradient of the gradient
# with output_gradients=vector; compared with the full Hessian from jacobian)
# Adapted: seeded synthetic inputs and fixed weights; the forward-mode variants of the
# ForwardAccumulator page are left out.
import numpy as np
import tensorflow as tf

from adapt import data, fixed_weights


def _back_over_back_hvp(f, primals, tangents):
    with tf.GradientTape() as outer_tape:
        outer_tape.watch(primals)
        with tf.GradientTape() as inner_tape:
            inner_tape.watch(primals)
            output = f(primals)
        gradient = inner_tape.gradient(output, primals)
    return outer_tape.gradient(gradient, primals, output_gradients=tangents)


def main():
    x = tf.constant(data(0, 6, 4))
    y = tf.constant(data(1, 6, 1))
    kernel = tf.Variable(tf.zeros([4, 1]))
    fixed_weights([kernel])

    def f(w):
        pred = tf.tanh(tf.matmul(x, w))
        return tf.reduce_mean((pred - y) ** 2) + 0.1 * tf.reduce_sum(w ** 4)

    w = tf.convert_to_tensor(kernel)
    v = tf.constant(data(2, 4, 1))
    hvp = _back_over_back_hvp(f, w, v)

    with tf.GradientTape() as t2:
        t2.watch(w)
        with tf.GradientTape() as t1:
            t1.watch(w)
            out = f(w)
        g = t1.gradient(out, w)
    h = t2.jacobian(g, w)
    h_mat = tf.reshape(h, [4, 4])
    hv_full = tf.matmul(h_mat, tf.reshape(v, [4, 1]))
    return {"hvp": hvp, "hessian": h_mat, "hv_full": hv_full, "grad": g}
