# tf.image.random_* (the stateful ones) under tf.random.set_seed and with seed=: TensorFlow
# draws them with its stateful RandomUniform / RandomUniformInt kernels, which keep their
# Philox state between calls, so a second call with the same seed gives new numbers and
# set_seed starts them all over. Also tf.random.uniform / normal / tf.nn.dropout's numbers.

rng = np.random.default_rng(11)
batch = tf.constant(rng.uniform(0, 1, size=(6, 4, 3, 3)).astype(np.float32))
image = tf.constant(rng.uniform(0, 1, size=(5, 4, 3)).astype(np.float32))
pixels = tf.constant(rng.integers(0, 256, size=(4, 5, 3)).astype(np.uint8))


def all_ops(tag, seed):
    report(tag + ".flip_lr", [tf.image.random_flip_left_right(batch, seed=seed),
                              tf.image.random_flip_left_right(image, seed=seed),
                              tf.image.random_flip_left_right(pixels, seed=seed)])
    report(tag + ".flip_ud", [tf.image.random_flip_up_down(batch, seed=seed),
                              tf.image.random_flip_up_down(image, seed=seed),
                              tf.image.random_flip_up_down(pixels, seed=seed)])
    report(tag + ".brightness", [tf.image.random_brightness(batch, 0.3, seed=seed),
                                 tf.image.random_brightness(pixels, 0.2, seed=seed)])
    report(tag + ".contrast", [tf.image.random_contrast(batch, 0.2, 1.7, seed=seed),
                               tf.image.random_contrast(pixels, 0.5, 0.9, seed=seed)])
    report(tag + ".saturation", [tf.image.random_saturation(batch, 0.1, 3.0, seed=seed),
                                 tf.image.random_saturation(pixels, 0.5, 1.5, seed=seed)])
    report(tag + ".hue", [tf.image.random_hue(batch, 0.4, seed=seed),
                          tf.image.random_hue(pixels, 0.2, seed=seed)])
    report(tag + ".crop", [tf.image.random_crop(batch, [3, 2, 2, 3], seed=seed),
                           tf.image.random_crop(pixels, (2, 3, 3), seed=seed)])


tf.random.set_seed(3)
all_ops("global_only", None)
report("global_only.uniform_after", tf.random.uniform([4]))
all_ops("op_seed_first", 7)
all_ops("op_seed_again", 7)
tf.random.set_seed(3)
all_ops("global_again", None)
tf.random.set_seed(0)
report("zero_seed", tf.random.uniform([3], seed=0))
tf.random.set_seed(None)
all_ops("op_seed_only", 12345)

tf.random.set_seed(42)
report("uniform.float32", [tf.random.uniform([5]), tf.random.uniform([2, 3], -2.0, 5.0),
                           tf.random.uniform([3], maxval=4.0, seed=9),
                           tf.random.uniform([3], maxval=4.0, seed=9)])
report("uniform.others", [tf.random.uniform([3], dtype=tf.float64, seed=9),
                          tf.random.uniform([3], dtype=tf.float16, seed=9),
                          tf.random.uniform([4], 0, 10, dtype=tf.int32, seed=9),
                          tf.random.uniform([3], -5, 2 ** 40, dtype=tf.int64, seed=9)])
report("normal", [tf.random.normal([5]), tf.random.normal([2, 2], 3.0, 0.5, seed=9),
                  tf.random.normal([3], dtype=tf.float64, seed=9),
                  tf.random.normal([3], dtype=tf.float16, seed=9)])
report("dropout", [tf.nn.dropout(tf.ones([3, 5]), 0.5), tf.nn.dropout(tf.ones([6]), 0.3, seed=2)])
report("after_truncated_normal", [list(tf.random.truncated_normal([3]).shape),
                                  tf.random.uniform([2])])

report("adjust_hue", [tf.image.adjust_hue(batch, 0.3), tf.image.adjust_hue(pixels, -0.45),
                      tf.image.adjust_hue(image, 0.0)])
expect_error("brightness.negative", lambda: tf.image.random_brightness(batch, -0.1))
expect_error("contrast.upper_not_above", lambda: tf.image.random_contrast(batch, 0.5, 0.5))
expect_error("contrast.negative", lambda: tf.image.random_contrast(batch, -0.5, 0.5))
expect_error("saturation.upper_not_above", lambda: tf.image.random_saturation(batch, 1.0, 0.5))
expect_error("saturation.negative", lambda: tf.image.random_saturation(batch, -0.5, 0.5))
expect_error("hue.too_big", lambda: tf.image.random_hue(batch, 0.6))
expect_error("hue.negative", lambda: tf.image.random_hue(batch, -0.1))
expect_error("crop.too_big", lambda: tf.image.random_crop(pixels, (5, 5, 3)))
expect_error("flip.rank2", lambda: tf.image.random_flip_left_right(tf.zeros([2, 2])))
