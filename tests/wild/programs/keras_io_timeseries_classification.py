# After: https://keras.io/examples/timeseries/timeseries_classification_from_scratch/ (the
# tf.keras version: make_model as a functional fully convolutional network of three Conv1D/
# BatchNormalization/ReLU blocks, GlobalAveragePooling1D and a softmax Dense; compile with
# adam, sparse_categorical_crossentropy and sparse_categorical_accuracy; fit with
# ModelCheckpoint(save_best_only), ReduceLROnPlateau and EarlyStopping callbacks and
# validation_split; keras.models.load_model of the best model; evaluate)
# Adapted: 40 seeded synthetic series of 50 steps (2 classes, labels -1/1 as in FordA)
# instead of the FordA data, 3 epochs with batch_size 32 and shuffle=False (fit's shuffle
# order differs between libraries); fixed weights; the checkpoint in a temporary folder.
import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import data, fixed_weights, labels


def make_model(input_shape, num_classes):
    input_layer = keras.layers.Input(input_shape)

    conv1 = keras.layers.Conv1D(filters=64, kernel_size=3, padding="same")(input_layer)
    conv1 = keras.layers.BatchNormalization()(conv1)
    conv1 = keras.layers.ReLU()(conv1)

    conv2 = keras.layers.Conv1D(filters=64, kernel_size=3, padding="same")(conv1)
    conv2 = keras.layers.BatchNormalization()(conv2)
    conv2 = keras.layers.ReLU()(conv2)

    conv3 = keras.layers.Conv1D(filters=64, kernel_size=3, padding="same")(conv2)
    conv3 = keras.layers.BatchNormalization()(conv3)
    conv3 = keras.layers.ReLU()(conv3)

    gap = keras.layers.GlobalAveragePooling1D()(conv3)

    output_layer = keras.layers.Dense(num_classes, activation="softmax")(gap)

    return keras.models.Model(inputs=input_layer, outputs=output_layer)


def main():
    x_train = data(1, 40, 50, low=-2.0, high=2.0)
    y_train = labels(2, 40, 2) * 2 - 1
    x_test = data(3, 12, 50, low=-2.0, high=2.0)
    y_test = labels(4, 12, 2) * 2 - 1

    x_train = x_train.reshape((x_train.shape[0], x_train.shape[1], 1))
    x_test = x_test.reshape((x_test.shape[0], x_test.shape[1], 1))

    num_classes = len(np.unique(y_train))
    y_train[y_train == -1] = 0
    y_test[y_test == -1] = 0

    model = make_model(input_shape=x_train.shape[1:], num_classes=num_classes)
    fixed_weights(model.trainable_variables, seed=5, scale=0.2)

    epochs = 3
    batch_size = 32
    best_model = os.path.join(tempfile.mkdtemp(), "best_model.keras")

    callbacks = [
        keras.callbacks.ModelCheckpoint(
            best_model, save_best_only=True, monitor="val_loss"
        ),
        keras.callbacks.ReduceLROnPlateau(
            monitor="val_loss", factor=0.5, patience=20, min_lr=0.0001
        ),
        keras.callbacks.EarlyStopping(monitor="val_loss", patience=50, verbose=1),
    ]
    model.compile(
        optimizer="adam",
        loss="sparse_categorical_crossentropy",
        metrics=["sparse_categorical_accuracy"],
    )
    history = model.fit(
        x_train,
        y_train,
        batch_size=batch_size,
        epochs=epochs,
        callbacks=callbacks,
        validation_split=0.2,
        verbose=1,
        shuffle=False,
    )

    model = keras.models.load_model(best_model)

    test_loss, test_acc = model.evaluate(x_test, y_test)
    return {"history": history.history, "test_loss": test_loss, "test_acc": test_acc}
