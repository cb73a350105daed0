# After: https://keras.io/examples/keras_recipes/trainer_pattern/ (the tf.keras version:
# MyTrainer, a keras.Model wrapping another model, with its own loss_fn and
# SparseCategoricalAccuracy, the metrics property, train_step, test_step and call; two
# trainers of one shared model compiled with different optimizers, fit with validation_data)
# Adapted: 48 seeded synthetic 28x28 images instead of MNIST, 2 epochs of batch_size 48
# (one batch per epoch); fixed weights; the Dropout(0.2) layer left out (its random masks
# differ between libraries).
import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import data, fixed_weights, labels


class MyTrainer(keras.Model):
    def __init__(self, model):
        super().__init__()
        self.model = model
        # Create loss and metrics here.
        self.loss_fn = keras.losses.SparseCategoricalCrossentropy()
        self.accuracy_metric = keras.metrics.SparseCategoricalAccuracy()

    @property
    def metrics(self):
        # List metrics here.
        return [self.accuracy_metric]

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self.model(x, training=True)  # Forward pass
            # Compute loss value
            loss = self.loss_fn(y, y_pred)

        # Compute gradients
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)

        # Update weights
        self.optimizer.apply_gradients(zip(gradients, trainable_vars))

        # Update metrics
        for metric in self.metrics:
            metric.update_state(y, y_pred)

        # Return a dict mapping metric names to current value.
        return {m.name: m.result() for m in self.metrics}

    def test_step(self, data):
        x, y = data

        # Inference step
        y_pred = self.model(x, training=False)

        # Update metrics
        for metric in self.metrics:
            metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}

    def call(self, x):
        # Equivalent to `call()` of the wrapped keras.Model
        x = self.model(x)
        return x


def main():
    x_train = np.round(data(1, 48, 28, 28, low=0, high=255)) / 255.0
    x_test = np.round(data(2, 16, 28, 28, low=0, high=255)) / 255.0
    y_train, y_test = labels(3, 48, 10), labels(4, 16, 10)

    model_a = keras.models.Sequential(
        [
            keras.layers.Flatten(input_shape=(28, 28)),
            keras.layers.Dense(256, activation="relu"),
            keras.layers.Dense(10, activation="softmax"),
        ]
    )
    fixed_weights(model_a.trainable_variables, seed=5, scale=0.1)

    trainer_1 = MyTrainer(model_a)
    trainer_2 = MyTrainer(model_a)

    trainer_1.compile(optimizer=keras.optimizers.SGD())
    h1 = trainer_1.fit(
        x_train, y_train, epochs=2, batch_size=48, validation_data=(x_test, y_test),
        verbose=0
    )

    trainer_2.compile(optimizer=keras.optimizers.Adam())
    h2 = trainer_2.fit(
        x_train, y_train, epochs=2, batch_size=48, validation_data=(x_test, y_test),
        verbose=0
    )
    return {"trainer_1": h1.history, "trainer_2": h2.history,
            "predictions": trainer_2.predict(x_test[:3], verbose=0)}
