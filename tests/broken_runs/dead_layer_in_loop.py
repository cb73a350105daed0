"""A ten-layer ReLU network built in a loop; the sixth layer's bias starts far below zero,
so that layer is dead and every layer before it gets no gradient."""
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(1)
x = tf.constant(rng.normal(size=(16, 6)).astype(np.float32))
y = tf.constant(rng.normal(size=(16, 1)).astype(np.float32))

weights, biases = [], []
for i in range(10):
    weights.append(tf.Variable(rng.normal(size=(6, 6)).astype(np.float32) * 0.5, name=f"w{i}"))
    biases.append(tf.Variable(tf.zeros([6]), name=f"b{i}"))
biases[5].assign(tf.fill([6], -50.0))                 # bug: layer 5 starts dead
head = tf.Variable(rng.normal(size=(6, 1)).astype(np.float32), name="head")

with tf.GradientTape() as tape:
    h = x
    for w, b in zip(weights, biases):
        h = tf.nn.relu(h @ w + b)                     # truth: w0 zero dead_relu op=Relu#6; b5 zero dead_relu op=Relu#6; w9 zero dead_relu op=Relu#6; head zero dead_relu op=Relu#6
    loss = tf.reduce_mean(tf.square(h @ head - y))
grads = tape.gradient(loss, weights + biases + [head])
