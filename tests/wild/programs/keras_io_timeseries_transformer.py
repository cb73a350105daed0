# After: https://keras.io/examples/timeseries/timeseries_classification_transformer/ (the
# tf.keras version: transformer_encoder with LayerNormalization(epsilon=1e-6),
# MultiHeadAttention(key_dim=head_size, num_heads, dropout), residual adds and a Conv1D
# feed-forward of kernel_size 1; build_model with GlobalAveragePooling1D(data_format=
# "channels_first") and an MLP head; compile with sparse_categorical_crossentropy,
# Adam(1e-4) and sparse_categorical_accuracy; fit with validation_split=0.2 and
# EarlyStopping(patience=10, restore_best_weights=True); evaluate)
# Adapted: 40 training and 12 test seeded synthetic series of 50 steps instead of FordA's
# 500 (labels -1 mapped to 0 as the example does), 3 epochs instead of 150 of batch_size
# 64 (one batch per epoch); fixed weights; dropout=0 and mlp_dropout=0 instead of 0.25 and
# 0.4 (random masks differ between libraries).
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
from adapt import data, fixed_weights


def transformer_encoder(inputs, head_size, num_heads, ff_dim, dropout=0):
    # Normalization and Attention
    x = layers.LayerNormalization(epsilon=1e-6)(inputs)
    x = layers.MultiHeadAttention(
        key_dim=head_size, num_heads=num_heads, dropout=dropout
    )(x, x)
    x = layers.Dropout(dropout)(x)
    res = x + inputs

    # Feed Forward Part
    x = layers.LayerNormalization(epsilon=1e-6)(res)
    x = layers.Conv1D(filters=ff_dim, kernel_size=1, activation="relu")(x)
    x = layers.Dropout(dropout)(x)
    x = layers.Conv1D(filters=inputs.shape[-1], kernel_size=1)(x)
    return x + res


def build_model(
    input_shape,
    head_size,
    num_heads,
    ff_dim,
    num_transformer_blocks,
    mlp_units,
    dropout=0,
    mlp_dropout=0,
):
    inputs = keras.Input(shape=input_shape)
    x = inputs
    for _ in range(num_transformer_blocks):
        x = transformer_encoder(x, head_size, num_heads, ff_dim, dropout)

    x = layers.GlobalAveragePooling1D(data_format="channels_first")(x)
    for dim in mlp_units:
        x = layers.Dense(dim, activation="relu")(x)
        x = layers.Dropout(mlp_dropout)(x)
    outputs = layers.Dense(n_classes, activation="softmax")(x)
    return keras.Model(inputs, outputs)


n_classes = 2


def main():
    t = np.linspace(0, 1, 50)
    y_train = np.where(data(1, 40) > 0, 1, -1)
    y_test = np.where(data(2, 12) > 0, 1, -1)
    x_train = np.sin(8 * t * (y_train[:, None] + 2)) + data(3, 40, 50)
    x_test = np.sin(8 * t * (y_test[:, None] + 2)) + data(4, 12, 50)

    x_train = x_train.reshape((x_train.shape[0], x_train.shape[1], 1))
    x_test = x_test.reshape((x_test.shape[0], x_test.shape[1], 1))

    y_train[y_train == -1] = 0
    y_test[y_test == -1] = 0

    input_shape = x_train.shape[1:]

    model = build_model(
        input_shape,
        head_size=256,
        num_heads=4,
        ff_dim=4,
        num_transformer_blocks=4,
        mlp_units=[128],
        mlp_dropout=0,
        dropout=0,
    )
    fixed_weights(model.trainable_variables, seed=5, scale=0.1)

    model.compile(
        loss="sparse_categorical_crossentropy",
        optimizer=keras.optimizers.Adam(learning_rate=1e-4),
        metrics=["sparse_categorical_accuracy"],
    )
    model.summary()

    callbacks = [keras.callbacks.EarlyStopping(patience=10, restore_best_weights=True)]

    history = model.fit(
        x_train,
        y_train,
        validation_split=0.2,
        epochs=3,
        batch_size=64,
        callbacks=callbacks,
    )

    score = model.evaluate(x_test, y_test, verbose=1)
    return {"history": history.history, "score": score,
            "predictions": model.predict(x_test, verbose=0)}
