"""Predictions clipped to [0, 1] before the loss; the weights start so large that every
prediction is above 1, so the clip holds them all and no gradient flows."""
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(5)
x = tf.constant(rng.uniform(1.0, 2.0, size=(12, 3)).astype(np.float32))
y = tf.constant(rng.uniform(size=(12, 1)).astype(np.float32))
w = tf.Variable(tf.fill([3, 1], 5.0), name="w")

with tf.GradientTape() as tape:
    pred = tf.clip_by_value(x @ w, 0.0, 1.0)          # truth: w zero clipped op=ClipByValue
    loss = tf.reduce_mean(tf.square(pred - y))
grad = tape.gradient(loss, w)
