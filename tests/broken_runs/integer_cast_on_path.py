"""Predicted class counts are rounded and cast to int32 on the way to the loss: the cast
cuts the gradient path."""
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(6)
x = tf.constant(rng.uniform(size=(10, 4)).astype(np.float32))
counts = tf.constant(rng.integers(0, 5, size=(10, 1)).astype(np.int32))
w = tf.Variable(rng.uniform(size=(4, 1)).astype(np.float32), name="w")

with tf.GradientTape() as tape:
    predicted = tf.cast(tf.round(x @ w * 4.0), tf.int32)   # truth: w none non_differentiable op=Round
    loss = tf.reduce_mean(tf.cast(tf.square(predicted - counts), tf.float32))
grad = tape.gradient(loss, w)
