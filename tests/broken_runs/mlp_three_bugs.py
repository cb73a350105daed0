"""A two-layer classifier with three bugs at once: a bias that kills the ReLU layer, a value
read out with .numpy() in the forward pass, and log of a softmax that underflows to 0 on an
outlier batch (step 3), whose NaN the optimizer then writes into the weights."""
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(0)
batches = [rng.normal(size=(32, 4)).astype(np.float32) for _ in range(5)]
batches[2] *= 300.0                                   # an outlier batch
labels = tf.constant(rng.integers(0, 3, size=32))

w1 = tf.Variable(rng.normal(size=(4, 8)).astype(np.float32) * 0.1, name="w1")
b1 = tf.Variable(tf.fill([8], -100.0), name="b1")     # bug: every ReLU of layer 1 is dead
w2 = tf.Variable(rng.normal(size=(4, 3)).astype(np.float32), name="w2")
b2 = tf.Variable(tf.zeros([3]), name="b2")
v = tf.Variable(rng.normal(size=(8, 3)).astype(np.float32), name="v")
opt = tf.keras.optimizers.SGD(0.01)

for step in range(5):
    x = tf.constant(batches[step])
    with tf.GradientTape() as tape:
        h = tf.nn.relu(x @ w1 + b1)                   # truth: w1 zero dead_relu op=Relu call=1; b1 zero dead_relu op=Relu call=1; v zero dead_relu op=Relu call=1
        skip = x @ w2 + b2.numpy()                    # truth: b2 none numpy_escape call=all
        logits = h @ v + skip
        probs = tf.nn.softmax(logits)
        picked = tf.gather(probs, labels, axis=1, batch_dims=1)
        loss = -tf.reduce_mean(tf.math.log(picked))   # truth: w2 nan nan_origin op=Log call=3; v nan nan_origin op=Log call=3
    grads = tape.gradient(loss, [w1, b1, w2, b2, v])  # truth: w2 value ok call=1 line=none
    opt.apply_gradients(zip(grads, [w1, b1, w2, b2, v]))  # truth: w2 nan nan_input call=4; v nan nan_input call=4
