# An operator whose other operand is a Python list holding tensors (`loss + layer.losses`,
# as Dive into Deep Learning's weight-decay chapter writes it): TensorFlow packs the list,
# so the gradient flows through it into each tensor.
x = tf.Variable(3.0)
w = tf.Variable([1.0, -2.0])
with tf.GradientTape(persistent=True) as tape:
    added = tf.constant(1.0) + [x * x]
    reflected = [x * x] + tf.constant(1.0)
    mixed = tf.constant([1.0, 2.0]) * [x, 2.0]
    nested = tf.constant([[1.0], [2.0]]) - [[x], [x * w[0]]]
    compared = tf.reduce_sum(tf.where(w > [0.0, x - 4.0], w * x, [x, 1.0]))
    layer = tf.keras.layers.Dense(1, kernel_initializer="ones",
                                  kernel_regularizer=tf.keras.regularizers.l2(3.0))
    out = tf.reduce_mean(layer(tf.constant([[1.0, 2.0]])))
    total = out + layer.losses
report("values", [added, reflected, mixed, nested, compared, total])
report("grads.added", tape.gradient(added, x))
report("grads.reflected", tape.gradient(reflected, x))
report("grads.mixed", tape.gradient(mixed, x))
report("grads.nested", tape.gradient(nested, [x, w]))
report("grads.compared", tape.gradient(compared, [x, w]))
report("grads.layer_losses", tape.gradient(total, layer.trainable_variables))
