# tf.image.stateless_random_flip_left_right / _up_down / _brightness / _contrast / _crop:
# their draws depend only on the seed pair, so tapeviz gives TensorFlow's numbers (Philox
# through StatelessRandomGetKeyCounter), on batches, single images and uint8 images.

rng = np.random.default_rng(6)
batch = tf.constant(rng.uniform(0, 1, size=(5, 4, 3, 2)).astype(np.float32))
pixels = tf.constant(rng.integers(0, 256, size=(4, 5, 3)).astype(np.uint8))
for seed in [(1, 2), (7, 0), (123, 456789)]:
    key = "%d_%d" % seed
    report("flip_lr." + key, [tf.image.stateless_random_flip_left_right(batch, seed),
                              tf.image.stateless_random_flip_left_right(pixels, seed)])
    report("flip_ud." + key, [tf.image.stateless_random_flip_up_down(batch, seed),
                              tf.image.stateless_random_flip_up_down(pixels, seed)])
    report("brightness." + key, [tf.image.stateless_random_brightness(batch, 0.3, seed),
                                 tf.image.stateless_random_brightness(pixels, 0.2, seed)])
    report("contrast." + key, [tf.image.stateless_random_contrast(batch, 0.2, 1.7, seed),
                               tf.image.stateless_random_contrast(pixels, 0.5, 0.9, seed)])
    report("crop." + key, [tf.image.stateless_random_crop(batch, [3, 2, 2, 2], seed),
                           tf.image.stateless_random_crop(pixels, (2, 3, 3), seed)])
report("seed_as_tensor", tf.image.stateless_random_brightness(
    batch, 0.5, tf.constant([3, 4], tf.int64))[0, 0])
expect_error("brightness.negative", lambda: tf.image.stateless_random_brightness(
    batch, -0.1, (1, 2)))
expect_error("contrast.upper_not_above", lambda: tf.image.stateless_random_contrast(
    batch, 0.5, 0.5, (1, 2)))
expect_error("contrast.negative", lambda: tf.image.stateless_random_contrast(
    batch, -0.5, 0.5, (1, 2)))
expect_error("crop.too_big", lambda: tf.image.stateless_random_crop(pixels, (5, 5, 3), (1, 2)))
