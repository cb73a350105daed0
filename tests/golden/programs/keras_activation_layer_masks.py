# Activation layers hand a sequence's mask on unchanged (Keras's supports_masking), the
# LeakyReLU layer included, and LeakyReLU keeps Keras 2's default slope 0.3 (Softmax applies a
# mask it is given to its logits, so a (batch, steps) mask cannot reach its (batch, steps, 2)
# input here: only its flag is read)

embedding = tf.keras.layers.Embedding(5, 2, embeddings_initializer="ones", mask_zero=True)
steps = embedding(tf.constant([[3, 4, 0], [1, 0, 0]]))
for layer in (tf.keras.layers.LeakyReLU(), tf.keras.layers.ReLU(),
              tf.keras.layers.Activation("tanh")):
    name = type(layer).__name__
    report(f"{name}.supports_masking", layer.supports_masking)
    out = layer(steps)
    report(f"{name}.mask", getattr(out, "_keras_mask", None))
report("Softmax.supports_masking", tf.keras.layers.Softmax().supports_masking)
report("LeakyReLU.values", tf.keras.layers.LeakyReLU()(tf.constant([-2.0, 0.0, 3.0])))
expect_error("LeakyReLU.alpha_none", lambda: tf.keras.layers.LeakyReLU(alpha=None))
