"""A six-layer Keras Sequential model; the fourth layer's bias initialiser is far below zero,
so that layer is dead and the layers before it get zero gradients."""
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(8)
x = tf.constant(rng.normal(size=(32, 10)).astype(np.float32))
y = tf.constant(rng.integers(0, 3, size=32))
model = tf.keras.Sequential([
    tf.keras.layers.Dense(16, activation="relu"),
    tf.keras.layers.Dense(16, activation="relu"),
    tf.keras.layers.Dense(16, activation="relu"),
    tf.keras.layers.Dense(16, activation="relu",
                          bias_initializer=tf.keras.initializers.Constant(-100.0)),  # bug
    tf.keras.layers.Dense(16, activation="relu"),
    tf.keras.layers.Dense(3),
])
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

with tf.GradientTape() as tape:
    logits = model(x)                                 # truth: dense/kernel zero dead_relu op=Relu#4 scope=sequential/dense_3; dense_3/bias zero dead_relu op=Relu#4; dense_4/kernel zero dead_relu op=Relu#4; dense_5/kernel zero dead_relu op=Relu#4
    loss = loss_fn(y, logits)
grads = tape.gradient(loss, model.trainable_variables)  # truth: dense_5/bias value ok line=none
