# After: https://keras.io/examples/vision/mixup/ (the tf.keras version: two shuffled copies
# of the training set zipped, mix_up with sample_beta_distribution mapped over them, the
# Conv2D/MaxPooling2D/GlobalAvgPool2D model, its initial weights saved to initial_weights.h5
# and loaded into both models, fit with and without mixup with validation_data, evaluate)
# Adapted: 96 seeded synthetic 28x28 images and labels instead of Fashion-MNIST (32 to
# validate, 64 to train, one batch of 64 per epoch) and 16 to test, 2 epochs instead of 10;
# the two shuffles (whose orders differ between libraries, and which here decide which
# images are mixed) replaced by two fixed seeded permutations of the training set; the beta
# draws of sample_beta_distribution made once by seeded NumPy (tf.random.gamma's stream
# differs between libraries, and a NumPy draw inside map would be taken once per trace);
# the initial weights fixed (then saved and loaded as in the example) into a temporary
# folder; the Dropout(0.2) layer left out (random masks); the preview plot left out.
import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.keras import layers
from adapt import data, fixed_weights, labels

ORDER_ONE, ORDER_TWO = (np.random.default_rng(s).permutation(64) for s in (10, 11))
LAMBDAS = np.random.default_rng(9).beta(0.2, 0.2, size=64).astype(np.float32)


def sample_beta_distribution(size, concentration_0=0.2, concentration_1=0.2):
    return tf.constant(LAMBDAS)[:size]


def mix_up(ds_one, ds_two, alpha=0.2):
    # Unpack two datasets
    images_one, labels_one = ds_one
    images_two, labels_two = ds_two
    batch_size = tf.shape(images_one)[0]

    # Sample lambda and reshape it to do the mixup
    l = sample_beta_distribution(batch_size, alpha, alpha)
    x_l = tf.reshape(l, (batch_size, 1, 1, 1))
    y_l = tf.reshape(l, (batch_size, 1))

    # Perform mixup on both images and labels by combining a pair of images/labels
    # (one from each dataset) into one image/label
    images = images_one * x_l + images_two * (1 - x_l)
    labels = labels_one * y_l + labels_two * (1 - y_l)
    return (images, labels)


def get_training_model():
    model = tf.keras.Sequential(
        [
            layers.Conv2D(16, (5, 5), activation="relu", input_shape=(28, 28, 1)),
            layers.MaxPooling2D(pool_size=(2, 2)),
            layers.Conv2D(32, (5, 5), activation="relu"),
            layers.MaxPooling2D(pool_size=(2, 2)),
            layers.GlobalAvgPool2D(),
            layers.Dense(128, activation="relu"),
            layers.Dense(10, activation="softmax"),
        ]
    )
    return model


def main():
    out = {}
    x_train = np.round(data(1, 96, 28, 28, low=0, high=255)).astype(np.uint8)
    y_train = labels(2, 96, 10).astype(np.uint8)
    x_test = np.round(data(3, 16, 28, 28, low=0, high=255)).astype(np.uint8)
    y_test = labels(4, 16, 10).astype(np.uint8)

    x_train = x_train.astype("float32") / 255.0
    x_train = np.reshape(x_train, (-1, 28, 28, 1))
    y_train = tf.one_hot(y_train, 10)

    x_test = x_test.astype("float32") / 255.0
    x_test = np.reshape(x_test, (-1, 28, 28, 1))
    y_test = tf.one_hot(y_test, 10)

    AUTO = tf.data.AUTOTUNE
    BATCH_SIZE = 64
    EPOCHS = 2

    # Put aside a few samples to create our validation set
    val_samples = 32
    x_val, y_val = x_train[:val_samples], y_train[:val_samples]
    new_x_train, new_y_train = x_train[val_samples:], y_train[val_samples:]

    train_ds_one = (
        tf.data.Dataset.from_tensor_slices((new_x_train[ORDER_ONE],
                                            np.asarray(new_y_train)[ORDER_ONE]))
        .batch(BATCH_SIZE)
    )
    train_ds_two = (
        tf.data.Dataset.from_tensor_slices((new_x_train[ORDER_TWO],
                                            np.asarray(new_y_train)[ORDER_TWO]))
        .batch(BATCH_SIZE)
    )
    # Because we will be mixing up the images and their corresponding labels, we will be
    # combining two shuffled datasets from the same training data.
    train_ds = tf.data.Dataset.zip((train_ds_one, train_ds_two))

    val_ds = tf.data.Dataset.from_tensor_slices((x_val, y_val)).batch(BATCH_SIZE)

    test_ds = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(BATCH_SIZE)

    # First create the new dataset using our `mix_up` utility
    train_ds_mu = train_ds.map(
        lambda ds_one, ds_two: mix_up(ds_one, ds_two, alpha=0.2), num_parallel_calls=AUTO
    )

    weights_dir = tempfile.mkdtemp()
    initial_model = get_training_model()
    fixed_weights(initial_model.weights, seed=5, scale=0.1)
    initial_model.save_weights(os.path.join(weights_dir, "initial_weights.h5"))

    model = get_training_model()
    model.load_weights(os.path.join(weights_dir, "initial_weights.h5"))
    model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])
    out["mixup_history"] = model.fit(train_ds_mu, validation_data=val_ds,
                                     epochs=EPOCHS).history
    _, test_acc = model.evaluate(test_ds)
    print("Test accuracy: {:.2f}%".format(test_acc * 100))
    out["mixup_test"] = model.evaluate(test_ds)

    model = get_training_model()
    model.load_weights(os.path.join(weights_dir, "initial_weights.h5"))
    model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])
    # Notice that we are NOT using the mixed up dataset here
    out["plain_history"] = model.fit(train_ds_one, validation_data=val_ds,
                                     epochs=EPOCHS).history
    _, test_acc = model.evaluate(test_ds)
    print("Test accuracy: {:.2f}%".format(test_acc * 100))
    out["plain_test"] = model.evaluate(test_ds)
    return out
