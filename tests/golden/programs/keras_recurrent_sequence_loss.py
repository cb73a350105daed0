# A mask that reaches the loss: a loss object averages over the unmasked steps of a sequence
# output (a loss function does not), and compile/fit weighs the loss and the metrics by the
# mask, as in a sequence tagger (Embedding with mask_zero, LSTM returning sequences, Dense)
L = tf.keras.layers
ids = np.array([[3, 1, 4, 0], [2, 0, 0, 0], [5, 6, 2, 1], [4, 4, 0, 0]], np.int32)
tags = np.array([[1, 0, 2, 0], [2, 0, 0, 0], [0, 1, 1, 2], [2, 1, 0, 0]], np.int32)


def fill(shape, phase):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 0.37 + phase) * 0.5).reshape(shape).astype(np.float32)


emb = L.Embedding(7, 2, mask_zero=True)
emb(ids)
emb.set_weights([fill((7, 2), 0.0)])
scores = L.Dense(3, kernel_initializer="ones")(emb(ids))
report("scores_mask", scores._keras_mask)
y_true = fill((4, 4, 3), 1.0)
for name, loss in [("mse", tf.keras.losses.MeanSquaredError()),
                   ("mse_sum", tf.keras.losses.MeanSquaredError(reduction="sum")),
                   ("mse_none", tf.keras.losses.MeanSquaredError(reduction="none")),
                   ("mae", tf.keras.losses.MeanAbsoluteError()),
                   ("cce_logits", tf.keras.losses.CategoricalCrossentropy(from_logits=True)),
                   ("scce_logits", tf.keras.losses.SparseCategoricalCrossentropy(
                       from_logits=True))]:
    target = tags if name.startswith("scce") else y_true
    report(f"loss.{name}", loss(target, scores))
    report(f"loss.{name}.weighted", loss(target, scores, sample_weight=np.array(
        [1.0, 2.0, 0.5, 0.0], np.float32)))
report("loss.function_ignores_the_mask",
       tf.reduce_mean(tf.keras.losses.mean_squared_error(y_true, scores)))

tagger = tf.keras.Sequential([tf.keras.Input(shape=(4,), dtype="int32"),
                              L.Embedding(7, 3, mask_zero=True), L.LSTM(4, return_sequences=True),
                              L.Dense(3)])
tagger.set_weights([fill(w.shape, i) for i, w in enumerate(tagger.get_weights())])
tagger.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.5),
               loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
               metrics=["accuracy"])
report("tagger.history", tagger.fit(ids, tags, batch_size=2, epochs=3, shuffle=False,
                                    verbose=0).history)
report("tagger.evaluate", tagger.evaluate(ids, tags, verbose=0))
report("tagger.weights_after", tagger.get_weights())
