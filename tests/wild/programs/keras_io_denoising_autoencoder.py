# After: https://keras.io/examples/vision/autoencoder/ (the tf.keras version: preprocess,
# noise, a functional Conv2D/MaxPooling2D encoder and Conv2DTranspose decoder compiled with
# binary_crossentropy, fit on clean images, then fit on noisy ones; predict)
# Adapted: 12 seeded synthetic 28x28 "digits" instead of MNIST, 8 filters instead of 32, one
# epoch each; noise from a seeded NumPy generator (the example uses np.random.normal too);
# fixed weights; shuffle=False (fit's shuffling order differs).
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers
from tensorflow.keras.models import Model
from adapt import data, fixed_weights


def preprocess(array):
    """Normalizes the supplied array and reshapes it."""
    array = array.astype("float32") / 255.0
    array = np.reshape(array, (len(array), 28, 28, 1))
    return array


def noise(array):
    """Adds random noise to each image in the supplied array."""
    noise_factor = 0.4
    noisy_array = array + noise_factor * np.random.default_rng(9).normal(
        loc=0.0, scale=1.0, size=array.shape
    )
    return np.clip(noisy_array, 0.0, 1.0)


def main():
    train_data = preprocess(np.round(data(1, 8, 28, 28, low=0, high=255)))
    test_data = preprocess(np.round(data(2, 4, 28, 28, low=0, high=255)))
    noisy_train_data = noise(train_data)
    noisy_test_data = noise(test_data)

    input = layers.Input(shape=(28, 28, 1))

    # Encoder
    x = layers.Conv2D(8, (3, 3), activation="relu", padding="same")(input)
    x = layers.MaxPooling2D((2, 2), padding="same")(x)
    x = layers.Conv2D(8, (3, 3), activation="relu", padding="same")(x)
    x = layers.MaxPooling2D((2, 2), padding="same")(x)

    # Decoder
    x = layers.Conv2DTranspose(8, (3, 3), strides=2, activation="relu", padding="same")(x)
    x = layers.Conv2DTranspose(8, (3, 3), strides=2, activation="relu", padding="same")(x)
    x = layers.Conv2D(1, (3, 3), activation="sigmoid", padding="same")(x)

    # Autoencoder
    autoencoder = Model(input, x)
    autoencoder.compile(optimizer="adam", loss="binary_crossentropy")
    fixed_weights(autoencoder.trainable_weights, seed=3, scale=0.3)

    h1 = autoencoder.fit(
        x=train_data,
        y=train_data,
        epochs=1,
        batch_size=4,
        shuffle=False,
        validation_data=(test_data, test_data),
        verbose=0,
    )
    predictions = autoencoder.predict(test_data, verbose=0)
    h2 = autoencoder.fit(
        x=noisy_train_data,
        y=train_data,
        epochs=1,
        batch_size=4,
        shuffle=False,
        validation_data=(noisy_test_data, test_data),
        verbose=0,
    )
    predictions2 = autoencoder.predict(noisy_test_data, verbose=0)
    return {"h1": h1.history, "h2": h2.history, "pred_mean": predictions.mean(),
            "pred2_corner": predictions2[:, :3, :3, 0],
            "params": autoencoder.count_params()}
