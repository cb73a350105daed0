# After: https://github.com/fchollet/deep-learning-with-python-notebooks (second_edition/
# chapter02_mathematical-building-blocks.ipynb: the first Keras model with rmsprop and fit,
# the GradientTape examples, NaiveDense, NaiveSequential, BatchGenerator,
# one_training_step, update_weights by hand and then with optimizers.SGD, the hand-written
# fit, and the accuracy on the test images)
# Adapted: 128 seeded synthetic 28x28 "images" and labels instead of MNIST (one batch of 128
# per epoch, so fit's shuffle cannot change a step), 2 epochs instead of 5 and 10; the
# Keras model built with model.build(...) so fixed weights can be set before fit, and the
# NaiveDense weights (tf.random.uniform) and the GradientTape examples' tf.random.uniform
# values replaced by fixed seeded values.
import math

import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import data, fixed_weights, labels


class NaiveDense:
    def __init__(self, input_size, output_size, activation):
        self.activation = activation

        w_shape = (input_size, output_size)
        w_initial_value = tf.random.uniform(w_shape, minval=0, maxval=1e-1)
        self.W = tf.Variable(w_initial_value)

        b_shape = (output_size,)
        b_initial_value = tf.zeros(b_shape)
        self.b = tf.Variable(b_initial_value)

    def __call__(self, inputs):
        return self.activation(tf.matmul(inputs, self.W) + self.b)

    @property
    def weights(self):
        return [self.W, self.b]


class NaiveSequential:
    def __init__(self, layers):
        self.layers = layers

    def __call__(self, inputs):
        x = inputs
        for layer in self.layers:
           x = layer(x)
        return x

    @property
    def weights(self):
       weights = []
       for layer in self.layers:
           weights += layer.weights
       return weights


class BatchGenerator:
    def __init__(self, images, labels, batch_size=128):
        assert len(images) == len(labels)
        self.index = 0
        self.images = images
        self.labels = labels
        self.batch_size = batch_size
        self.num_batches = math.ceil(len(images) / batch_size)

    def next(self):
        images = self.images[self.index : self.index + self.batch_size]
        labels = self.labels[self.index : self.index + self.batch_size]
        self.index += self.batch_size
        return images, labels


def main():
    out = {}
    x = tf.Variable(0.)
    with tf.GradientTape() as tape:
        y = 2 * x + 3
    grad_of_y_wrt_x = tape.gradient(y, x)
    out["grad_of_y_wrt_x"] = grad_of_y_wrt_x

    W = tf.Variable(tf.constant(data(20, 2, 2, low=0.0)))
    b = tf.Variable(tf.zeros((2,)))
    x = tf.constant(data(21, 2, 2, low=0.0))
    with tf.GradientTape() as tape:
        y = tf.matmul(x, W) + b
    grad_of_y_wrt_W_and_b = tape.gradient(y, [W, b])
    out["grad_of_y_wrt_W_and_b"] = grad_of_y_wrt_W_and_b

    train_images = data(1, 128, 28, 28, low=0, high=255).round()
    train_labels = labels(2, 128, 10)
    test_images = data(3, 64, 28, 28, low=0, high=255).round()
    test_labels = labels(4, 64, 10)
    train_images = train_images.reshape((128, 28 * 28))
    train_images = train_images.astype("float32") / 255
    test_images = test_images.reshape((64, 28 * 28))
    test_images = test_images.astype("float32") / 255

    model = keras.Sequential([
        layers.Dense(512, activation="relu"),
        layers.Dense(10, activation="softmax")
    ])
    model.build(input_shape=(None, 28 * 28))
    fixed_weights(model.weights, seed=5, scale=0.05)
    model.compile(optimizer="rmsprop",
                  loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    history = model.fit(train_images, train_labels, epochs=2, batch_size=128, verbose=0)
    out["keras_history"] = history.history

    model = NaiveSequential([
        NaiveDense(input_size=28 * 28, output_size=512, activation=tf.nn.relu),
        NaiveDense(input_size=512, output_size=10, activation=tf.nn.softmax)
    ])
    assert len(model.weights) == 4
    fixed_weights(model.weights[::2], seed=6, scale=0.05)

    learning_rate = 1e-3

    def update_weights(gradients, weights):
        for g, w in zip(gradients, weights):
            w.assign_sub(g * learning_rate)

    losses = []

    def one_training_step(model, images_batch, labels_batch):
        with tf.GradientTape() as tape:
            predictions = model(images_batch)
            per_sample_losses = tf.keras.losses.sparse_categorical_crossentropy(
                labels_batch, predictions)
            average_loss = tf.reduce_mean(per_sample_losses)
        gradients = tape.gradient(average_loss, model.weights)
        update_weights(gradients, model.weights)
        return average_loss

    def fit(model, images, labels, epochs, batch_size=128):
        for epoch_counter in range(epochs):
            print(f"Epoch {epoch_counter}")
            batch_generator = BatchGenerator(images, labels)
            for batch_counter in range(batch_generator.num_batches):
                images_batch, labels_batch = batch_generator.next()
                loss = one_training_step(model, images_batch, labels_batch)
                losses.append(loss)
                if batch_counter % 100 == 0:
                    print(f"loss at batch {batch_counter}: {loss:.2f}")

    fit(model, train_images, train_labels, epochs=2, batch_size=128)
    out["hand_update_losses"] = losses

    from tensorflow.keras import optimizers

    optimizer = optimizers.SGD(learning_rate=1e-3)

    def update_weights(gradients, weights):  # noqa: F811 - the notebook redefines it
        optimizer.apply_gradients(zip(gradients, weights))

    losses = []
    fit(model, train_images, train_labels, epochs=2, batch_size=128)
    out["sgd_losses"] = losses
    # a corner of each weight
    out["weights"] = [w[:4, :8] if len(w.shape) == 2 else w[:8] for w in model.weights]

    predictions = model(test_images)
    predictions = predictions.numpy()
    predicted_labels = np.argmax(predictions, axis=1)
    matches = predicted_labels == test_labels
    print(f"accuracy: {matches.mean():.2f}")
    out["accuracy"] = float(matches.mean())
    return out
