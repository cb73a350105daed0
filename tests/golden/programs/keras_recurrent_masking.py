# Masks: Embedding(mask_zero=True) and Masking make a mask that recurrent layers honour (a
# masked step carries the output and states through), handed on by Dense and Dropout,
# dropped by return_sequences=False; Bidirectional zeroes masked outputs; an explicit mask=
L = tf.keras.layers
ids = np.array([[3, 1, 4, 0, 0], [2, 0, 0, 0, 0], [5, 9, 2, 6, 5]], np.int32)
features = (np.cos(np.arange(3 * 5 * 2) * 0.9) * 2).reshape(3, 5, 2).astype(np.float32)
features[0, 3:] = 0.0
features[1, 1:] = 0.0


def fill(shape, phase):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 0.37 + phase) * 0.6).reshape(shape).astype(np.float32)


def set_all(layer):
    layer.set_weights([fill(w.shape, i) for i, w in enumerate(layer.get_weights())])
    return layer


def mask_of(t):
    return getattr(t, "_keras_mask", None)


embedding = L.Embedding(10, 3, mask_zero=True, name="emb")
vectors = embedding(ids)
set_all(embedding)
vectors = embedding(ids)
report("embedding.mask", mask_of(vectors))
report("embedding.compute_mask", embedding.compute_mask(ids))
report("embedding_no_mask.mask", mask_of(L.Embedding(10, 3)(ids)))
report("dense_hands_on", mask_of(L.Dense(2)(vectors)))
report("dropout_hands_on", mask_of(L.Dropout(0.5)(vectors)))

masking = L.Masking(mask_value=0.0)
masked_features = masking(features)
report("masking.out", masked_features)
report("masking.mask", mask_of(masked_features))


def check(name, layer, inputs, **call):
    layer(inputs, **call)
    set_all(layer)
    variables = layer.trainable_variables
    with tf.GradientTape() as tape:
        tape.watch(embedding.embeddings)
        source = embedding(ids) if inputs is None else inputs
        out = layer(source, **call)
        flat = out if isinstance(out, list) else [out]
        loss = tf.add_n([tf.reduce_sum(o * fill(o.shape, 0.5 + k)) for k, o in enumerate(flat)])
    report(f"{name}.out", out)
    report(f"{name}.out_mask", [mask_of(o) for o in flat])
    report(f"{name}.grads", tape.gradient(loss, variables + [embedding.embeddings]))


check("lstm", L.LSTM(3), vectors)
check("lstm_seq_state", L.LSTM(3, return_sequences=True, return_state=True), vectors)
check("lstm_backwards", L.LSTM(2, go_backwards=True, return_sequences=True), vectors)
check("gru_seq", L.GRU(3, return_sequences=True), vectors)
check("simple_rnn_state", L.SimpleRNN(2, return_state=True), vectors)
check("bidirectional_seq", L.Bidirectional(L.LSTM(2, return_sequences=True)), vectors)
check("bidirectional_last", L.Bidirectional(L.GRU(2), merge_mode="sum"), vectors)
check("lstm_on_masking", L.LSTM(2, return_sequences=True), masked_features)
check("lstm_explicit_mask", L.LSTM(2, return_sequences=True), tf.constant(features),
      mask=tf.constant(ids != 0))

# the mask through a Sequential model and a functional one
seq = tf.keras.Sequential([L.Embedding(10, 3, mask_zero=True), L.LSTM(2, return_sequences=True),
                           L.Dense(1)])
seq(ids)
for layer in seq.layers:
    set_all(layer)
out = seq(ids)
report("sequential.out", out)
report("sequential.out_mask", mask_of(out))

inputs = tf.keras.Input(shape=(5,), dtype="int32")
h = L.Embedding(10, 3, mask_zero=True)(inputs)
h = L.Dropout(0.1)(h)
h = L.GRU(2)(h)
functional = tf.keras.Model(inputs, L.Dense(1)(h))
for layer in functional.layers[1:]:
    if layer.weights:
        set_all(layer)
report("functional.out", functional(ids))
report("functional.training_false", functional(ids, training=False))
