# After: https://keras.io/examples/keras_recipes/quasi_svm/ (the tf.keras version: a
# Sequential of Input, RandomFourierFeatures(output_dim=4096, scale=10.0,
# kernel_initializer="gaussian") and Dense(10), compiled with Adam(1e-3), keras.losses.hinge
# and CategoricalAccuracy, on keras.utils.to_categorical labels, fit with validation_split)
# Adapted: 50 seeded synthetic 784-pixel rows instead of MNIST, 2 epochs with batch_size 128
# (one batch per epoch); every weight (the random features' too) fixed.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from tensorflow.keras.layers.experimental import RandomFourierFeatures
from adapt import data, fixed_weights, labels


def main():
    model = keras.Sequential(
        [
            keras.Input(shape=(784,)),
            RandomFourierFeatures(
                output_dim=4096, scale=10.0, kernel_initializer="gaussian"
            ),
            layers.Dense(units=10),
        ]
    )
    fixed_weights(model.weights, seed=5, scale=0.1)
    model.compile(
        optimizer=keras.optimizers.Adam(learning_rate=1e-3),
        loss=keras.losses.hinge,
        metrics=[keras.metrics.CategoricalAccuracy(name="acc")],
    )

    x_train = np.round(data(1, 50, 784, low=0, high=255))
    y_train = labels(2, 50, 10)
    # Preprocess the data by flattening & scaling it
    x_train = x_train.reshape(-1, 784).astype("float32") / 255

    # Categorical (one hot) encoding of the labels
    y_train = keras.utils.to_categorical(y_train)

    history = model.fit(x_train, y_train, epochs=2, batch_size=128, validation_split=0.2,
                        verbose=0)
    return {"history": history.history, "n_weights": len(model.weights),
            "outputs": model(x_train[:3])}
