# The losses Keras also has as metrics (tf.keras.metrics.SparseCategoricalCrossentropy, ...):
# the mean of each example's loss over every update, sample weights, reset (as TensorFlow's
# guide on migrating early stopping keeps its training loss)
logits = tf.constant([[2.0, -1.0, 0.5], [0.1, 0.2, 3.0], [1.0, 1.0, 1.0]])
probs = tf.nn.softmax(logits)
labels = tf.constant([0, 2, 1])
onehot = tf.one_hot(labels, 3)

m = tf.keras.metrics.SparseCategoricalCrossentropy()
m.update_state(labels[:2], probs[:2])
report("sparse_first", m.result())
m.update_state(labels[2:], probs[2:])
report("sparse_both", m.result())
report("sparse_name", m.name)
m.reset_state()
m.update_state(labels, probs, sample_weight=tf.constant([1.0, 0.0, 2.0]))
report("sparse_weighted", m.result())
report("sparse_from_logits", tf.keras.metrics.SparseCategoricalCrossentropy(from_logits=True)(
    labels, logits))
report("sparse_unnormalized_logits_as_probs",
       tf.keras.metrics.SparseCategoricalCrossentropy()(labels, tf.abs(logits)))
report("sparse_labels_column", tf.keras.metrics.SparseCategoricalCrossentropy()(
    tf.reshape(labels, [3, 1]), probs))

c = tf.keras.metrics.CategoricalCrossentropy()
c.update_state(onehot, probs)
report("categorical", c.result())
report("categorical_name", c.name)
report("categorical_from_logits_smoothing", tf.keras.metrics.CategoricalCrossentropy(
    from_logits=True, label_smoothing=0.1)(onehot, logits))

k = tf.keras.metrics.KLDivergence()
k.update_state(onehot * 0.8 + 0.1, probs)
report("kl_divergence", k.result())
report("kl_name", k.name)
h = tf.keras.metrics.Hinge()
h.update_state(tf.constant([[0.0, 1.0], [1.0, 0.0]]), tf.constant([[0.3, 0.8], [-0.2, 0.4]]))
report("hinge", h.result())
report("hinge_name", h.name)
report("result_dtype", tf.keras.metrics.SparseCategoricalCrossentropy()(labels, probs).dtype.name)
