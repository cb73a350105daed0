"""A hand-written SGD loop that replaces the variable with a tensor (w = w - lr * g): from
the second step on, the tape does not watch w."""
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(10)
x = tf.constant(rng.normal(size=(16, 2)).astype(np.float32))
y = tf.constant(rng.normal(size=(16, 1)).astype(np.float32))
w = tf.Variable(rng.normal(size=(2, 1)).astype(np.float32), name="w")

for step in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(x @ w - y))
    g = tape.gradient(loss, w)                        # truth: w value ok call=1 line=none
    if g is not None:                                 # (skips the steps it cannot take)
        w = w - 0.1 * g                               # truth: w none replaced_variable call=2
