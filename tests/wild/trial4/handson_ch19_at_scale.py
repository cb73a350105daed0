# After: https://github.com/ageron/handson-ml2 (19_training_and_deploying_at_scale.ipynb:
# the MNIST MLP with SGD(learning_rate=1e-2), fit with validation_data and
# np.round(model.predict(X_new), 2); create_model's CNN (Conv2D 7x7 and 3x3 with padding
# "same", MaxPooling2D, Dense) with batch_size=100; the same model compiled and fit inside a
# MirroredStrategy scope, and predict)
# Adapted: 100 seeded synthetic 28x28 images to train, 50 to validate, 3 new ones instead
# of MNIST (one batch of 100, so fit's shuffle cannot change a step; the MLP's fit gets
# batch_size=100 for the same reason), 2 epochs instead of 10; the Dropout(0.5) layer left
# out (random masks); fixed weights; the custom loop with make_dataset_iterator and
# experimental_run (TensorFlow 1 APIs that TensorFlow 2.21 no longer has), the cluster and
# TF Serving parts left out.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import data, fixed_weights, labels


def create_model():
    return keras.models.Sequential([
        keras.layers.Conv2D(filters=64, kernel_size=7, activation="relu",
                            padding="same", input_shape=[28, 28, 1]),
        keras.layers.MaxPooling2D(pool_size=2),
        keras.layers.Conv2D(filters=128, kernel_size=3, activation="relu",
                            padding="same"),
        keras.layers.Conv2D(filters=128, kernel_size=3, activation="relu",
                            padding="same"),
        keras.layers.MaxPooling2D(pool_size=2),
        keras.layers.Flatten(),
        keras.layers.Dense(units=64, activation='relu'),
        keras.layers.Dense(units=10, activation='softmax'),
    ])


def main():
    out = {}
    X_train_full = data(1, 150, 28, 28, low=0, high=255).round().astype(np.uint8)
    y_train_full = labels(2, 150, 10).astype(np.uint8)
    X_test = data(3, 3, 28, 28, low=0, high=255).round().astype(np.uint8)
    X_train_full = X_train_full[..., np.newaxis].astype(np.float32) / 255.
    X_test = X_test[..., np.newaxis].astype(np.float32) / 255.
    X_valid, X_train = X_train_full[:50], X_train_full[50:]
    y_valid, y_train = y_train_full[:50], y_train_full[50:]
    X_new = X_test[:3]

    np.random.seed(42)
    tf.random.set_seed(42)
    model = keras.models.Sequential([
        keras.layers.Flatten(input_shape=[28, 28, 1]),
        keras.layers.Dense(100, activation="relu"),
        keras.layers.Dense(10, activation="softmax")
    ])
    fixed_weights(model.weights, seed=4, scale=0.05)
    model.compile(loss="sparse_categorical_crossentropy",
                  optimizer=keras.optimizers.SGD(learning_rate=1e-2),
                  metrics=["accuracy"])
    out["mlp_history"] = model.fit(X_train, y_train, epochs=2, batch_size=100,
                                   validation_data=(X_valid, y_valid)).history
    out["mlp_predict"] = np.round(model.predict(X_new), 2)

    keras.backend.clear_session()
    tf.random.set_seed(42)
    np.random.seed(42)
    batch_size = 100
    model = create_model()
    fixed_weights(model.weights, seed=5, scale=0.05)
    model.compile(loss="sparse_categorical_crossentropy",
                  optimizer=keras.optimizers.SGD(learning_rate=1e-2),
                  metrics=["accuracy"])
    out["cnn_history"] = model.fit(X_train, y_train, epochs=2,
                                   validation_data=(X_valid, y_valid),
                                   batch_size=batch_size).history

    keras.backend.clear_session()
    tf.random.set_seed(42)
    np.random.seed(42)
    distribution = tf.distribute.MirroredStrategy()
    with distribution.scope():
        model = create_model()
        fixed_weights(model.weights, seed=6, scale=0.05)
        model.compile(loss="sparse_categorical_crossentropy",
                      optimizer=keras.optimizers.SGD(learning_rate=1e-2),
                      metrics=["accuracy"])
    batch_size = 100 # must be divisible by the number of workers
    out["mirrored_history"] = model.fit(X_train, y_train, epochs=2,
                                        validation_data=(X_valid, y_valid),
                                        batch_size=batch_size).history
    out["mirrored_predict"] = model.predict(X_new)
    return out
