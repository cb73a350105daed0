# After: https://d2l.ai/chapter_linear-classification/softmax-regression-scratch.html and
# softmax-regression-concise.html (the TensorFlow tabs of the first edition: softmax,
# net, cross_entropy with tf.boolean_mask, accuracy, Accumulator, evaluate_accuracy,
# Updater, train_epoch_ch3 with its isinstance checks on tf.keras.losses.Loss and
# tf.keras.optimizers.Optimizer; then the concise Sequential of Flatten and Dense with a
# RandomNormal initializer, SparseCategoricalCrossentropy(from_logits=True) and SGD(0.1))
# Adapted: 60 seeded synthetic uint8 28x28 images instead of Fashion-MNIST, loaded by the
# book's own `process` into tf.data batches of 20 (the book's shuffle of batches and
# resize left out), 2 epochs; W and the Dense kernel fixed; train_ch3's Animator plot and
# its asserts on Fashion-MNIST accuracy left out.
import numpy as np
import tensorflow as tf
from adapt import fixed_weights, labels


class Accumulator:  #@save
    """For accumulating sums over `n` variables."""
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


def softmax(X):
    X_exp = tf.exp(X)
    partition = tf.reduce_sum(X_exp, 1, keepdims=True)
    return X_exp / partition  # The broadcasting mechanism is applied here


def cross_entropy(y_hat, y):
    return -tf.math.log(tf.boolean_mask(
        y_hat, tf.one_hot(y, depth=y_hat.shape[-1])))


def accuracy(y_hat, y):  #@save
    """Compute the number of correct predictions."""
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = tf.argmax(y_hat, axis=1)
    cmp = tf.cast(y_hat, y.dtype) == y
    return float(tf.reduce_sum(tf.cast(cmp, y.dtype)))


def evaluate_accuracy(net, data_iter):  #@save
    """Compute the accuracy for a model on a dataset."""
    metric = Accumulator(2)  # No. of correct predictions, no. of predictions
    for X, y in data_iter:
        metric.add(accuracy(net(X), y), tf.size(y))
    return metric[0] / metric[1]


def sgd(params, grads, lr, batch_size):  #@save
    """Minibatch stochastic gradient descent."""
    for param, grad in zip(params, grads):
        param.assign_sub(lr*grad/batch_size)


class Updater():  #@save
    """For updating parameters using minibatch stochastic gradient descent."""
    def __init__(self, params, lr):
        self.params = params
        self.lr = lr

    def __call__(self, batch_size, grads):
        sgd(self.params, grads, self.lr, batch_size)


def train_epoch_ch3(net, train_iter, loss, updater):  #@save
    """The training loop defined in Chapter 3."""
    # Sum of training loss, sum of training accuracy, no. of examples
    metric = Accumulator(3)
    for X, y in train_iter:
        # Compute gradients and update parameters
        with tf.GradientTape() as tape:
            y_hat = net(X)
            # Keras implementations for loss takes (labels, predictions)
            # instead of (predictions, labels) that users might implement
            # in this book, e.g. `cross_entropy` that we implemented above
            if isinstance(loss, tf.keras.losses.Loss):
                l = loss(y, y_hat)
            else:
                l = loss(y_hat, y)
        if isinstance(updater, tf.keras.optimizers.Optimizer):
            params = net.trainable_variables
            grads = tape.gradient(l, params)
            updater.apply_gradients(zip(grads, params))
        else:
            updater(X.shape[0], tape.gradient(l, updater.params))
        # Keras loss by default returns the average loss in a batch
        l_sum = l * float(tf.size(y)) if isinstance(
            loss, tf.keras.losses.Loss) else tf.reduce_sum(l)
        metric.add(l_sum, accuracy(y_hat, y), tf.size(y))
    # Return training loss and training accuracy
    return metric[0] / metric[2], metric[1] / metric[2]


def train_ch3(net, train_iter, test_iter, loss, num_epochs, updater):  #@save
    """Train a model (defined in Chapter 3)."""
    history = []
    for epoch in range(num_epochs):
        train_metrics = train_epoch_ch3(net, train_iter, loss, updater)
        test_acc = evaluate_accuracy(net, test_iter)
        history.append(list(train_metrics) + [test_acc])
    return history


def main():
    rng = np.random.default_rng(1)
    mnist_train = (rng.integers(0, 256, size=(60, 28, 28)).astype(np.uint8), labels(2, 60, 10))
    mnist_test = (rng.integers(0, 256, size=(20, 28, 28)).astype(np.uint8), labels(3, 20, 10))
    batch_size = 20
    process = lambda X, y: (tf.expand_dims(X, axis=3) / 255,
                            tf.cast(y, dtype='int32'))
    train_iter = tf.data.Dataset.from_tensor_slices(process(*mnist_train)).batch(batch_size)
    test_iter = tf.data.Dataset.from_tensor_slices(process(*mnist_test)).batch(batch_size)

    num_inputs = 784
    num_outputs = 10

    W = tf.Variable(tf.random.normal(shape=(num_inputs, num_outputs),
                                     mean=0, stddev=0.01))
    b = tf.Variable(tf.zeros(num_outputs))
    fixed_weights([W], seed=4, scale=0.01)

    def net(X):
        return softmax(tf.matmul(tf.reshape(X, (-1, W.shape[0])), W) + b)

    y = tf.constant([0, 2])
    y_hat = tf.constant([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
    picked = tf.boolean_mask(y_hat, tf.one_hot(y, depth=y_hat.shape[-1]))
    ce = cross_entropy(y_hat, y)
    acc = accuracy(y_hat, y) / len(y)
    initial_accuracy = evaluate_accuracy(net, test_iter)

    num_epochs = 2
    updater = Updater([W, b], lr=0.1)
    scratch = train_ch3(net, train_iter, test_iter, cross_entropy, num_epochs, updater)

    net = tf.keras.models.Sequential()
    net.add(tf.keras.layers.Flatten(input_shape=(28, 28)))
    weight_initializer = tf.keras.initializers.RandomNormal(mean=0.0, stddev=0.01)
    net.add(tf.keras.layers.Dense(10, kernel_initializer=weight_initializer))
    fixed_weights(net.trainable_variables, seed=5, scale=0.01)
    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    trainer = tf.keras.optimizers.SGD(learning_rate=.1)
    concise = train_ch3(net, train_iter, test_iter, loss, num_epochs, trainer)
    return {"picked": picked, "ce": ce, "acc": acc, "initial_accuracy": initial_accuracy,
            "scratch": scratch, "W_head": W[:3, :3], "concise": concise}
