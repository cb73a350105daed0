"""A twenty-layer sigmoid network: each layer scales the gradient by at most a quarter, so
the first layers' gradients vanish (1e-10 where the last layer's is 1)."""
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(4)
x = tf.constant(rng.normal(size=(16, 10)).astype(np.float32))
y = tf.constant(rng.uniform(size=(16, 1)).astype(np.float32))
ws = [tf.Variable(rng.normal(size=(10, 10)).astype(np.float32) * 0.5, name=f"w{i}")
      for i in range(20)]
last = tf.Variable(rng.normal(size=(10, 1)).astype(np.float32), name="last")

with tf.GradientTape() as tape:
    h = x
    for w in ws:
        h = tf.sigmoid(h @ w)                         # truth: w0 value saturated op=Sigmoid; w5 value saturated op=Sigmoid
    loss = tf.reduce_mean(tf.square(h @ last - y))
grads = tape.gradient(loss, ws + [last])             # truth: w19 value ok line=none; last value ok line=none
