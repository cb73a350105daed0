# A user's RNN cell whose layers are first called in `call` (the layer-normalized cell of
# Hands-On ML, chapter 15): Keras calls the cell on a symbolic step when the RNN is built on a
# known shape, so a Sequential given input_shape= (or a model on an Input) has the cell's
# sublayers' variables at once, named rnn/<cell>/<layer>/..., in the order Keras tracks them;
# called eagerly on data, the same names. Then outputs and one fit with assigned weights.


class LNSimpleRNNCell(tf.keras.layers.Layer):
    def __init__(self, units, activation="tanh", **kwargs):
        super().__init__(**kwargs)
        self.state_size = units
        self.output_size = units
        self.simple_rnn_cell = tf.keras.layers.SimpleRNNCell(units, activation=None)
        self.layer_norm = tf.keras.layers.LayerNormalization()
        self.activation = tf.keras.activations.get(activation)

    def call(self, inputs, states):
        outputs, new_states = self.simple_rnn_cell(inputs, states)
        norm_outputs = self.activation(self.layer_norm(outputs))
        return norm_outputs, [norm_outputs]


def names(model):
    return [(v.name, list(v.shape)) for v in model.trainable_variables]


def fill(variables):
    for i, v in enumerate(variables):
        n = int(np.prod(v.shape))
        v.assign(np.cos(np.arange(n, dtype=np.float32) + i).reshape(v.shape) * 0.3)


model = tf.keras.models.Sequential([
    tf.keras.layers.RNN(LNSimpleRNNCell(3), return_sequences=True, input_shape=[None, 1]),
    tf.keras.layers.RNN(LNSimpleRNNCell(3), return_sequences=True),
    tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(2)),
])
report("sequential_before_any_call", names(model))
report("sequential_count_params", model.count_params())
fill(model.trainable_variables)
x = tf.constant(np.sin(np.arange(12, dtype=np.float32)).reshape(2, 6, 1))
y = tf.constant(np.cos(np.arange(24, dtype=np.float32)).reshape(2, 6, 2) * 0.5)
report("sequential_output", model(x))
model.compile(loss="mse", optimizer="sgd")
report("sequential_fit", model.fit(x, y, epochs=2, shuffle=False, verbose=0).history)

inputs = tf.keras.Input((None, 2))
outputs = tf.keras.layers.RNN(LNSimpleRNNCell(2))(inputs)
report("functional_before_any_call", names(tf.keras.Model(inputs, outputs)))

rnn = tf.keras.layers.RNN(LNSimpleRNNCell(2))
rnn(tf.ones((1, 3, 2)))
report("eager_call", [v.name for v in rnn.weights])
