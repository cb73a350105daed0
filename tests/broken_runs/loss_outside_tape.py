"""The loss is computed after the tape's with block has closed: every gradient is None."""
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(11)
x = tf.constant(rng.normal(size=(8, 3)).astype(np.float32))
y = tf.constant(rng.normal(size=(8, 1)).astype(np.float32))
w = tf.Variable(rng.normal(size=(3, 1)).astype(np.float32), name="w")

with tf.GradientTape() as tape:
    pred = x @ w
loss = tf.reduce_mean(tf.square(pred - y))            # truth: w none outside_tape op=Sub
grad = tape.gradient(loss, w)
