# After: https://www.tensorflow.org/guide/keras/customizing_what_happens_in_fit
# ("A first simple example": CustomModel.train_step with compiled_loss and
# compiled_metrics, then compile and fit)
# Adapted: seeded random data as in the guide but from NumPy, fixed starting weights,
# shuffle=False so that batches come in TensorFlow's order.
import numpy as np
import tensorflow as tf
from tensorflow import keras

from adapt import fixed_weights


class CustomModel(keras.Model):
    def train_step(self, data):
        # Unpack the data. Its structure depends on your model and
        # on what you pass to `fit()`.
        x, y = data

        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)  # Forward pass
            # Compute the loss value
            # (the loss function is configured in `compile()`)
            loss = self.compiled_loss(y, y_pred, regularization_losses=self.losses)

        # Compute gradients
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        # Update weights
        self.optimizer.apply_gradients(zip(gradients, trainable_vars))
        # Update metrics (includes the metric that tracks the loss)
        self.compiled_metrics.update_state(y, y_pred)
        # Return a dict mapping metric names to current value
        return {m.name: m.result() for m in self.metrics}


def main():
    # Construct and compile an instance of CustomModel
    inputs = keras.Input(shape=(32,))
    outputs = keras.layers.Dense(1)(inputs)
    model = CustomModel(inputs, outputs)
    fixed_weights(model.trainable_variables)
    model.compile(optimizer="adam", loss="mse", metrics=["mae"])

    # Just use `fit` as usual
    rng = np.random.default_rng(0)
    x = rng.random((64, 32)).astype(np.float32)
    y = rng.random((64, 1)).astype(np.float32)
    history = model.fit(x, y, epochs=3, verbose=0, shuffle=False)
    return {"loss": history.history["loss"], "mae": history.history["mae"],
            "kernel": model.layers[1].kernel, "bias": model.layers[1].bias}
