"""A vanilla RNN unrolled over 300 steps with a recurrent matrix that saturates tanh: the
input weights still learn from the last steps, the initial state's gradient vanishes."""
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(9)
xs = tf.constant(rng.normal(size=(300, 4, 3)).astype(np.float32))
target = tf.constant(rng.normal(size=(4, 1)).astype(np.float32))
w_in = tf.Variable(rng.normal(size=(3, 8)).astype(np.float32) * 0.5, name="w_in")
w_rec = tf.Variable(rng.normal(size=(8, 8)).astype(np.float32) * 6.0, name="w_rec")
h0 = tf.Variable(tf.zeros([4, 8]), name="h0")
w_out = tf.Variable(rng.normal(size=(8, 1)).astype(np.float32), name="w_out")

with tf.GradientTape() as tape:
    h = h0
    for t in range(300):
        h = tf.tanh(xs[t] @ w_in + h @ w_rec)        # truth: h0 zero saturated op=Tanh
    loss = tf.reduce_mean(tf.square(h @ w_out - target))
grads = tape.gradient(loss, [w_in, w_rec, h0, w_out])  # truth: w_out value ok line=none
