# tf.keras.layers.RNN over nested inputs (after the guide "Working with RNNs", section RNNs with
# nested input/output): a tuple of (batch, time, ...) tensors is one nested input, the cell gets
# one time step of each, its build the step shapes; two states shaped by TensorShapes; nested
# outputs with return_sequences and return_state; gradients; a functional model over a tuple of
# Inputs trained with fit (one loss and metric per output). A list is [inputs, *initial_state];
# LSTM's own cell refuses a nested input.


class NestedCell(tf.keras.layers.Layer):
    def __init__(self, unit_1, unit_2, unit_3, **kwargs):
        self.unit_1, self.unit_2, self.unit_3 = unit_1, unit_2, unit_3
        self.state_size = [tf.TensorShape([unit_1]), tf.TensorShape([unit_2, unit_3])]
        self.output_size = [tf.TensorShape([unit_1]), tf.TensorShape([unit_2, unit_3])]
        self.build_shapes = None
        super().__init__(**kwargs)

    def build(self, input_shapes):
        self.build_shapes = [list(s) for s in input_shapes]
        i1, i2, i3 = input_shapes[0][1], input_shapes[1][1], input_shapes[1][2]
        self.kernel_1 = self.add_weight(shape=(i1, self.unit_1), initializer="ones",
                                        name="kernel_1")
        self.kernel_2_3 = self.add_weight(shape=(i2, i3, self.unit_2, self.unit_3),
                                          initializer="ones", name="kernel_2_3")

    def call(self, inputs, states):
        input_1, input_2 = tf.nest.flatten(inputs)
        s1, s2 = states
        output_1 = tf.tanh(tf.matmul(input_1, self.kernel_1) + 0.5 * s1)
        output_2_3 = tf.einsum("bij,ijkl->bkl", input_2, self.kernel_2_3) * 0.1 + s2
        return (output_1, output_2_3), (output_1, output_2_3)


def arange(*shape, scale=0.05):
    n = int(np.prod(shape))
    return tf.constant(np.sin(np.arange(n, dtype=np.float32) * 0.7).reshape(shape) * scale
                       * 10)


x1, x2 = arange(2, 3, 4), arange(2, 3, 2, 3)
cell = NestedCell(2, 2, 3)
rnn = tf.keras.layers.RNN(cell)
cell_kernels = None
out = rnn((x1, x2))
report("build_shapes", cell.build_shapes)
report("weights", [v.name for v in rnn.weights])
cell.kernel_1.assign(arange(4, 2, scale=0.03))
cell.kernel_2_3.assign(arange(2, 3, 2, 3, scale=0.02))
report("last", rnn((x1, x2)))
report("last_type", type(rnn((x1, x2))).__name__)

seq = tf.keras.layers.RNN(cell, return_sequences=True, return_state=True)
o = seq((x1, x2))
report("sequences_and_states", o)
report("sequences_structure", [type(o).__name__, len(o), type(o[0]).__name__])

h0 = [tf.fill((2, 2), 0.3), tf.fill((2, 2, 3), -0.2)]
report("initial_state", rnn((x1, x2), initial_state=h0))
report("list_is_inputs_then_states", rnn([(x1, x2)] + h0))

with tf.GradientTape() as tape:
    a, b = rnn((x1, x2))
    loss = tf.reduce_sum(a) + tf.reduce_sum(b ** 2)
report("grads", tape.gradient(loss, [cell.kernel_1, cell.kernel_2_3]))

back = tf.keras.layers.RNN(NestedCell(2, 2, 3), go_backwards=True)
back((x1, x2))
back.set_weights(rnn.get_weights())
report("go_backwards", back((x1, x2)))

cell = NestedCell(3, 2, 2)
rnn = tf.keras.layers.RNN(cell)
input_1 = tf.keras.Input((None, 4))
input_2 = tf.keras.Input((None, 3, 2))
outputs = rnn((input_1, input_2))
report("symbolic_shapes", [list(t.shape) for t in outputs])
model = tf.keras.models.Model([input_1, input_2], outputs)
model.set_weights([arange(4, 3, scale=0.02), arange(3, 2, 2, 2, scale=0.01)])
model.compile(optimizer="adam", loss="mse", metrics=["accuracy"])
d1, d2 = arange(6, 5, 4, scale=0.1), arange(6, 5, 3, 2, scale=0.1)
t1, t2 = arange(6, 3, scale=0.08), arange(6, 2, 2, scale=0.04)
history = model.fit([d1, d2], [t1, t2], batch_size=3, epochs=2, shuffle=False, verbose=0)
report("fit_history", history.history)
report("fit_weights", model.get_weights())
report("predict", model.predict([d1, d2], verbose=0))

s_in = [tf.keras.Input((3,)), tf.keras.Input((2, 2))]
with_states = tf.keras.layers.RNN(NestedCell(3, 2, 2))([(input_1, input_2)] + s_in)
model = tf.keras.Model([input_1, input_2] + s_in, with_states)
report("symbolic_list_with_states", model([d1, d2, tf.fill((6, 3), 0.2), tf.fill((6, 2, 2), -0.1)]))

x = tf.ones((2, 3, 4))
expect_error("lstm_tuple_with_states", lambda: tf.keras.layers.LSTM(5)((x, tf.zeros((2, 5)),
                                                                         tf.zeros((2, 5)))))
expect_error("lstm_two_inputs", lambda: tf.keras.layers.LSTM(5)((x, x)))
expect_error("lstm_symbolic_two_inputs", lambda: tf.keras.layers.LSTM(5)(
    (tf.keras.Input((None, 4)), tf.keras.Input((None, 4)))))
