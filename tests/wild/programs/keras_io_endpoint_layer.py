# After: https://keras.io/examples/keras_recipes/endpoint_layer_pattern/ (the tf.keras version:
# a LogisticEndpoint layer computing its loss with add_loss and its accuracy with add_metric,
# a functional model over a dict of inputs, compile without a loss, fit on a dict)
# Adapted: 12 seeded synthetic rows instead of random ones, fixed weights, 2 epochs.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import data, fixed_weights


class LogisticEndpoint(keras.layers.Layer):
    def __init__(self, name=None):
        super(LogisticEndpoint, self).__init__(name=name)
        self.loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)
        self.accuracy_fn = keras.metrics.BinaryAccuracy(name="accuracy")

    def call(self, logits, targets=None, sample_weight=None):
        if targets is not None:
            # Compute the training-time loss value and add it
            # to the layer using `self.add_loss()`.
            loss = self.loss_fn(targets, logits, sample_weight)
            self.add_loss(loss)

            # Log the accuracy as a metric (we could log arbitrary metrics,
            # including different metrics for training and inference.
            self.add_metric(self.accuracy_fn(targets, logits, sample_weight))

        # Return the inference-time prediction tensor (for `.predict()`).
        return tf.nn.softmax(logits)


def main():
    inputs = keras.Input((764,), name="inputs")
    logits = keras.layers.Dense(1)(inputs)
    targets = keras.Input((1,), name="targets")
    sample_weight = keras.Input((1,), name="sample_weight")
    preds = LogisticEndpoint()(logits, targets, sample_weight)
    model = keras.Model([inputs, targets, sample_weight], preds)
    fixed_weights(model.trainable_weights, seed=1, scale=0.05)

    data_ = {
        "inputs": data(2, 12, 764),
        "targets": (data(3, 12, 1) > 0).astype("float32"),
        "sample_weight": data(4, 12, 1, low=0.0, high=1.0),
    }

    model.compile(keras.optimizers.Adam(1e-3))
    history = model.fit(data_, epochs=2, verbose=0)
    preds_out = model.predict(data_, verbose=0)
    return {"history": history.history, "preds": preds_out[:3],
            "kernel_sum": tf.reduce_sum(model.trainable_weights[0])}
