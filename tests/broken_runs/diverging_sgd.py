"""A small regression trained with a learning rate far too large for targets of scale 50:
every update overshoots and the output weights grow about fivefold a step (the first layer's
tanh saturates on the way), until the loss overflows float32 at gradient call 31. The NaN
gradient the optimizer then writes into the first layer reaches the second layer's gradient
at call 32 through the activations, off that layer's own path."""
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(1)
x = tf.constant(rng.normal(size=(32, 3)).astype(np.float32))
y = tf.constant((rng.normal(size=(32, 1)) * 50).astype(np.float32))
w = tf.Variable(rng.normal(size=(3, 16)).astype(np.float32), name="w")
v = tf.Variable(rng.normal(size=(16, 1)).astype(np.float32), name="v")
opt = tf.keras.optimizers.SGD(learning_rate=0.5)      # bug: far too large for this loss


def model(x):
    h = tf.tanh(x @ w)
    return h @ v


for step in range(33):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))  # truth: w nan nan_origin op=Square call=31
    grads = tape.gradient(loss, [w, v])
    opt.apply_gradients(zip(grads, [w, v]))            # truth: v nan nan_input call=32
