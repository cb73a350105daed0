"""A three-class classifier with three bugs at once: the hidden layer's bias starts far below
zero, so the layer (built in a helper) is dead; a sharpness factor makes the softmax underflow,
so log() of a zero probability turns the gradient NaN and SGD writes that NaN into the
weights; and the temperature is read with .numpy(), which the tape never sees."""
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(21)
x = tf.constant(rng.normal(size=(32, 4)).astype(np.float32))
onehot = tf.one_hot(rng.integers(0, 3, size=32), 3)
w1 = tf.Variable(rng.normal(size=(4, 8)).astype(np.float32), name="w1")
b1 = tf.Variable(tf.fill([8], -20.0), name="b1")     # bug: the hidden layer starts dead
w2 = tf.Variable(rng.normal(size=(8, 1)).astype(np.float32), name="w2")
wx = tf.Variable(rng.normal(size=(4, 3)).astype(np.float32), name="wx")
temp = tf.Variable(1.0, name="temp")
opt = tf.keras.optimizers.SGD(0.1)


def hidden(t):
    return tf.nn.relu(t @ w1 + b1)        # truth: w1 zero dead_relu op=Relu call=all; b1 zero dead_relu op=Relu call=all; w2 zero dead_relu op=Relu call=all


for step in range(3):
    with tf.GradientTape() as tape:
        aux = tf.reduce_mean(hidden(x) @ w2)
        logits = (x @ wx) * 60.0 / temp.numpy()    # truth: temp none numpy_escape call=all
        probs = tf.nn.softmax(logits)
        picked = tf.reduce_sum(probs * onehot, axis=1)
        loss = -tf.reduce_mean(tf.math.log(picked)) + 0.01 * aux   # truth: wx nan nan_origin op=Log call=1
    grads = tape.gradient(loss, [w1, b1, w2, wx, temp])
    opt.apply_gradients(zip(grads, [w1, b1, w2, wx, temp]))   # truth: wx nan nan_input call=2; wx nan nan_input call=3
