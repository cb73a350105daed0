"""A DQN-style update: the target network's output sits behind stop_gradient, so its
weights get None (as they should); the online network learns."""
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(7)
states = tf.constant(rng.normal(size=(8, 4)).astype(np.float32))
next_states = tf.constant(rng.normal(size=(8, 4)).astype(np.float32))
rewards = tf.constant(rng.normal(size=(8, 1)).astype(np.float32))
online = tf.Variable(rng.normal(size=(4, 1)).astype(np.float32), name="online")
target = tf.Variable(rng.normal(size=(4, 1)).astype(np.float32), name="target")

with tf.GradientTape() as tape:
    q = states @ online
    q_next = tf.stop_gradient(next_states @ target)  # truth: target none stop_gradient op=StopGradient
    loss = tf.reduce_mean(tf.square(rewards + 0.9 * q_next - q))
grads = tape.gradient(loss, [online, target])        # truth: online value ok line=none
