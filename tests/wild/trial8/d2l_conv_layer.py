# After: https://github.com/d2l-ai/d2l-en (chapter_convolutional-neural-networks/conv-layer.md, TensorFlow tab)
# Adapted: the chapter's TensorFlow cells placed one after another in main() (functions and
# classes at module level), which returns the values the cells display; the Conv2D layer
# built and its kernel fixed from seeded NumPy (adapt.fixed_weights) instead of its random
# initializer; the printed losses collected as answers.
import numpy as np
import tensorflow as tf
from adapt import fixed_weights


class d2l:
    """Stands in for `from d2l import tensorflow as d2l` (the names the chapter uses)."""
    tensor = staticmethod(tf.constant)
    transpose = staticmethod(tf.transpose)
    reshape = staticmethod(tf.reshape)


def corr2d(X, K):  #@save
    """Compute 2D cross-correlation."""
    h, w = K.shape
    Y = tf.Variable(tf.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1)))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j].assign(tf.reduce_sum(
                X[i: i + h, j: j + w] * K))
    return Y


class Conv2D(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()

    def build(self, kernel_size):
        initializer = tf.random_normal_initializer()
        self.weight = self.add_weight(name='w', shape=kernel_size,
                                      initializer=initializer)
        self.bias = self.add_weight(name='b', shape=(1, ),
                                    initializer=initializer)

    def call(self, inputs):
        return corr2d(inputs, self.weight) + self.bias


def main():
    out = {}
    X = d2l.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
    K = d2l.tensor([[0.0, 1.0], [2.0, 3.0]])
    out["corr2d"] = corr2d(X, K)

    X = tf.Variable(tf.ones((6, 8)))
    X[:, 2:6].assign(tf.zeros(X[:, 2:6].shape))
    out["X"] = X
    K = d2l.tensor([[1.0, -1.0]])
    Y = corr2d(X, K)
    out["Y"] = Y
    out["Y_transposed"] = corr2d(d2l.transpose(X), K)

    # Construct a two-dimensional convolutional layer with 1 output channel and a
    # kernel of shape (1, 2). For the sake of simplicity, we ignore the bias here
    conv2d = tf.keras.layers.Conv2D(1, (1, 2), use_bias=False)
    conv2d.build((1, 6, 8, 1))
    fixed_weights(conv2d.weights, seed=1, scale=0.5)
    # The two-dimensional convolutional layer uses four-dimensional input and
    # output in the format of (example, height, width, channel), where the batch
    # size (number of examples in the batch) and the number of channels are both 1
    X = tf.reshape(X, (1, 6, 8, 1))
    Y = tf.reshape(Y, (1, 6, 7, 1))
    lr = 3e-2  # Learning rate
    Y_hat = conv2d(X)
    losses = []
    for i in range(10):
        with tf.GradientTape(watch_accessed_variables=False) as g:
            g.watch(conv2d.weights[0])
            Y_hat = conv2d(X)
            l = (abs(Y_hat - Y)) ** 2
            # Update the kernel
            update = tf.multiply(lr, g.gradient(l, conv2d.weights[0]))
            weights = conv2d.get_weights()
            weights[0] = conv2d.weights[0] - update
            conv2d.set_weights(weights)
            if (i + 1) % 2 == 0:
                print(f'epoch {i + 1}, loss {tf.reduce_sum(l):.3f}')
                losses.append(tf.reduce_sum(l))
    out["losses"] = losses
    out["kernel"] = d2l.reshape(conv2d.get_weights()[0], (1, 2))
    return out
