# After: https://github.com/d2l-ai/d2l-en (chapter_preliminaries/autograd.md, TensorFlow tab)
# Adapted: the chapter's TensorFlow cells placed one after another in main(), which returns
# the values the cells display; the starting value of `a` a seeded NumPy normal draw
# instead of tf.random.normal.
import numpy as np
import tensorflow as tf


def f(a):
    b = a * 2
    while tf.norm(b) < 1000:
        b = b * 2
    if tf.reduce_sum(b) > 0:
        c = b
    else:
        c = 100 * b
    return c


def main():
    out = {}
    x = tf.range(4, dtype=tf.float32)
    out["x"] = x
    x = tf.Variable(x)
    # Record all computations onto a tape
    with tf.GradientTape() as t:
        y = 2 * tf.tensordot(x, x, axes=1)
    out["y"] = y
    x_grad = t.gradient(y, x)
    out["x_grad"] = x_grad
    out["check_4x"] = x_grad == 4 * x
    with tf.GradientTape() as t:
        y = tf.reduce_sum(x)
    out["grad_sum"] = t.gradient(y, x)  # Overwritten by the newly calculated gradient
    with tf.GradientTape() as t:
        y = x * x
    out["grad_nonscalar"] = t.gradient(y, x)  # Same as y = tf.reduce_sum(x * x)
    # Set persistent=True to preserve the compute graph.
    # This lets us run t.gradient more than once
    with tf.GradientTape(persistent=True) as t:
        y = x * x
        u = tf.stop_gradient(y)
        z = u * x

    x_grad = t.gradient(z, x)
    out["detach_check"] = x_grad == u
    out["detach_grad"] = x_grad
    out["second_check"] = t.gradient(y, x) == 2 * x

    a = tf.Variable(tf.constant(np.float32(np.random.default_rng(0).normal())))
    with tf.GradientTape() as t:
        d = f(a)
    d_grad = t.gradient(d, a)
    out["a"] = a
    out["d_grad"] = d_grad
    out["d_grad_check"] = d_grad == d / a
    return out
