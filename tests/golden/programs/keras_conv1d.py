# tf.nn.conv1d, Conv1D ('valid', 'same', 'causal', strides, dilation), MaxPooling1D,
# AveragePooling1D, and a small text CNN (Embedding, Conv1D, GlobalMaxPooling1D, Dense)
# trained with fit, weights set from NumPy
L = tf.keras.layers
seq = tf.constant(np.sin(np.arange(2 * 9 * 3) * 0.8).reshape(2, 9, 3), tf.float32)


def kernel(*shape):
    return np.cos(np.arange(int(np.prod(shape))) * 0.55).reshape(shape).astype(np.float32)


def run(f, *inputs):
    inputs = [tf.constant(t) for t in inputs]
    with tf.GradientTape() as tape:
        for t in inputs:
            tape.watch(t)
        y = f(*inputs)
        loss = tf.reduce_sum(y * tf.reshape(tf.cos(tf.cast(tf.range(tf.size(y)), y.dtype)),
                                            tf.shape(y)))
    return [y] + tape.gradient(loss, inputs)


w = kernel(3, 3, 2)
report("conv1d.valid", run(lambda a, b: tf.nn.conv1d(a, b, 1, "VALID"), seq, w))
report("conv1d.same_stride2", run(lambda a, b: tf.nn.conv1d(a, b, 2, "SAME"), seq, w))
report("conv1d.dilated", tf.nn.conv1d(seq, w, 1, "VALID", dilations=2))
for name, padding, strides, dilation in [("valid", "valid", 1, 1), ("same", "same", 2, 1),
                                         ("causal", "causal", 1, 1),
                                         ("causal_dilated", "causal", 1, 2)]:
    layer = L.Conv1D(2, 3, strides=strides, padding=padding, dilation_rate=dilation,
                     activation="relu", name=f"conv1d_{name}")
    layer.build((None, 9, 3))
    layer.set_weights([w, np.array([0.1, -0.1], np.float32)])
    with tf.GradientTape() as tape:
        y = layer(seq)
        loss = tf.reduce_sum(y * y)
    report(f"layer.{name}", [y] + tape.gradient(loss, layer.trainable_weights))
    report(f"layer.{name}.output_shape", list(layer.compute_output_shape((None, 9, 3))))
report("max_pooling1d", run(L.MaxPooling1D(), seq))
report("max_pooling1d.same", run(L.MaxPooling1D(3, strides=2, padding="same"), seq))
report("average_pooling1d", run(L.AveragePooling1D(2, padding="same"), seq))
report("aliases", [L.Convolution1D is L.Conv1D, L.MaxPool1D is L.MaxPooling1D])
# extra leading axes are batch axes; a sequence without a batch axis is refused
report("conv1d_layer.rank4_input_shape", list(L.Conv1D(2, 3)(tf.ones((1, 4, 4, 3))).shape))
expect_error("conv1d_layer.rank2_input", lambda: L.Conv1D(2, 3)(tf.ones((4, 3))))

texts = np.array([[1, 4, 2, 0, 0, 3], [5, 5, 1, 2, 3, 4], [2, 0, 0, 1, 1, 1], [3, 3, 4, 5, 0, 2]])
labels = np.array([1, 0, 1, 0])
model = tf.keras.Sequential([tf.keras.Input(shape=(6,), dtype="int32"),
                             L.Embedding(6, 4, name="emb"),
                             L.Conv1D(3, 2, activation="relu", name="conv"),
                             L.GlobalMaxPooling1D(name="pool"),
                             L.Dense(1, name="out")])
model.get_layer("emb").set_weights([kernel(6, 4)])
model.get_layer("conv").set_weights([kernel(2, 4, 3) * 0.5, np.zeros(3, np.float32)])
model.get_layer("out").set_weights([kernel(3, 1), np.array([0.1], np.float32)])
model.compile(optimizer=tf.keras.optimizers.SGD(0.2),
              loss=tf.keras.losses.BinaryCrossentropy(from_logits=True))
report("text_cnn.history", model.fit(texts, labels, batch_size=2, epochs=3, shuffle=False,
                                     verbose=0).history)
report("text_cnn.weights", model.get_weights())
report("text_cnn.output_shape", list(model.output_shape))
