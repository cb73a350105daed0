# tf.image.total_variation (the style-transfer tutorial's smoothness loss): one image, a batch,
# integer pixels, its gradient, and a wrong rank
image = tf.Variable([[[0.1, 0.5], [0.9, 0.2], [0.4, 0.4]],
                     [[0.3, 0.8], [0.0, 1.0], [0.6, 0.1]]])
with tf.GradientTape() as tape:
    tv_loss = tf.image.total_variation(image)
report("single", tv_loss)
report("single.grad", tape.gradient(tv_loss, image))
batch = tf.stack([image, image * 2.0, tf.ones_like(image)])
report("batch", tf.image.total_variation(batch))
report("integers", tf.image.total_variation(tf.constant([[[1], [4]], [[2], [8]]])))
expect_error("rank2", lambda: tf.image.total_variation(tf.ones((3, 3))))
