# After: https://keras.io/examples/structured_data/imbalanced_classification/ (the tf.keras
# version: normalizing by the training mean and std, class weights from np.bincount, a
# Sequential of Dense(256) layers and a sigmoid output, the FalseNegatives/FalsePositives/
# TrueNegatives/TruePositives/Precision/Recall metrics, Adam(1e-2), binary_crossentropy,
# fit with a ModelCheckpoint callback, validation_data and class_weight)
# Adapted: 60 seeded synthetic rows of 30 features (about 1 in 6 positive) instead of the
# credit card fraud CSV, 3 epochs of one batch each (batch_size 2048 as in the source);
# fixed weights; the checkpoints go to a temporary folder; the Dropout(0.3) layers left out
# (their random masks differ between libraries).
import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import data, fixed_weights


def main():
    features = data(1, 75, 30, low=-3.0, high=3.0) * np.linspace(1.0, 100.0, 30).astype("float32")
    targets = (data(2, 75, 1, low=0.0, high=1.0) < 0.18).astype("uint8")
    num_val_samples = int(len(features) * 0.2)
    train_features = features[:-num_val_samples]
    train_targets = targets[:-num_val_samples]
    val_features = features[-num_val_samples:]
    val_targets = targets[-num_val_samples:]

    counts = np.bincount(train_targets[:, 0])
    weight_for_0 = 1.0 / counts[0]
    weight_for_1 = 1.0 / counts[1]

    mean = np.mean(train_features, axis=0)
    train_features -= mean
    val_features -= mean
    std = np.std(train_features, axis=0)
    train_features /= std
    val_features /= std

    model = keras.Sequential(
        [
            keras.Input(shape=train_features.shape[1:]),
            keras.layers.Dense(256, activation="relu"),
            keras.layers.Dense(256, activation="relu"),
            keras.layers.Dense(256, activation="relu"),
            keras.layers.Dense(1, activation="sigmoid"),
        ]
    )
    fixed_weights(model.trainable_variables, seed=3, scale=0.1)

    metrics = [
        keras.metrics.FalseNegatives(name="fn"),
        keras.metrics.FalsePositives(name="fp"),
        keras.metrics.TrueNegatives(name="tn"),
        keras.metrics.TruePositives(name="tp"),
        keras.metrics.Precision(name="precision"),
        keras.metrics.Recall(name="recall"),
    ]

    model.compile(
        optimizer=keras.optimizers.Adam(1e-2), loss="binary_crossentropy", metrics=metrics
    )

    folder = tempfile.mkdtemp()
    callbacks = [keras.callbacks.ModelCheckpoint(os.path.join(folder, "fraud_model_at_epoch_{epoch}.keras"))]
    class_weight = {0: weight_for_0, 1: weight_for_1}

    history = model.fit(
        train_features,
        train_targets,
        batch_size=2048,
        epochs=3,
        verbose=2,
        callbacks=callbacks,
        validation_data=(val_features, val_targets),
        class_weight=class_weight,
    )
    return {"counts": counts, "history": history.history,
            "checkpoints": sorted(os.listdir(folder))}
