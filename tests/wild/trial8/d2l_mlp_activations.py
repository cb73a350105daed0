# After: https://github.com/d2l-ai/d2l-en (chapter_multilayer-perceptrons/mlp.md, TensorFlow tab)
# Adapted: the chapter's TensorFlow cells placed one after another in main(); what each
# cell plots with d2l.plot (the activations and their gradients from a GradientTape) is
# returned instead of plotted.
import tensorflow as tf


def main():
    out = {}
    x = tf.Variable(tf.range(-8.0, 8.0, 0.1), dtype=tf.float32)
    y = tf.nn.relu(x)
    out["relu"] = y
    with tf.GradientTape() as t:
        y = tf.nn.relu(x)
    out["grad_relu"] = t.gradient(y, x).numpy()
    y = tf.nn.sigmoid(x)
    out["sigmoid"] = y
    with tf.GradientTape() as t:
        y = tf.nn.sigmoid(x)
    out["grad_sigmoid"] = t.gradient(y, x).numpy()
    y = tf.nn.tanh(x)
    out["tanh"] = y
    with tf.GradientTape() as t:
        y = tf.nn.tanh(x)
    out["grad_tanh"] = t.gradient(y, x).numpy()
    return out
