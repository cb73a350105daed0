# Recurrent layers with weights set from NumPy: SimpleRNN, LSTM, GRU (both reset_after
# layouts), RNN(cell), the cells on their own, Bidirectional (every merge mode) and
# TimeDistributed; outputs, the gradients with respect to the input and every weight, weight
# names, shapes and order, dropout's inference behaviour, and the errors
L = tf.keras.layers
x = (np.sin(np.arange(2 * 5 * 3) * 0.7) * 1.5).reshape(2, 5, 3).astype(np.float32)


def fill(shape, phase):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 0.37 + phase) * 0.6).reshape(shape).astype(np.float32)


def set_all(layer):
    layer.set_weights([fill(w.shape, i) for i, w in enumerate(layer.get_weights())])
    return layer


def check(name, layer, inputs=x, **call):
    xt = tf.constant(inputs)
    layer(xt, **call)           # builds it
    set_all(layer)
    report(f"{name}.names", [w.name for w in layer.weights])
    report(f"{name}.shapes", [list(w.shape) for w in layer.weights])
    with tf.GradientTape() as tape:
        tape.watch(xt)
        out = layer(xt, **call)
        flat = out if isinstance(out, list) else [out]
        loss = tf.add_n([tf.reduce_sum(o * fill(o.shape, 0.5 + k)) for k, o in enumerate(flat)])
    report(f"{name}.out", out)
    report(f"{name}.grads", tape.gradient(loss, [xt] + layer.trainable_variables))


check("simple_rnn", L.SimpleRNN(4))
check("simple_rnn_seq_relu", L.SimpleRNN(4, activation="relu", return_sequences=True))
check("lstm", L.LSTM(4))
check("lstm_seq_state", L.LSTM(4, return_sequences=True, return_state=True))
check("lstm_backwards", L.LSTM(3, go_backwards=True, return_sequences=True))
check("lstm_no_bias", L.LSTM(2, use_bias=False, return_state=True))
check("lstm_other_activations", L.LSTM(3, activation="relu",
                                      recurrent_activation="hard_sigmoid"))
check("gru", L.GRU(4, return_sequences=True))
check("gru_state", L.GRU(3, return_state=True, go_backwards=True))
check("gru_reset_before", L.GRU(4, reset_after=False, return_sequences=True))
check("gru_no_bias", L.GRU(3, use_bias=False))
check("rnn_lstm_cell", L.RNN(L.LSTMCell(3), return_sequences=True))
check("rnn_gru_cell", L.RNN(L.GRUCell(2, reset_after=False), return_state=True))
check("rnn_simple_cell", L.RNN(L.SimpleRNNCell(3)))
for mode in ["concat", "sum", "mul", "ave", None]:
    check(f"bidirectional_{mode}", L.Bidirectional(L.LSTM(3, return_sequences=True),
                                                   merge_mode=mode))
check("bidirectional_gru_last", L.Bidirectional(L.GRU(2)))
check("bidirectional_state", L.Bidirectional(L.SimpleRNN(2, return_state=True)))
check("time_distributed", L.TimeDistributed(L.Dense(2)))
check("lstm_initial_state", L.LSTM(2), initial_state=[tf.constant(fill((2, 2), 3.0)),
                                                      tf.constant(fill((2, 2), 4.0))])

# the cells on their own: one step, (output, new states)
for name, cell, states in [("lstm_cell", L.LSTMCell(3), [fill((2, 3), 1.0), fill((2, 3), 2.0)]),
                           ("gru_cell", L.GRUCell(3), [fill((2, 3), 1.0)]),
                           ("simple_rnn_cell", L.SimpleRNNCell(3), [fill((2, 3), 1.0)])]:
    step_x = tf.constant(x[:, 0])
    cell(step_x, [tf.constant(s) for s in states])
    set_all(cell)
    report(f"{name}.state_size", [int(s) for s in np.ravel(cell.state_size)])
    report(f"{name}.names", [w.name for w in cell.weights])
    with tf.GradientTape() as tape:
        tape.watch(step_x)
        out, new_states = cell(step_x, [tf.constant(s) for s in states])
        loss = tf.reduce_sum(out * fill(out.shape, 0.3)) + tf.reduce_sum(new_states[-1])
    report(f"{name}.step", [out, new_states])
    report(f"{name}.grads", tape.gradient(loss, [step_x] + cell.trainable_variables))

# dropout: inactive outside training; a rate of 1 is refused when training
plain = set_all(L.LSTM(3, return_sequences=True))
plain(x)
plain = set_all(plain)
dropped = L.LSTM(3, return_sequences=True, dropout=0.5, recurrent_dropout=0.5)
dropped(x)
dropped.set_weights(plain.get_weights())
report("dropout.inference_equals_plain", float(np.max(np.abs(dropped(x) - plain(x)))) < 1e-6)
report("dropout.training_false", dropped(x, training=False))
full = L.GRU(3, dropout=1.0, recurrent_dropout=1.0)
full(x)
set_all(full)
report("dropout.rate_one_inference", full(x))
expect_error("dropout.rate_one_training", lambda: full(x, training=True))

# default initial values: the recurrent kernel orthogonal, the LSTM forget bias ones
init = L.LSTM(3)
init(x)
rk = init.cell.recurrent_kernel.numpy()
report("init.recurrent_gram", bool(np.allclose(rk @ rk.T, np.eye(3), atol=1e-5)))
report("init.bias", init.cell.bias)
report("init.gru_bias", (lambda g: (g(x), g.cell.bias)[1])(L.GRU(2)))
report("properties", [init.units, init.return_sequences, init.go_backwards,
                      L.GRU(2).reset_after, L.LSTM(2).unit_forget_bias])

# errors
expect_error("error.rank2_input", lambda: L.LSTM(2)(tf.ones((2, 3))))
expect_error("error.wrong_state_count", lambda: L.LSTM(2)(x, initial_state=[tf.zeros((2, 2))]))
expect_error("error.bidirectional_merge_mode", lambda: L.Bidirectional(L.LSTM(2), merge_mode="max"))
expect_error("error.bidirectional_not_a_layer", lambda: L.Bidirectional(3))
expect_error("error.rnn_not_a_cell", lambda: L.RNN(3))
expect_error("error.units_zero", lambda: L.LSTM(0))

# output shapes without data
shapes = [L.LSTM(2, return_state=True).compute_output_shape((None, 5, 3)),
          L.GRU(2, return_sequences=True).compute_output_shape((None, 5, 3)),
          L.Bidirectional(L.GRU(2), merge_mode=None).compute_output_shape((None, 5, 3)),
          L.Bidirectional(L.LSTM(2, return_state=True)).compute_output_shape((None, 5, 3)),
          L.Bidirectional(L.LSTM(2, return_sequences=True)).compute_output_shape((None, 5, 3)),
          L.TimeDistributed(L.Dense(4)).compute_output_shape((None, 5, 3))]
report("output_shapes", [[list(s) for s in shape] if isinstance(shape, list) else list(shape)
                         for shape in shapes])
