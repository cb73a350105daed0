# Recurrent layers with time_major=True (Dive into Deep Learning's RNN, GRU and LSTM models),
# a recurrent layer's initial state passed as its second positional argument (`rnn(x, H)`),
# Sequential made of one layer, a layer's `input`, and tf.device's `_device_name`.
rng = np.random.default_rng(7)
x = tf.constant(rng.normal(size=(4, 2, 3)).astype(np.float32))      # (timesteps, batch, features)
h0 = tf.constant(rng.normal(size=(2, 5)).astype(np.float32))


def fixed(layer):
    layer.set_weights([np.linspace(-0.5, 0.5, w.size, dtype=np.float32).reshape(w.shape)
                       for w in layer.get_weights()])


for kind in ("SimpleRNN", "GRU", "LSTM"):
    layer = getattr(tf.keras.layers, kind)(5, return_sequences=True, return_state=True,
                                           time_major=True)
    layer(x)
    fixed(layer)
    state = None if kind == "LSTM" else h0
    with tf.GradientTape() as tape:
        tape.watch(x)
        outputs = layer(x, state) if state is not None else layer(x)
        loss = tf.reduce_sum(outputs[0] * outputs[0]) + tf.reduce_sum(outputs[1])
    report(f"{kind}.shapes", [list(o.shape) for o in outputs])
    report(f"{kind}.outputs", outputs)
    report(f"{kind}.grads", tape.gradient(loss, [x] + layer.trainable_variables))
    last = getattr(tf.keras.layers, kind)(5, time_major=True)
    last(x)
    fixed(last)
    report(f"{kind}.last_only", last(x))

inputs = tf.keras.Input(shape=(6, 3))
seq = tf.keras.layers.GRU(4, return_sequences=True, time_major=True)(inputs)
report("symbolic_time_major_shape", list(seq.shape))

inner = tf.keras.Sequential([tf.keras.layers.Dense(3, kernel_initializer="ones")])
outer = tf.keras.models.Sequential(inner)
single = tf.keras.Sequential(tf.keras.layers.Dense(2, kernel_initializer="ones"))
report("sequential_of_one", [len(outer.layers), outer.layers[0] is inner, len(single.layers),
                             single(tf.ones((1, 3)))])

inp = tf.keras.Input(shape=(3,), name="pixels")
hidden = tf.keras.layers.Dense(2, kernel_initializer="ones", name="hidden")
out = tf.keras.layers.Dense(1, kernel_initializer="ones")(hidden(inp))
model = tf.keras.Model(inp, out)
report("layer_input", [model.layers[0].input is model.layers[0].output,
                       list(model.layers[0].input.shape), list(hidden.input.shape),
                       list(hidden.output.shape)])
part = tf.keras.Model(inputs=model.layers[0].input, outputs=hidden.output)
report("layer_input_model", part(tf.constant([[1.0, 2.0, 3.0]])))
expect_error("input_of_uncalled_layer", lambda: tf.keras.layers.Dense(2).input)
report("device_name", [tf.device("/CPU:0")._device_name, tf.device("cpu:0")._device_name,
                       tf.device(None)._device_name])
