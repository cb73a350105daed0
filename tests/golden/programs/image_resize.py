# tf.image.resize with every method, antialias off and on, shrinking and enlarging (values and
# gradients, weighted so each output pixel counts differently), a single image and a batch,
# dtypes (uint8, float64, float16), preserve_aspect_ratio, and TensorFlow's errors: bad rank,
# bad size, unknown method, non-positive size, area's missing gradient (tapeviz differs on
# purpose for second derivatives and float64 antialiased gradients: docs/tensorflow-differences.md)
images = tf.constant(np.linspace(0.0, 1.0, 2 * 5 * 7 * 2).reshape(2, 5, 7, 2) ** 2,
                     dtype=tf.float32)
METHODS = ["area", "bilinear", "nearest", "bicubic", "lanczos3", "lanczos5", "gaussian",
           "mitchellcubic"]
for size in ([3, 4], [8, 11], [5, 3]):
    for method in METHODS:
        for antialias in (False, True):
            tag = "%s_%s_%dx%d" % (method, "aa" if antialias else "plain", size[0], size[1])
            with tf.GradientTape() as tape:
                tape.watch(images)
                out = tf.image.resize(images, size, method=method, antialias=antialias)
                weights = tf.reshape(tf.range(tf.size(out), dtype=tf.float32), tf.shape(out))
                loss = tf.reduce_sum(out * weights)
            report(tag, out)
            if method == "area":
                expect_error(tag + ".grad", lambda: tape.gradient(loss, images))
            else:
                report(tag + ".grad", tape.gradient(loss, images))

one = images[0]
report("single_image", tf.image.resize(one, [2, 3]))
report("single_image_area", tf.image.resize(one, [4, 4], method=tf.image.ResizeMethod.AREA))
pixels = tf.constant(np.arange(5 * 7 * 3).reshape(5, 7, 3) % 251, dtype=tf.uint8)
for method in ["area", "bilinear", "nearest", "bicubic"]:
    report("uint8_" + method, tf.image.resize(pixels, [3, 4], method=method))
doubles = tf.cast(images, tf.float64)
with tf.GradientTape() as tape:
    tape.watch(doubles)
    bilinear = tf.image.resize(doubles, [3, 9])
report("float64_bilinear", bilinear)
report("float64_bilinear.grad", tape.gradient(bilinear, doubles))
report("float16", tf.image.resize(tf.cast(images, tf.float16), [3, 3]))
report("aspect_2x3", tf.image.resize(images, [2, 3], preserve_aspect_ratio=True))
report("aspect_9x9", tf.image.resize(images, [9, 9], preserve_aspect_ratio=True))
report("size_tensor", tf.image.resize(images, tf.constant([2, 2])))
report("method_names", [tf.image.ResizeMethod.BILINEAR, tf.image.ResizeMethod.NEAREST_NEIGHBOR,
                        tf.image.ResizeMethod.BICUBIC, tf.image.ResizeMethod.AREA,
                        tf.image.ResizeMethod.LANCZOS3, tf.image.ResizeMethod.LANCZOS5,
                        tf.image.ResizeMethod.GAUSSIAN, tf.image.ResizeMethod.MITCHELLCUBIC])
expect_error("rank_1", lambda: tf.image.resize(tf.zeros([5]), [2, 2]))
expect_error("size_of_one", lambda: tf.image.resize(images, [2]))
expect_error("size_float", lambda: tf.image.resize(images, [2.5, 3]))
expect_error("unknown_method", lambda: tf.image.resize(images, [2, 2], method="cubic"))
expect_error("size_zero", lambda: tf.image.resize(images, [0, 2]))
expect_error("size_negative_area", lambda: tf.image.resize(images, [-1, 2], method="area"))
with tf.GradientTape() as tape:
    tape.watch(doubles)
    nearest = tf.image.resize(doubles, [3, 9], method="nearest")
report("float64_nearest.grad", tape.gradient(nearest, doubles))
