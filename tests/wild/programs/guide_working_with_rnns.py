# After: https://www.tensorflow.org/guide/keras/working_with_rnns (built-in RNN layers:
# Embedding with LSTM, GRU and SimpleRNN; outputs and states: GRU(return_sequences=True)
# into SimpleRNN, an encoder LSTM(return_state=True) whose states start a decoder LSTM;
# Bidirectional(LSTM) with return_sequences; the performance section's build_model with
# allow_cudnn_kernel (LSTM against RNN(LSTMCell)), BatchNormalization and Dense, fit with
# validation_data, set_weights of get_weights, predict_on_batch under tf.device("CPU:0");
# RNNs with nested inputs: NestedCell with two states of TensorShapes, tf.nest.flatten and
# tf.einsum, RNN(cell) over a tuple of Inputs, compile("adam", "mse", accuracy) and fit)
# Adapted: 64 seeded synthetic 28x28 images instead of MNIST, seeded np.random draws for
# the other inputs, timestep 5 instead of 50 and 2 batches instead of 10 for the nested
# cell; one epoch as in the guide, shuffle=False; fixed weights. The stateful section
# (stateful=True, listed as not imitated) is not part of this program.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import data, fixed_weights, labels


class NestedCell(keras.layers.Layer):
    def __init__(self, unit_1, unit_2, unit_3, **kwargs):
        self.unit_1 = unit_1
        self.unit_2 = unit_2
        self.unit_3 = unit_3
        self.state_size = [tf.TensorShape([unit_1]), tf.TensorShape([unit_2, unit_3])]
        self.output_size = [tf.TensorShape([unit_1]), tf.TensorShape([unit_2, unit_3])]
        super().__init__(**kwargs)

    def build(self, input_shapes):
        # expect input_shape to contain 2 items, [(batch, i1), (batch, i2, i3)]
        i1 = input_shapes[0][1]
        i2 = input_shapes[1][1]
        i3 = input_shapes[1][2]

        self.kernel_1 = self.add_weight(
            shape=(i1, self.unit_1), initializer="uniform", name="kernel_1"
        )
        self.kernel_2_3 = self.add_weight(
            shape=(i2, i3, self.unit_2, self.unit_3),
            initializer="uniform",
            name="kernel_2_3",
        )

    def call(self, inputs, states):
        # inputs should be in [(batch, input_1), (batch, input_2, input_3)]
        # state should be in shape [(batch, unit_1), (batch, unit_2, unit_3)]
        input_1, input_2 = tf.nest.flatten(inputs)
        s1, s2 = states

        output_1 = tf.matmul(input_1, self.kernel_1)
        output_2_3 = tf.einsum("bij,ijkl->bkl", input_2, self.kernel_2_3)
        state_1 = s1 + output_1
        state_2_3 = s2 + output_2_3

        output = (output_1, output_2_3)
        new_states = (state_1, state_2_3)

        return output, new_states

    def get_config(self):
        return {"unit_1": self.unit_1, "unit_2": self.unit_2, "unit_3": self.unit_3}


batch_size = 64
# Each MNIST image batch is a tensor of shape (batch_size, 28, 28).
# Each input sequence will be of size (28, 28) (height is treated like time).
input_dim = 28

units = 64
output_size = 10  # labels are from 0 to 9


# Build the RNN model
def build_model(allow_cudnn_kernel=True):
    # CuDNN is only available at the layer level, and not at the cell level.
    # This means `LSTM(units)` will use the CuDNN kernel,
    # while RNN(LSTMCell(units)) will run on non-CuDNN kernel.
    if allow_cudnn_kernel:
        # The LSTM layer with default options uses CuDNN.
        lstm_layer = keras.layers.LSTM(units, input_shape=(None, input_dim))
    else:
        # Wrapping a LSTMCell in a RNN layer will not use CuDNN.
        lstm_layer = keras.layers.RNN(
            keras.layers.LSTMCell(units), input_shape=(None, input_dim)
        )
    model = keras.models.Sequential(
        [
            lstm_layer,
            keras.layers.BatchNormalization(),
            keras.layers.Dense(output_size),
        ]
    )
    return model


