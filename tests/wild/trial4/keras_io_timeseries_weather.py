# After: https://keras.io/examples/timeseries/timeseries_weather_forecasting/ (the tf.keras
# version: normalize by the training split's mean and std, the seven selected features,
# the training and validation windows by keras.preprocessing.timeseries_dataset_from_array
# with sampling_rate=step, the functional LSTM(32) and Dense(1) model with Adam, fit with
# EarlyStopping and a ModelCheckpoint of the best weights to model_checkpoint.h5, and the
# single-step predictions of five validation batches)
# Adapted: 5400 seeded synthetic rows of the 14 Jena climate features (daily cycles plus
# noise) instead of the downloaded CSV, held in a NumPy array instead of a pandas DataFrame
# (pandas is not installed where the answers were recorded: df[selected_features] and
# .loc/.iloc become NumPy indexing, the date-time index and the plots are left out);
# 2 epochs instead of 10; the checkpoint written to a temporary folder; fixed weights.
import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import fixed_weights

titles = [
    "Pressure",
    "Temperature",
    "Temperature in Kelvin",
    "Temperature (dew point)",
    "Relative Humidity",
    "Saturation vapor pressure",
    "Vapor pressure",
    "Vapor pressure deficit",
    "Specific humidity",
    "Water vapor concentration",
    "Airtight",
    "Wind speed",
    "Maximum wind speed",
    "Wind direction in degrees",
]


def jena_like(n, seed=1):
    rng = np.random.default_rng(seed)
    t = np.arange(n)[:, None]
    scale = rng.uniform(1, 100, size=14)
    offset = rng.uniform(-10, 1000, size=14)
    phase = rng.uniform(0, 2 * np.pi, size=14)
    cycle = np.sin(2 * np.pi * t / 144 + phase)
    return offset + scale * (cycle + 0.3 * rng.normal(size=(n, 14)))


def normalize(data, train_split):
    data_mean = data[:train_split].mean(axis=0)
    data_std = data[:train_split].std(axis=0)
    return (data - data_mean) / data_std


def main():
    out = {}
    df = jena_like(5400)
    split_fraction = 0.715
    train_split = int(split_fraction * int(df.shape[0]))
    step = 6

    past = 720
    future = 72
    learning_rate = 0.001
    batch_size = 256
    epochs = 2

    print(
        "The selected parameters are:",
        ", ".join([titles[i] for i in [0, 1, 5, 7, 8, 10, 11]]),
    )
    features = df[:, [0, 1, 5, 7, 8, 10, 11]]
    features = normalize(features, train_split)

    train_data = features[0 : train_split]
    val_data = features[train_split:]

    start = past + future
    end = start + train_split

    x_train = train_data[:, [i for i in range(7)]]
    y_train = features[start:end][:, [1]]

    sequence_length = int(past / step)

    dataset_train = keras.preprocessing.timeseries_dataset_from_array(
        x_train,
        y_train,
        sequence_length=sequence_length,
        sampling_rate=step,
        batch_size=batch_size,
    )

    x_end = len(val_data) - past - future

    label_start = train_split + past + future

    x_val = val_data[:x_end][:, [i for i in range(7)]]
    y_val = features[label_start:][:, [1]]

    dataset_val = keras.preprocessing.timeseries_dataset_from_array(
        x_val,
        y_val,
        sequence_length=sequence_length,
        sampling_rate=step,
        batch_size=batch_size,
    )

    for batch in dataset_train.take(1):
        inputs, targets = batch

    print("Input shape:", inputs.numpy().shape)
    print("Target shape:", targets.numpy().shape)
    out["shapes"] = [list(inputs.numpy().shape), list(targets.numpy().shape)]
    out["first_targets"] = targets[:5]

    inputs = keras.layers.Input(shape=(inputs.shape[1], inputs.shape[2]))
    lstm_out = keras.layers.LSTM(32)(inputs)
    outputs = keras.layers.Dense(1)(lstm_out)

    model = keras.Model(inputs=inputs, outputs=outputs)
    fixed_weights(model.weights, seed=2, scale=0.2)
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=learning_rate), loss="mse")
    model.summary()

    path_checkpoint = os.path.join(tempfile.mkdtemp(), "model_checkpoint.h5")
    es_callback = keras.callbacks.EarlyStopping(monitor="val_loss", min_delta=0, patience=5)

    modelckpt_callback = keras.callbacks.ModelCheckpoint(
        monitor="val_loss",
        filepath=path_checkpoint,
        verbose=1,
        save_weights_only=True,
        save_best_only=True,
    )

    history = model.fit(
        dataset_train,
        epochs=epochs,
        validation_data=dataset_val,
        callbacks=[es_callback, modelckpt_callback],
    )
    out["history"] = history.history

    predictions = []
    for x, y in dataset_val.take(5):
        predictions.append([x[0][:, 1].numpy()[:5], y[0].numpy(), model.predict(x)[0]])
    out["predictions"] = predictions
    return out
