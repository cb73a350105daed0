# tf.keras.layers.MultiHeadAttention as the keras.io transformer examples use it: self- and
# cross-attention with the projections' variable names and shapes, key_dim and value_dim,
# return_attention_scores, an attention_mask and use_causal_mask, gradients to the inputs
# and every kernel, a functional model trained one Adam step; a custom layer whose call
# requires `training` (Keras passes it); GlobalAveragePooling1D(data_format="channels_first").
rng = np.random.default_rng(0)
q = rng.uniform(-1, 1, (2, 3, 4)).astype(np.float32)
v = rng.uniform(-1, 1, (2, 5, 6)).astype(np.float32)


def fix(layer, seed):
    r = np.random.default_rng(seed)
    for w in layer.weights:
        w.assign(r.uniform(-0.5, 0.5, w.shape).astype(np.float32))


mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=3, value_dim=2)
_ = mha(q, v)
fix(mha, 1)
report("names", [w.name for w in mha.weights])
report("shapes", [w.shape.as_list() for w in mha.weights])
out, scores = mha(q, v, return_attention_scores=True)
report("cross", out)
report("scores", scores)
mask = np.array([[[1, 1, 0, 0, 1]] * 3, [[1, 0, 1, 1, 1]] * 3], bool)
report("masked", mha(q, v, attention_mask=mask))
self_att = tf.keras.layers.MultiHeadAttention(num_heads=3, key_dim=2)
_ = self_att(q, q)
fix(self_att, 2)
report("causal", self_att(q, q, use_causal_mask=True))
with tf.GradientTape(persistent=True) as tape:
    qt, vt = tf.constant(q), tf.constant(v)
    tape.watch([qt, vt])
    loss = tf.reduce_sum(mha(qt, vt, key=vt) * tf.constant([1.0, -2.0, 0.5, 3.0]))
report("grad_inputs", tape.gradient(loss, [qt, vt]))
report("grad_weights", tape.gradient(loss, mha.trainable_variables))


class Block(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.att = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)
        self.norm = tf.keras.layers.LayerNormalization(epsilon=1e-6)

    def call(self, inputs, training):
        return self.norm(inputs + self.att(inputs, inputs), training=training)


inputs = tf.keras.Input(shape=(3, 4))
x = Block()(inputs)
x = tf.keras.layers.GlobalAveragePooling1D(data_format="channels_first")(x)
outputs = tf.keras.layers.Dense(1)(x)
model = tf.keras.Model(inputs, outputs)
r = np.random.default_rng(3)
for w in model.trainable_variables:
    w.assign(r.uniform(-0.5, 0.5, w.shape).astype(np.float32))
report("model_variables", [w.name for w in model.trainable_variables])
model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
hist = model.fit(q, np.array([[1.0], [-1.0]], np.float32), epochs=2, batch_size=2, verbose=0)
report("fit_loss", hist.history["loss"])
report("pool_channels_first", tf.keras.layers.GlobalAveragePooling1D(data_format="channels_first")(q))
