# After: https://keras.io/examples/nlp/bidirectional_lstm_imdb/ (the tf.keras version: an
# Input of variable-length int sequences, Embedding(max_features, 128), two Bidirectional
# LSTM(64) layers, a sigmoid Dense; pad_sequences of the reviews to maxlen; compile("adam",
# "binary_crossentropy", metrics=["accuracy"]); fit with validation_data)
# Adapted: 32 training and 16 validation seeded synthetic reviews (lists of word indices of
# varying lengths) instead of IMDB, maxlen 30 instead of 200, 2 epochs with batch_size 32
# (one batch per epoch); fixed weights.
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
from adapt import fixed_weights

max_features = 20000  # Only consider the top 20k words
maxlen = 30  # Only consider the first 200 words of each movie review


def reviews(seed, n):
    rng = np.random.default_rng(seed)
    return ([list(rng.integers(1, max_features, size=rng.integers(5, 45))) for _ in range(n)],
            rng.integers(0, 2, size=n))


def main():
    # Input for variable-length sequences of integers
    inputs = keras.Input(shape=(None,), dtype="int32")
    # Embed each integer in a 128-dimensional vector
    x = layers.Embedding(max_features, 128)(inputs)
    # Add 2 bidirectional LSTMs
    x = layers.Bidirectional(layers.LSTM(64, return_sequences=True))(x)
    x = layers.Bidirectional(layers.LSTM(64))(x)
    # Add a classifier
    outputs = layers.Dense(1, activation="sigmoid")(x)
    model = keras.Model(inputs, outputs)
    model.summary()
    fixed_weights(model.trainable_variables, seed=1, scale=0.1)

    (x_train, y_train), (x_val, y_val) = reviews(2, 32), reviews(3, 16)
    print(len(x_train), "Training sequences")
    print(len(x_val), "Validation sequences")
    # Use pad_sequence to standardize sequence length:
    # this will truncate sequences longer than 200 words and zero-pad sequences shorter than 200 words.
    x_train = keras.preprocessing.sequence.pad_sequences(x_train, maxlen=maxlen)
    x_val = keras.preprocessing.sequence.pad_sequences(x_val, maxlen=maxlen)

    model.compile("adam", "binary_crossentropy", metrics=["accuracy"])
    history = model.fit(x_train, y_train, batch_size=32, epochs=2, validation_data=(x_val, y_val))
    return {"padded": x_train[:3], "history": history.history,
            "predictions": model.predict(x_val, verbose=0)}
