# tf.image.rgb_to_yuv and yuv_to_rgb (the super-resolution example's Y channel): a pixel, a
# batch, the round trip, gradients, float64 and float16, and TensorFlow's errors for integer
# images and a last axis that is not 3
rgb = tf.constant([[[0.2, 0.5, 0.9], [1.0, 0.0, 0.25]], [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]])
yuv = tf.image.rgb_to_yuv(rgb)
report("yuv", yuv)
report("back", tf.image.yuv_to_rgb(yuv))
report("batch", tf.image.rgb_to_yuv(tf.stack([rgb, rgb * 0.5])))
report("float64", tf.image.rgb_to_yuv(tf.constant([[0.2, 0.5, 0.9]], tf.float64)))
report("float16", tf.image.rgb_to_yuv(tf.constant([[0.2, 0.5, 0.9]], tf.float16)))
with tf.GradientTape(persistent=True) as tape:
    tape.watch(rgb)
    y, u, v = tf.split(tf.image.rgb_to_yuv(rgb), 3, axis=-1)
    back = tf.image.yuv_to_rgb(tf.image.rgb_to_yuv(rgb) * [1.0, 2.0, 3.0])
report("grad_y", tape.gradient(y, rgb))
report("grad_v", tape.gradient(v, rgb))
report("grad_back", tape.gradient(back, rgb))
expect_error("integers", lambda: tf.image.rgb_to_yuv(tf.constant([[1, 2, 3]])))
expect_error("four_channels", lambda: tf.image.rgb_to_yuv(tf.ones((2, 4))))
expect_error("yuv_four_channels", lambda: tf.image.yuv_to_rgb(tf.ones((2, 4))))
