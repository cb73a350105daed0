# After: https://d2l.ai/chapter_linear-regression/linear-regression-scratch.html (the
# TensorFlow tab of the first edition, "Linear Regression Implementation from Scratch":
# synthetic_data, data_iter with random.shuffle and tf.gather, linreg, squared_loss, the
# minibatch sgd with assign_sub, the GradientTape training loop, and the error in
# estimating w and b)
# Adapted: the noise in synthetic_data drawn by seeded NumPy instead of tf.random.normal
# (whose stream differs between libraries), 200 examples instead of 1000; w starts at fixed
# values instead of tf.random.normal; random.seed(0) for data_iter's shuffle (Python's own
# generator, the same in both libraries).
import random

import numpy as np
import tensorflow as tf

RNG = np.random.default_rng(3)


def synthetic_data(w, b, num_examples):  #@save
    """Generate y = Xw + b + noise."""
    X = tf.zeros((num_examples, w.shape[0]))
    X += tf.constant(RNG.normal(size=X.shape).astype(np.float32))
    y = tf.matmul(X, tf.reshape(w, (-1, 1))) + b
    y += tf.constant(RNG.normal(scale=0.01, size=y.shape).astype(np.float32))
    y = tf.reshape(y, (-1, 1))
    return X, y


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    # The examples are read at random, in no particular order
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        j = tf.constant(indices[i: min(i + batch_size, num_examples)])
        yield tf.gather(features, j), tf.gather(labels, j)


def linreg(X, w, b):  #@save
    """The linear regression model."""
    return tf.matmul(X, w) + b


def squared_loss(y_hat, y):  #@save
    """Squared loss."""
    return (y_hat - tf.reshape(y, y_hat.shape)) ** 2 / 2


def sgd(params, grads, lr, batch_size):  #@save
    """Minibatch stochastic gradient descent."""
    for param, grad in zip(params, grads):
        param.assign_sub(lr*grad/batch_size)


def main():
    random.seed(0)
    true_w = tf.constant([2, -3.4])
    true_b = 4.2
    features, labels = synthetic_data(true_w, true_b, 200)

    batch_size = 10
    first_X, first_y = next(data_iter(batch_size, features, labels))

    w = tf.Variable(tf.constant([[0.01], [-0.02]]), trainable=True)
    b = tf.Variable(tf.zeros(1), trainable=True)

    lr = 0.03
    num_epochs = 3
    net = linreg
    loss = squared_loss

    epoch_losses = []
    for epoch in range(num_epochs):
        for X, y in data_iter(batch_size, features, labels):
            with tf.GradientTape() as g:
                l = loss(net(X, w, b), y)  # Minibatch loss in `X` and `y`
            # Compute gradient on l with respect to [`w`, `b`]
            dw, db = g.gradient(l, [w, b])
            # Update parameters using their gradient
            sgd([w, b], [dw, db], lr, batch_size)
        train_l = loss(net(features, w, b), labels)
        print(f'epoch {epoch + 1}, loss {float(tf.reduce_mean(train_l)):f}')
        epoch_losses.append(float(tf.reduce_mean(train_l)))

    w_error = true_w - tf.reshape(w, true_w.shape)
    b_error = true_b - b
    print(f'error in estimating w: {w_error}')
    print(f'error in estimating b: {b_error}')
    return {"features_head": features[:3], "first_X": first_X, "epoch_losses": epoch_losses,
            "w": w, "b": b, "w_error": w_error, "b_error": b_error}
