# After: https://keras.io/examples/vision/mnist_convnet/ (Sequential convnet: Conv2D 3x3,
# MaxPooling2D, Conv2D, MaxPooling2D, Flatten, Dropout, Dense softmax; compile with
# categorical_crossentropy and adam, fit with batch_size and validation_split)
# Adapted: 32 seeded synthetic 28x28 "digits", fixed starting weights, one epoch,
# shuffle=False, Dropout rate 0 (its random mask is not reproducible across frameworks).
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

from adapt import data, fixed_weights, labels


def main():
    # Model / data parameters
    num_classes = 10
    input_shape = (28, 28, 1)

    x_train = data(0, 32, 28, 28, low=0, high=1)
    y_train = labels(1, 32, num_classes)
    # Make sure images have shape (28, 28, 1)
    x_train = np.expand_dims(x_train, -1)
    # convert class vectors to binary class matrices
    y_train = keras.utils.to_categorical(y_train, num_classes)

    model = keras.Sequential(
        [
            keras.Input(shape=input_shape),
            layers.Conv2D(8, kernel_size=(3, 3), activation="relu"),
            layers.MaxPooling2D(pool_size=(2, 2)),
            layers.Conv2D(8, kernel_size=(3, 3), activation="relu"),
            layers.MaxPooling2D(pool_size=(2, 2)),
            layers.Flatten(),
            layers.Dropout(0.0),
            layers.Dense(num_classes, activation="softmax"),
        ]
    )
    fixed_weights(model.trainable_variables, scale=0.2)
    batch_size = 8
    epochs = 1
    model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])
    history = model.fit(x_train, y_train, batch_size=batch_size, epochs=epochs,
                        validation_split=0.25, verbose=0, shuffle=False)
    return {"history": history.history, "weights": model.trainable_variables}
