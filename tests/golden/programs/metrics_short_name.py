# tf.metrics, TensorFlow's shorter name for tf.keras.metrics (the text-generation tutorial
# keeps its loss with tf.metrics.Mean)
mean = tf.metrics.Mean()
mean.update_state(tf.constant([1.0, 2.0]))
mean.update_state(4.0)
report("tf.metrics.Mean", mean.result())
report("same_class", tf.metrics.Mean is tf.keras.metrics.Mean)
accuracy = tf.metrics.SparseCategoricalAccuracy()
accuracy.update_state(tf.constant([1, 0]), tf.constant([[0.2, 0.8], [0.3, 0.7]]))
report("tf.metrics.SparseCategoricalAccuracy", accuracy.result())
report("tf.metrics.mean_squared_error", tf.metrics.mean_squared_error(
    tf.constant([[1.0, 2.0]]), tf.constant([[0.0, 0.0]])))
