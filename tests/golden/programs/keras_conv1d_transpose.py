# Conv1DTranspose ('valid', 'same', strides, output_padding): kernel name and shape, values,
# gradients of inputs and weights, output shapes, its refusals, and a small Conv1D /
# Conv1DTranspose autoencoder trained with fit; weights set from NumPy
L = tf.keras.layers
seq = tf.constant(np.sin(np.arange(2 * 5 * 3) * 0.8).reshape(2, 5, 3), tf.float32)


def kernel(*shape):
    return np.cos(np.arange(int(np.prod(shape))) * 0.55).reshape(shape).astype(np.float32)


for name, padding, strides, output_padding in [("valid", "valid", 1, None),
                                               ("same_stride2", "same", 2, None),
                                               ("valid_stride3", "valid", 3, None),
                                               ("same_output_padding", "same", 2, 1),
                                               ("valid_output_padding", "valid", 3, 2)]:
    layer = L.Conv1DTranspose(2, 3, strides=strides, padding=padding,
                              output_padding=output_padding, activation="tanh",
                              name=f"conv1d_transpose_{name}")
    layer.build((None, 5, 3))
    report(f"layer.{name}.weights", [[w.name, list(w.shape)] for w in layer.weights])
    layer.set_weights([kernel(3, 2, 3), np.array([0.1, -0.1], np.float32)])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(seq)
        y = layer(seq)
        loss = tf.reduce_sum(y * tf.reshape(tf.cos(tf.cast(tf.range(tf.size(y)), y.dtype)),
                                            tf.shape(y)))
    report(f"layer.{name}", [y, tape.gradient(loss, seq)]
           + tape.gradient(loss, layer.trainable_weights))
    report(f"layer.{name}.output_shape", list(layer.compute_output_shape((None, 5, 3))))
report("alias", L.Convolution1DTranspose is L.Conv1DTranspose)
expect_error("conv1d_transpose.rank2_input", lambda: L.Conv1DTranspose(2, 3)(tf.ones((4, 3))))
expect_error("conv1d_transpose.output_padding_too_big",
             lambda: L.Conv1DTranspose(2, 3, strides=2, output_padding=2))

x = np.sin(np.arange(4 * 8) * 0.3).reshape(4, 8, 1).astype(np.float32)
model = tf.keras.Sequential([tf.keras.Input(shape=(8, 1)),
                             L.Conv1D(4, 3, strides=2, padding="same", activation="relu",
                                      name="down"),
                             L.Conv1DTranspose(4, 3, strides=2, padding="same",
                                               activation="relu", name="up"),
                             L.Conv1DTranspose(1, 3, padding="same", name="out")])
model.get_layer("down").set_weights([kernel(3, 1, 4) * 0.5, np.zeros(4, np.float32)])
model.get_layer("up").set_weights([kernel(3, 4, 4) * 0.3, np.full(4, 0.05, np.float32)])
model.get_layer("out").set_weights([kernel(3, 1, 4) * 0.3, np.zeros(1, np.float32)])
model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
report("autoencoder.output_shape", list(model.output_shape))
report("autoencoder.history", model.fit(x, x, batch_size=2, epochs=3, shuffle=False,
                                        verbose=0).history)
report("autoencoder.predict", model.predict(x, verbose=0))
