# After: https://keras.io/examples/timeseries/timeseries_anomaly_detection/ (the tf.keras
# version: normalizing by the training mean and std, create_sequences with TIME_STEPS 288,
# the Conv1D/Conv1DTranspose reconstruction model compiled with Adam(0.001) and mse, fit
# with validation_split and EarlyStopping(monitor="val_loss", patience=5, mode="min"),
# the training MAE loss and its maximum as the anomaly threshold, and the test anomalies)
# Adapted: seeded synthetic daily-periodic series of 320 and 330 points instead of the NAB
# CSVs (read with pandas), 3 epochs instead of 50 (batch_size 128 covers the training
# split, so fit's shuffle cannot change a step); fixed weights; the Dropout(0.2) layers
# left out (their random masks differ between libraries).
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import data, fixed_weights

TIME_STEPS = 288


# Generated training sequences for use in the model.
def create_sequences(values, time_steps=TIME_STEPS):
    output = []
    for i in range(len(values) - time_steps + 1):
        output.append(values[i : (i + time_steps)])
    return np.stack(output)


def main():
    t = np.arange(320)
    df_small_noise = (np.sin(2 * np.pi * t / 288) * 20 + 40 + data(1, 320, low=-2, high=2)).reshape(-1, 1)
    t = np.arange(330)
    df_daily_jumpsup = (np.sin(2 * np.pi * t / 288) * 20 + 40 + data(2, 330, low=-2, high=2)).reshape(-1, 1)
    df_daily_jumpsup[200:210] += 60.0

    # Normalize and save the mean and std we get,
    # for normalizing test data.
    training_mean = df_small_noise.mean()
    training_std = df_small_noise.std()
    df_training_value = (df_small_noise - training_mean) / training_std

    x_train = create_sequences(df_training_value).astype(np.float32)

    model = keras.Sequential(
        [
            layers.Input(shape=(x_train.shape[1], x_train.shape[2])),
            layers.Conv1D(
                filters=32,
                kernel_size=7,
                padding="same",
                strides=2,
                activation="relu",
            ),
            layers.Conv1D(
                filters=16,
                kernel_size=7,
                padding="same",
                strides=2,
                activation="relu",
            ),
            layers.Conv1DTranspose(
                filters=16,
                kernel_size=7,
                padding="same",
                strides=2,
                activation="relu",
            ),
            layers.Conv1DTranspose(
                filters=32,
                kernel_size=7,
                padding="same",
                strides=2,
                activation="relu",
            ),
            layers.Conv1DTranspose(filters=1, kernel_size=7, padding="same"),
        ]
    )
    fixed_weights(model.trainable_variables, seed=3, scale=0.2)
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.001), loss="mse")

    history = model.fit(
        x_train,
        x_train,
        epochs=3,
        batch_size=128,
        validation_split=0.1,
        callbacks=[
            keras.callbacks.EarlyStopping(monitor="val_loss", patience=5, mode="min")
        ],
        verbose=0,
    )

    # Get train MAE loss.
    x_train_pred = model.predict(x_train, verbose=0)
    train_mae_loss = np.mean(np.abs(x_train_pred - x_train), axis=1)

    # Get reconstruction loss threshold.
    threshold = np.max(train_mae_loss)

    df_test_value = (df_daily_jumpsup - training_mean) / training_std
    x_test = create_sequences(df_test_value).astype(np.float32)

    # Get test MAE loss.
    x_test_pred = model.predict(x_test, verbose=0)
    test_mae_loss = np.mean(np.abs(x_test_pred - x_test), axis=1)
    test_mae_loss = test_mae_loss.reshape((-1))

    # Detect all the samples which are anomalies.
    anomalies = test_mae_loss > threshold
    return {"history": history.history, "x_train_shape": list(x_train.shape),
            "threshold": float(threshold), "test_mae_loss": test_mae_loss[::5],
            "n_anomalies": int(np.sum(anomalies))}
