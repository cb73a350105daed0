"""A linear model whose weights are scaled into a new Variable inside the tape
(`tf.Variable(w * scale)`): the loss reads the copy, so w and scale get no gradient, while
the bias, read directly, trains."""
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(12)
x = tf.constant(rng.normal(size=(16, 3)).astype(np.float32))
y = tf.constant(rng.normal(size=(16, 1)).astype(np.float32))
w = tf.Variable(rng.normal(size=(3, 1)).astype(np.float32), name="w")
scale = tf.Variable(0.5, name="scale")
b = tf.Variable(tf.zeros([1]), name="b")
opt = tf.keras.optimizers.SGD(0.1)

for step in range(2):
    with tf.GradientTape() as tape:
        scaled = tf.Variable(w * scale, name="scaled")   # truth: w none copied_value call=all; scale none copied_value call=all
        loss = tf.reduce_mean(tf.square(x @ scaled + b - y))
    grads = tape.gradient(loss, [w, scale, b])          # truth: b value ok call=all line=none
    opt.apply_gradients([(g, v) for g, v in zip(grads, [w, scale, b]) if g is not None])
