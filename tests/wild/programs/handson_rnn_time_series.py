# After: https://github.com/ageron/handson-ml2 (15_processing_sequences_using_rnns_and_cnns
# .ipynb: generate_time_series; the naive forecast with keras.losses.mean_squared_error; a
# linear model of Flatten and Dense; SimpleRNN(1); a deep RNN; the sequence-to-sequence
# targets Y and last_time_step_mse with keras.metrics.mean_squared_error; TimeDistributed
# Dense; LNSimpleRNNCell with get_initial_state, SimpleRNNCell(activation=None) and
# LayerNormalization in keras.layers.RNN; Conv1D(strides=2) before GRU layers; the
# WaveNet-style stack of causal dilated Conv1D layers after an InputLayer)
# Adapted: 100 series instead of 10000 (np.random seeded as in the book), n_steps 20
# instead of 50, 2 epochs instead of 20 with shuffle=False; fixed weights.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras.layers import LayerNormalization
from adapt import fixed_weights


def generate_time_series(batch_size, n_steps):
    freq1, freq2, offsets1, offsets2 = np.random.rand(4, batch_size, 1)
    time = np.linspace(0, 1, n_steps)
    series = 0.5 * np.sin((time - offsets1) * (freq1 * 10 + 10))  #   wave 1
    series += 0.2 * np.sin((time - offsets2) * (freq2 * 20 + 20)) # + wave 2
    series += 0.1 * (np.random.rand(batch_size, n_steps) - 0.5)   # + noise
    return series[..., np.newaxis].astype(np.float32)


def last_time_step_mse(Y_true, Y_pred):
    return keras.metrics.mean_squared_error(Y_true[:, -1], Y_pred[:, -1])


class LNSimpleRNNCell(keras.layers.Layer):
    def __init__(self, units, activation="tanh", **kwargs):
        super().__init__(**kwargs)
        self.state_size = units
        self.output_size = units
        self.simple_rnn_cell = keras.layers.SimpleRNNCell(units,
                                                          activation=None)
        self.layer_norm = LayerNormalization()
        self.activation = keras.activations.get(activation)
    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        if inputs is not None:
            batch_size = tf.shape(inputs)[0]
            dtype = inputs.dtype
        return [tf.zeros([batch_size, self.state_size], dtype=dtype)]
    def call(self, inputs, states):
        outputs, new_states = self.simple_rnn_cell(inputs, states)
        norm_outputs = self.activation(self.layer_norm(outputs))
        return norm_outputs, [norm_outputs]


def main():
    out = {}
    np.random.seed(42)

    n_steps = 20
    series = generate_time_series(100, n_steps + 10)
    X_train, y_train = series[:70, :n_steps], series[:70, n_steps]
    X_valid, y_valid = series[70:90, :n_steps], series[70:90, n_steps]
    X_test, y_test = series[90:, :n_steps], series[90:, n_steps]

    y_pred = X_valid[:, -1]
    out["naive"] = np.mean(keras.losses.mean_squared_error(y_valid, y_pred))

    model = keras.models.Sequential([
        keras.layers.Flatten(input_shape=[n_steps, 1]),
        keras.layers.Dense(1)
    ])
    fixed_weights(model.trainable_variables, seed=1, scale=0.1)
    model.compile(loss="mse", optimizer="adam")
    history = model.fit(X_train, y_train, epochs=2,
                        validation_data=(X_valid, y_valid), shuffle=False)
    out["linear"] = history.history
    out["linear_eval"] = model.evaluate(X_valid, y_valid)

    model = keras.models.Sequential([
        keras.layers.SimpleRNN(1, input_shape=[None, 1])
    ])
    fixed_weights(model.trainable_variables, seed=2, scale=0.3)
    optimizer = keras.optimizers.Adam(learning_rate=0.005)
    model.compile(loss="mse", optimizer=optimizer)
    history = model.fit(X_train, y_train, epochs=2,
                        validation_data=(X_valid, y_valid), shuffle=False)
    out["simple_rnn"] = history.history

    model = keras.models.Sequential([
        keras.layers.SimpleRNN(20, return_sequences=True, input_shape=[None, 1]),
        keras.layers.SimpleRNN(20),
        keras.layers.Dense(1)
    ])
    fixed_weights(model.trainable_variables, seed=3, scale=0.2)
    model.compile(loss="mse", optimizer="adam")
    history = model.fit(X_train, y_train, epochs=2,
                        validation_data=(X_valid, y_valid), shuffle=False)
    out["deep_rnn"] = history.history

    Y = np.empty((100, n_steps, 10)) # each target is a sequence of 10D vectors
    for step_ahead in range(1, 10 + 1):
        Y[..., step_ahead - 1] = series[..., step_ahead:step_ahead + n_steps, 0]
    Y_train = Y[:70]
    Y_valid = Y[70:90]
    Y_test = Y[90:]

    model = keras.models.Sequential([
        keras.layers.SimpleRNN(20, return_sequences=True, input_shape=[None, 1]),
        keras.layers.SimpleRNN(20, return_sequences=True),
        keras.layers.TimeDistributed(keras.layers.Dense(10))
    ])
    fixed_weights(model.trainable_variables, seed=4, scale=0.2)
    model.compile(loss="mse", optimizer=keras.optimizers.Adam(learning_rate=0.01), metrics=[last_time_step_mse])
    history = model.fit(X_train, Y_train, epochs=2,
                        validation_data=(X_valid, Y_valid), shuffle=False)
    out["seq2seq"] = history.history

    model = keras.models.Sequential([
        keras.layers.RNN(LNSimpleRNNCell(20), return_sequences=True,
                         input_shape=[None, 1]),
        keras.layers.RNN(LNSimpleRNNCell(20), return_sequences=True),
        keras.layers.TimeDistributed(keras.layers.Dense(10))
    ])
    fixed_weights(model.trainable_variables, seed=5, scale=0.2)
    model.compile(loss="mse", optimizer="adam", metrics=[last_time_step_mse])
    history = model.fit(X_train, Y_train, epochs=2,
                        validation_data=(X_valid, Y_valid), shuffle=False)
    out["layer_norm_rnn"] = history.history

    model = keras.models.Sequential([
        keras.layers.Conv1D(filters=20, kernel_size=4, strides=2, padding="valid",
                            input_shape=[None, 1]),
        keras.layers.GRU(20, return_sequences=True),
        keras.layers.GRU(20, return_sequences=True),
        keras.layers.TimeDistributed(keras.layers.Dense(10))
    ])
    fixed_weights(model.trainable_variables, seed=6, scale=0.2)
    model.compile(loss="mse", optimizer="adam", metrics=[last_time_step_mse])
    history = model.fit(X_train, Y_train[:, 3::2], epochs=2,
                        validation_data=(X_valid, Y_valid[:, 3::2]), shuffle=False)
    out["conv_gru"] = history.history

    model = keras.models.Sequential()
    model.add(keras.layers.InputLayer(input_shape=[None, 1]))
    for rate in (1, 2, 4, 8) * 2:
        model.add(keras.layers.Conv1D(filters=20, kernel_size=2, padding="causal",
                                      activation="relu", dilation_rate=rate))
    model.add(keras.layers.Conv1D(filters=10, kernel_size=1))
    fixed_weights(model.trainable_variables, seed=7, scale=0.2)
    model.compile(loss="mse", optimizer="adam", metrics=[last_time_step_mse])
    history = model.fit(X_train, Y_train, epochs=2,
                        validation_data=(X_valid, Y_valid), shuffle=False)
    out["wavenet"] = history.history
    out["wavenet_pred"] = model.predict(X_test[:2])[:, -1]
    return out