def main():
    np.random.seed(0)
    out = {}
    ints = np.random.default_rng(1).integers(0, 1000, size=(4, 7))

    model = keras.Sequential()
    # Add an Embedding layer expecting input vocab of size 1000, and
    # output embedding dimension of size 64.
    model.add(layers.Embedding(input_dim=1000, output_dim=64))
    # Add a LSTM layer with 128 internal units.
    model.add(layers.LSTM(128))
    # Add a Dense layer with 10 units.
    model.add(layers.Dense(10))
    model(ints)
    model.summary()
    fixed_weights(model.trainable_variables, seed=2, scale=0.1)
    out["lstm_model"] = model(ints)

    model = keras.Sequential()
    model.add(layers.Embedding(input_dim=1000, output_dim=64))
    # The output of GRU will be a 3D tensor of shape (batch_size, timesteps, 256)
    model.add(layers.GRU(256, return_sequences=True))
    # The output of SimpleRNN will be a 2D tensor of shape (batch_size, 128)
    model.add(layers.SimpleRNN(128))
    model.add(layers.Dense(10))
    model(ints)
    model.summary()
    fixed_weights(model.trainable_variables, seed=3, scale=0.1)
    out["gru_model"] = model(ints)

    encoder_vocab = 1000
    decoder_vocab = 2000

    encoder_input = layers.Input(shape=(None,))
    encoder_embedded = layers.Embedding(input_dim=encoder_vocab, output_dim=64)(
        encoder_input
    )

    # Return states in addition to output
    output, state_h, state_c = layers.LSTM(64, return_state=True, name="encoder")(
        encoder_embedded
    )
    encoder_state = [state_h, state_c]

    decoder_input = layers.Input(shape=(None,))
    decoder_embedded = layers.Embedding(input_dim=decoder_vocab, output_dim=64)(
        decoder_input
    )

    # Pass the 2 states to a new LSTM layer, as initial state
    decoder_output = layers.LSTM(64, name="decoder")(
        decoder_embedded, initial_state=encoder_state
    )
    output = layers.Dense(10)(decoder_output)

    model = keras.Model([encoder_input, decoder_input], output)
    model.summary()
    fixed_weights(model.trainable_variables, seed=4, scale=0.1)
    out["seq2seq"] = model([ints, ints[:, :5] * 2])

    model = keras.Sequential()

    model.add(
        layers.Bidirectional(layers.LSTM(64, return_sequences=True), input_shape=(5, 10))
    )
    model.add(layers.Bidirectional(layers.LSTM(32)))
    model.add(layers.Dense(10))

    model.summary()
    fixed_weights(model.trainable_variables, seed=5, scale=0.1)
    out["bidirectional"] = model(data(6, 3, 5, 10))

    x_train, y_train = np.round(data(7, 64, 28, 28, low=0, high=255)), labels(8, 64, 10)
    x_test, y_test = np.round(data(9, 16, 28, 28, low=0, high=255)), labels(10, 16, 10)
    x_train, x_test = x_train / 255.0, x_test / 255.0
    sample, sample_label = x_train[0], y_train[0]

    model = build_model(allow_cudnn_kernel=True)
    fixed_weights(model.trainable_variables, seed=11, scale=0.1)

    model.compile(
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        optimizer="sgd",
        metrics=["accuracy"],
    )

    history = model.fit(
        x_train, y_train, validation_data=(x_test, y_test), batch_size=batch_size, epochs=1,
        shuffle=False
    )
    out["cudnn_history"] = history.history

    noncudnn_model = build_model(allow_cudnn_kernel=False)
    noncudnn_model.set_weights(model.get_weights())
    noncudnn_model.compile(
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        optimizer="sgd",
        metrics=["accuracy"],
    )
    history = noncudnn_model.fit(
        x_train, y_train, validation_data=(x_test, y_test), batch_size=batch_size, epochs=1,
        shuffle=False
    )
    out["noncudnn_history"] = history.history

    with tf.device("CPU:0"):
        cpu_model = build_model(allow_cudnn_kernel=True)
        cpu_model.set_weights(model.get_weights())
        result = tf.argmax(cpu_model.predict_on_batch(tf.expand_dims(sample, 0)), axis=1)
        print(
            "Predicted result is: %s, target result is: %s" % (result.numpy(), sample_label)
        )
        out["cpu_result"] = result

    unit_1 = 10
    unit_2 = 20
    unit_3 = 30

    i1 = 32
    i2 = 64
    i3 = 32
    batch_size_nested = 64
    num_batches = 2
    timestep = 5

    cell = NestedCell(unit_1, unit_2, unit_3)
    rnn = keras.layers.RNN(cell)

    input_1 = keras.Input((None, i1))
    input_2 = keras.Input((None, i2, i3))

    outputs = rnn((input_1, input_2))

    model = keras.models.Model([input_1, input_2], outputs)
    fixed_weights(model.trainable_variables, seed=12, scale=0.05)

    model.compile(optimizer="adam", loss="mse", metrics=["accuracy"])

    input_1_data = np.random.random((batch_size_nested * num_batches, timestep, i1))
    input_2_data = np.random.random((batch_size_nested * num_batches, timestep, i2, i3))
    target_1_data = np.random.random((batch_size_nested * num_batches, unit_1))
    target_2_data = np.random.random((batch_size_nested * num_batches, unit_2, unit_3))
    input_data = [input_1_data, input_2_data]
    target_data = [target_1_data, target_2_data]

    history = model.fit(input_data, target_data, batch_size=batch_size_nested, shuffle=False)
    out["nested_history"] = history.history
    return out
