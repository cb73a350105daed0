# After: https://www.tensorflow.org/guide/keras/customizing_what_happens_in_fit
# ("Going lower-level": loss_tracker and mae_metric as keras.metrics, the `metrics`
# property, compile(optimizer="adam") without a loss; and "Providing your own evaluation
# step": test_step)
# Adapted: seeded random data from NumPy, fixed starting weights, shuffle=False.
import numpy as np
import tensorflow as tf
from tensorflow import keras

from adapt import fixed_weights

loss_tracker = keras.metrics.Mean(name="loss")
mae_metric = keras.metrics.MeanAbsoluteError(name="mae")


class CustomModel(keras.Model):
    def train_step(self, data):
        x, y = data

        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)  # Forward pass
            # Compute our own loss
            loss = keras.losses.mean_squared_error(y, y_pred)

        # Compute gradients
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)

        # Update weights
        self.optimizer.apply_gradients(zip(gradients, trainable_vars))

        # Compute our own metrics
        loss_tracker.update_state(loss)
        mae_metric.update_state(y, y_pred)
        return {"loss": loss_tracker.result(), "mae": mae_metric.result()}

    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        loss = keras.losses.mean_squared_error(y, y_pred)
        loss_tracker.update_state(loss)
        mae_metric.update_state(y, y_pred)
        return {"loss": loss_tracker.result(), "mae": mae_metric.result()}

    @property
    def metrics(self):
        # We list our `Metric` objects here so that `reset_states()` can be
        # called automatically at the start of each epoch
        # or at the start of `evaluate()`.
        return [loss_tracker, mae_metric]


def main():
    inputs = keras.Input(shape=(32,))
    outputs = keras.layers.Dense(1)(inputs)
    model = CustomModel(inputs, outputs)
    fixed_weights(model.trainable_variables)

    # We don't pass a loss or metrics here.
    model.compile(optimizer="adam")

    rng = np.random.default_rng(0)
    x = rng.random((64, 32)).astype(np.float32)
    y = rng.random((64, 1)).astype(np.float32)
    history = model.fit(x, y, epochs=3, verbose=0, shuffle=False)
    evaluated = model.evaluate(x, y, verbose=0)
    return {"loss": history.history["loss"], "mae": history.history["mae"],
            "evaluate": evaluated, "kernel": model.layers[1].kernel}
