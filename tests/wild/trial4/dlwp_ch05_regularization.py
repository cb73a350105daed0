# After: https://github.com/fchollet/deep-learning-with-python-notebooks (second_edition/
# chapter05_fundamentals-of-ml.ipynb: noise and zeros channels with get_model and
# validation_split, training on shuffled labels, too high and right learning rates
# (RMSprop(1.) and RMSprop(1e-2)), a small and a larger MNIST model, the IMDB original,
# smaller, larger and L2-regularized models, regularizers.l1 and l1_l2)
# Adapted: 160 seeded synthetic 28x28 images and labels instead of MNIST and 250 synthetic
# reviews instead of IMDB (a batch of 128 or 512 covers each training split, so fit's
# shuffle cannot change a step), 2 epochs instead of 10, 20 and 100; np.random.seed(0) for
# the noise channels and the label shuffle; each model built with model.build(...) and
# given fixed weights (their glorot_uniform draws differ between libraries); the dropout
# model (random masks) and the plots left out.
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
from tensorflow.keras import regularizers
from adapt import data, fixed_weights, labels


def built(model, dim, seed):
    model.build(input_shape=(None, dim))
    fixed_weights(model.weights, seed=seed, scale=0.05)
    return model


def vectorize_sequences(sequences, dimension=10000):
    results = np.zeros((len(sequences), dimension))
    for i, sequence in enumerate(sequences):
        results[i, sequence] = 1.
    return results


def main():
    out = {}
    np.random.seed(0)
    train_images = data(1, 160, 28, 28, low=0, high=255).round()
    train_labels = labels(2, 160, 10)
    train_images = train_images.reshape((160, 28 * 28))
    train_images = train_images.astype("float32") / 255

    train_images_with_noise_channels = np.concatenate(
        [train_images, np.random.random((len(train_images), 784))], axis=1)

    train_images_with_zeros_channels = np.concatenate(
        [train_images, np.zeros((len(train_images), 784))], axis=1)

    def get_model():
        model = keras.Sequential([
            layers.Dense(512, activation="relu"),
            layers.Dense(10, activation="softmax")
        ])
        built(model, 2 * 784, 3)
        model.compile(optimizer="rmsprop",
                      loss="sparse_categorical_crossentropy",
                      metrics=["accuracy"])
        return model

    model = get_model()
    history_noise = model.fit(
        train_images_with_noise_channels, train_labels,
        epochs=2,
        batch_size=128,
        validation_split=0.2)

    model = get_model()
    history_zeros = model.fit(
        train_images_with_zeros_channels, train_labels,
        epochs=2,
        batch_size=128,
        validation_split=0.2)
    out["val_acc_noise"] = history_noise.history["val_accuracy"]
    out["val_acc_zeros"] = history_zeros.history["val_accuracy"]
    out["history_noise"] = history_noise.history

    random_train_labels = train_labels[:]
    np.random.shuffle(random_train_labels)
    model = built(keras.Sequential([
        layers.Dense(512, activation="relu"),
        layers.Dense(10, activation="softmax")
    ]), 784, 4)
    model.compile(optimizer="rmsprop",
                  loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    out["random_labels"] = model.fit(train_images, random_train_labels,
                                     epochs=2,
                                     batch_size=128,
                                     validation_split=0.2).history

    train_labels = labels(2, 160, 10)
    for name, lr in (("lr_1", 1.), ("lr_1e-2", 1e-2)):
        model = built(keras.Sequential([
            layers.Dense(512, activation="relu"),
            layers.Dense(10, activation="softmax")
        ]), 784, 5)
        model.compile(optimizer=keras.optimizers.RMSprop(lr),
                      loss="sparse_categorical_crossentropy",
                      metrics=["accuracy"])
        out[name] = model.fit(train_images, train_labels,
                              epochs=2,
                              batch_size=128,
                              validation_split=0.2).history

    model = built(keras.Sequential([layers.Dense(10, activation="softmax")]), 784, 6)
    model.compile(optimizer="rmsprop",
                  loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    history_small_model = model.fit(
        train_images, train_labels,
        epochs=2,
        batch_size=128,
        validation_split=0.2)
    out["val_loss_small"] = history_small_model.history["val_loss"]
    model = built(keras.Sequential([
        layers.Dense(96, activation="relu"),
        layers.Dense(96, activation="relu"),
        layers.Dense(10, activation="softmax"),
    ]), 784, 7)
    model.compile(optimizer="rmsprop",
                  loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    history_large_model = model.fit(
        train_images, train_labels,
        epochs=2,
        batch_size=128,
        validation_split=0.2)
    out["history_large"] = history_large_model.history

    rng = np.random.default_rng(8)
    train_data = [rng.integers(1, 10000, size=rng.integers(5, 40)) for _ in range(250)]
    train_labels = rng.integers(0, 2, 250)
    train_data = vectorize_sequences(train_data)

    model = built(keras.Sequential([
        layers.Dense(16, activation="relu"),
        layers.Dense(16, activation="relu"),
        layers.Dense(1, activation="sigmoid")
    ]), 10000, 9)
    model.compile(optimizer="rmsprop",
                  loss="binary_crossentropy",
                  metrics=["accuracy"])
    out["history_original"] = model.fit(train_data, train_labels,
                                        epochs=2, batch_size=512,
                                        validation_split=0.4).history
    model = built(keras.Sequential([
        layers.Dense(4, activation="relu"),
        layers.Dense(4, activation="relu"),
        layers.Dense(1, activation="sigmoid")
    ]), 10000, 10)
    model.compile(optimizer="rmsprop",
                  loss="binary_crossentropy",
                  metrics=["accuracy"])
    out["history_smaller_model"] = model.fit(
        train_data, train_labels,
        epochs=2, batch_size=512, validation_split=0.4).history
    model = built(keras.Sequential([
        layers.Dense(512, activation="relu"),
        layers.Dense(512, activation="relu"),
        layers.Dense(1, activation="sigmoid")
    ]), 10000, 11)
    model.compile(optimizer="rmsprop",
                  loss="binary_crossentropy",
                  metrics=["accuracy"])
    out["history_larger_model"] = model.fit(
        train_data, train_labels,
        epochs=2, batch_size=512, validation_split=0.4).history
    model = built(keras.Sequential([
        layers.Dense(16,
                     kernel_regularizer=regularizers.l2(0.002),
                     activation="relu"),
        layers.Dense(16,
                     kernel_regularizer=regularizers.l2(0.002),
                     activation="relu"),
        layers.Dense(1, activation="sigmoid")
    ]), 10000, 12)
    model.compile(optimizer="rmsprop",
                  loss="binary_crossentropy",
                  metrics=["accuracy"])
    out["history_l2_reg"] = model.fit(
        train_data, train_labels,
        epochs=2, batch_size=512, validation_split=0.4).history
    out["l1"] = regularizers.l1(0.001)(model.weights[0])
    out["l1_l2"] = regularizers.l1_l2(l1=0.001, l2=0.001)(model.weights[0])
    return out
