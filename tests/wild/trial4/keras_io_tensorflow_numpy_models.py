# After: https://keras.io/examples/keras_recipes/tensorflow_numpy_models/ (the version for
# TensorFlow 2: tnp.experimental_enable_numpy_behavior, the TNPForwardFeedRegressionNetwork
# Model subclass with weights from add_weight and a tnp forward pass, the tnp_mse loss,
# TNPDense layers in a Sequential, a model mixing TNPDense and Dense, the same under
# tf.distribute.get_strategy(), each compiled with adam and MeanAbsolutePercentageError and
# run through evaluate_model's evaluate/fit/evaluate)
# Adapted: 32 seeded synthetic rows of the 13 Boston housing features to train (one batch
# of 32, so fit's shuffle cannot change a step) and 16 to test instead of the download,
# 3 epochs instead of 200; each model built before evaluate_model (the subclassed ones
# called once on a test row) and its weights fixed; the TensorBoard part left out
# (TensorBoard is not installed where the answers were recorded). For TensorFlow 2.21
# itself: the example's `import keras` and `import keras.layers as layers`, which meant
# tf.keras when it was written, are `from tensorflow import keras` and
# `from tensorflow.keras import layers` (`import keras` is Keras 3 now).
import tensorflow as tf
import tensorflow.experimental.numpy as tnp
from tensorflow import keras
from tensorflow.keras import layers
import numpy as np
from adapt import data, fixed_weights

tnp.experimental_enable_numpy_behavior()

x_train, x_test = data(1, 32, 13, low=0, high=100), data(2, 16, 13, low=0, high=100)
y_train, y_test = data(3, 32, low=5, high=50), data(4, 16, low=5, high=50)
RESULTS = []


def evaluate_model(model: keras.Model):
    [loss, percent_error] = model.evaluate(x_test, y_test, verbose=0)
    print("Mean absolute percent error before training: ", percent_error)
    history = model.fit(x_train, y_train, epochs=3, verbose=0)
    [loss, percent_error] = model.evaluate(x_test, y_test, verbose=0)
    print("Mean absolute percent error after training:", percent_error)
    RESULTS.append([history.history, loss, percent_error])


class TNPForwardFeedRegressionNetwork(keras.Model):
    def __init__(self, blocks=None, **kwargs):
        super(TNPForwardFeedRegressionNetwork, self).__init__(**kwargs)
        if not isinstance(blocks, list):
            raise ValueError(f"blocks must be a list, got blocks={blocks}")
        self.blocks = blocks
        self.block_weights = None
        self.biases = None

    def build(self, input_shape):
        current_shape = input_shape[1]
        self.block_weights = []
        self.biases = []
        for i, block in enumerate(self.blocks):
            self.block_weights.append(
                self.add_weight(
                    shape=(current_shape, block), trainable=True, name=f"block-{i}"
                )
            )
            self.biases.append(
                self.add_weight(shape=(block,), trainable=True, name=f"bias-{i}")
            )
            current_shape = block

        self.linear_layer = self.add_weight(
            shape=(current_shape, 1), name="linear_projector", trainable=True
        )

    def call(self, inputs):
        activations = inputs
        for w, b in zip(self.block_weights, self.biases):
            activations = tnp.matmul(activations, w) + b
            # ReLu activation function
            activations = tnp.maximum(activations, 0.0)

        return tnp.matmul(activations, self.linear_layer)


def tnp_mse(y_true, y_pred):
    return tnp.mean(tnp.square(y_true - y_pred), axis=0)


def tnp_relu(x):
    return tnp.maximum(x, 0)


class TNPDense(keras.layers.Layer):
    def __init__(self, units, activation=None):
        super().__init__()
        self.units = units
        self.activation = activation

    def build(self, input_shape):
        self.w = self.add_weight(
            name="weights",
            shape=(input_shape[1], self.units),
            initializer="random_normal",
            trainable=True,
        )
        self.bias = self.add_weight(
            name="bias",
            shape=(self.units,),
            initializer="random_normal",
            trainable=True,
        )

    def call(self, inputs):
        outputs = tnp.matmul(inputs, self.w) + self.bias
        if self.activation:
            return self.activation(outputs)
        return outputs


def create_layered_tnp_model():
    return keras.Sequential(
        [
            TNPDense(3, activation=tnp_relu),
            TNPDense(3, activation=tnp_relu),
            TNPDense(1),
        ]
    )


def create_mixed_model():
    return keras.Sequential(
        [
            TNPDense(3, activation=tnp_relu),
            # The model will have no issue using a normal Dense layer
            layers.Dense(3, activation="relu"),
            # ... or switching back to tnp layers!
            TNPDense(1),
        ]
    )


def main():
    model = TNPForwardFeedRegressionNetwork(blocks=[3, 3])
    model.compile(
        optimizer="adam",
        loss="mean_squared_error",
        metrics=[keras.metrics.MeanAbsolutePercentageError()],
    )
    model(x_test[:1])
    fixed_weights(model.weights, seed=5, scale=0.3)
    evaluate_model(model)

    keras.backend.clear_session()
    model = TNPForwardFeedRegressionNetwork(blocks=[3, 3])
    model.compile(
        optimizer="adam",
        loss=tnp_mse,
        metrics=[keras.metrics.MeanAbsolutePercentageError()],
    )
    model(x_test[:1])
    fixed_weights(model.weights, seed=6, scale=0.3)
    evaluate_model(model)

    model = create_layered_tnp_model()
    model.compile(
        optimizer="adam",
        loss="mean_squared_error",
        metrics=[keras.metrics.MeanAbsolutePercentageError()],
    )
    model.build(
        (
            None,
            13,
        )
    )
    model.summary()
    fixed_weights(model.weights, seed=7, scale=0.3)
    evaluate_model(model)

    model = create_mixed_model()
    model.compile(
        optimizer="adam",
        loss="mean_squared_error",
        metrics=[keras.metrics.MeanAbsolutePercentageError()],
    )
    model.build(
        (
            None,
            13,
        )
    )
    model.summary()
    fixed_weights(model.weights, seed=8, scale=0.3)
    evaluate_model(model)

    gpus = tf.config.list_logical_devices("GPU")
    if gpus:
        strategy = tf.distribute.MirroredStrategy(gpus)
    else:
        # We can fallback to a no-op CPU strategy.
        strategy = tf.distribute.get_strategy()
    print("Running with strategy:", str(strategy.__class__.__name__))

    with strategy.scope():
        model = create_layered_tnp_model()
        model.compile(
            optimizer="adam",
            loss="mean_squared_error",
            metrics=[keras.metrics.MeanAbsolutePercentageError()],
        )
        model.build(
            (
                None,
                13,
            )
        )
        model.summary()
        fixed_weights(model.weights, seed=9, scale=0.3)
        evaluate_model(model)
    return {"results": RESULTS, "strategy": str(strategy.__class__.__name__),
            "weights": model.weights}
