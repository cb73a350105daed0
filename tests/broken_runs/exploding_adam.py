"""A deep linear stack trained with Adam on inputs of a large scale: the loss overflows
float32 in the forward pass and every gradient is Inf or NaN."""
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(2)
x = tf.constant(rng.normal(size=(32, 8)).astype(np.float32) * 1e6)
y = tf.constant(rng.normal(size=(32, 1)).astype(np.float32))
layers = [tf.Variable(rng.normal(size=(8, 8)).astype(np.float32) * 100.0, name=f"w{i}")
          for i in range(6)]
out = tf.Variable(rng.normal(size=(8, 1)).astype(np.float32), name="out")
opt = tf.keras.optimizers.Adam(1e-3)

for step in range(2):
    with tf.GradientTape() as tape:
        h = x
        for w in layers:
            h = h @ w
        loss = tf.reduce_mean(tf.square(h @ out - y))  # truth: w0 inf inf_origin op=Square call=1; out inf inf_origin op=Square call=1
    grads = tape.gradient(loss, layers + [out])
    opt.apply_gradients(zip(grads, layers + [out]))    # truth: w0 nan nan_input call=2; out nan nan_input call=2
