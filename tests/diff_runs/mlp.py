"""A two-layer network trained for a few steps and recorded, for the diff tests. Each keyword
of ``train`` changes one thing; the line where that change first shows in execution order is
marked ``# first: <keyword>`` (the truth the tests check the diff against, marked by hand)."""
import numpy as np

import tapeviz as tf


def train(path, activation="relu", lr=0.1, extra=False, dtype="float32", seed=0, stop=False,
          steps=2):
    data = np.random.default_rng(0)
    x = tf.constant(data.normal(size=(8, 4)).astype(np.float32))
    y = tf.constant(data.normal(size=(8, 1)).astype(np.float32))
    init = np.random.default_rng(seed)
    w1 = tf.Variable(init.normal(size=(4, 6)).astype(np.float32), name="w1")
    w2 = tf.Variable(init.normal(size=(6, 1)).astype(np.float32), name="w2")
    act = tf.nn.relu if activation == "relu" else tf.nn.tanh
    with tf.record(path, full=True):
        for _ in range(steps):
            with tf.GradientTape() as tape:
                z = tf.matmul(x, w1)                        # first: seed
                h = act(z)                                  # first: activation
                if extra:
                    h = h * 2.0                             # first: extra
                if stop:
                    h = tf.stop_gradient(h)                 # first: stop
                h = tf.cast(h, dtype)                       # first: dtype
                out = tf.matmul(h, tf.cast(w2, dtype))
                loss = tf.reduce_mean(tf.square(out - tf.cast(y, dtype)))
            g1, g2 = tape.gradient(loss, [w1, w2])
            if g1 is not None:
                w1.assign_sub(lr * g1)                      # first: lr
            w2.assign_sub(lr * tf.cast(g2, "float32"))
