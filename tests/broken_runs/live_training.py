"""A small model trained for 40 steps, slowly enough to follow live (tapeviz run); at step 25
a learning rate that is far too large makes the weights overflow, and NaN follows from
the update of step 28 on."""
import os
import time
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(12)
x = tf.constant(rng.normal(size=(64, 5)).astype(np.float32))
y = tf.constant(rng.normal(size=(64, 1)).astype(np.float32))
w = tf.Variable(rng.normal(size=(5, 1)).astype(np.float32), name="w")
b = tf.Variable(tf.zeros([1]), name="b")
pause = float(os.environ.get("TRAIN_PAUSE", "0"))

for step in range(40):
    lr = 0.05 if step < 25 else 1e18                  # bug: the schedule's last stage
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(x @ w + b - y))
    grads = tape.gradient(loss, [w, b])               # truth: w value ok call=1 line=none
    for g, v in zip(grads, [w, b]):
        v.assign_sub(lr * g)                          # truth: w nan nan_input call=29; b nan nan_input call=40
    time.sleep(pause)
