# An LSTM text classifier (Embedding with mask_zero, LSTM, Dense) trained with compile/fit for
# a few steps, weights set from NumPy: the losses, metrics and weights after training match;
# then a Bidirectional GRU classifier built with the functional API, trained the same way
L = tf.keras.layers
ids = np.array([[4, 7, 2, 9, 0, 0], [3, 3, 8, 0, 0, 0], [11, 5, 6, 1, 2, 10], [9, 0, 0, 0, 0, 0],
                [2, 4, 6, 8, 10, 0], [1, 1, 1, 0, 0, 0], [7, 3, 5, 11, 0, 0],
                [6, 2, 0, 0, 0, 0]], np.int32)
labels = np.array([1, 0, 1, 0, 1, 0, 1, 0], np.float32)


def fill(shape, phase):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 0.37 + phase) * 0.4).reshape(shape).astype(np.float32)


def set_all(model):
    model.set_weights([fill(w.shape, i) for i, w in enumerate(model.get_weights())])
    return model


lstm_model = tf.keras.Sequential([tf.keras.Input(shape=(6,), dtype="int32"),
                                  L.Embedding(12, 4, mask_zero=True, name="emb"),
                                  L.LSTM(5, name="lstm"),
                                  L.Dense(1, activation="sigmoid", name="out")])
set_all(lstm_model)
report("lstm.weight_names", [w.name for w in lstm_model.weights])
report("lstm.initial_predictions", lstm_model(ids))
lstm_model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=0.05),
                   loss="binary_crossentropy", metrics=["accuracy"])
history = lstm_model.fit(ids, labels, batch_size=4, epochs=3, shuffle=False, verbose=0)
report("lstm.history", history.history)
report("lstm.weights_after", lstm_model.get_weights())
report("lstm.predict", lstm_model.predict(ids, verbose=0))
report("lstm.evaluate", lstm_model.evaluate(ids, labels, verbose=0))

inputs = tf.keras.Input(shape=(6,), dtype="int32")
h = L.Embedding(12, 3, mask_zero=True)(inputs)
h = L.Bidirectional(L.GRU(2, return_sequences=True))(h)
h = L.GlobalAveragePooling1D()(h)
bi_model = set_all(tf.keras.Model(inputs, L.Dense(1)(h)))
bi_model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1),
                 loss=tf.keras.losses.BinaryCrossentropy(from_logits=True))
report("bigru.history", bi_model.fit(ids, labels, batch_size=8, epochs=3, shuffle=False,
                                     verbose=0).history)
report("bigru.weights_after", bi_model.get_weights())
