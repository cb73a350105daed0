"""A helper normalises features with NumPy inside the tape: the scale variable gets None."""
import numpy as np
import tapeviz as tf

def normalise(t, scale):
    mean = np.mean(t.numpy(), axis=0)
    return (t - mean) * scale.numpy()                 # truth: scale none numpy_escape

rng = np.random.default_rng(3)
x = tf.constant(rng.normal(size=(20, 3)).astype(np.float32))
y = tf.constant(rng.normal(size=(20, 1)).astype(np.float32))
scale = tf.Variable(tf.ones([3]), name="scale")
w = tf.Variable(rng.normal(size=(3, 1)).astype(np.float32), name="w")

with tf.GradientTape() as tape:
    pred = normalise(x, scale) @ w
    loss = tf.reduce_mean(tf.square(pred - y))
grads = tape.gradient(loss, [scale, w])              # truth: w value ok line=none
