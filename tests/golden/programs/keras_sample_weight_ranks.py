# A sample_weight of lower rank than the values it weighs: one weight per example weighs
# every step of that example (Keras adds trailing axes of 1), in losses, in metrics and in
# confusion metrics; a (batch, 1) weight beside (batch,) values loses its last axis.
# Square (2, 2) values are the case where broadcasting along the wrong axis would not fail.

labels = tf.constant([[1, 2, 0], [0, 1, 3]])
logits = tf.constant(np.linspace(0.1, 2.4, 24, dtype=np.float32).reshape(2, 3, 4))
per_example = tf.constant([1.0, 0.25])

report("loss.per_step", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(
    labels, logits, sample_weight=per_example))
report("loss.per_step_none", tf.keras.losses.SparseCategoricalCrossentropy(
    from_logits=True, reduction="none")(labels, logits, sample_weight=per_example))
report("loss.column_weight", tf.keras.losses.MeanSquaredError()(
    tf.constant([[1.0], [2.0]]), tf.constant([[0.0], [0.0]]),
    sample_weight=tf.constant([[1.0], [0.5]])))

mean = tf.keras.metrics.Mean()
mean.update_state(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), sample_weight=[1.0, 0.0])
report("mean.rows", mean.result())
square = tf.keras.metrics.Mean()
square.update_state(tf.constant([[1.0, 2.0], [4.0, 5.0]]), sample_weight=[1.0, 0.0])
report("mean.square_rows", square.result())
column = tf.keras.metrics.Mean()
column.update_state(tf.constant([1.0, 4.0]), sample_weight=[[1.0], [0.0]])
report("mean.column_weight", column.result())

accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
accuracy.update_state(labels, logits, sample_weight=per_example)
report("accuracy.per_step", accuracy.result())
mse = tf.keras.metrics.MeanSquaredError()
mse.update_state(tf.ones((2, 3, 2)), tf.reshape(tf.range(12, dtype=tf.float32), (2, 3, 2)),
                 sample_weight=[1.0, 0.0])
report("mse.per_step", mse.result())
precision = tf.keras.metrics.Precision()
precision.update_state(tf.constant([[1, 0, 1], [1, 1, 0]]),
                       tf.constant([[0.9, 0.8, 0.2], [0.7, 0.1, 0.6]]), sample_weight=[1.0, 3.0])
report("precision.per_row", precision.result())
