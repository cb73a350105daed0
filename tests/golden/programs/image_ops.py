# tf.image's array functions: convert_image_dtype, flips, rot90, grayscale, crops and pads,
# central_crop, adjust_brightness, per_image_standardization (values, dtypes, gradients,
# errors), and the random flips and crop (only what does not depend on the draw)

img = np.arange(2 * 3 * 4 * 3, dtype=np.float32).reshape(2, 3, 4, 3) / 71.0
one = img[0]
u8 = tf.constant((np.arange(24).reshape(2, 4, 3) * 11) % 256, tf.uint8)


def value_and_grad(name, fn, x):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
        w = tf.reshape(tf.range(1, tf.size(y) + 1, dtype=y.dtype), tf.shape(y))
        loss = tf.reduce_sum(y * w)
    report(name, y)
    report(name + ".grad", tape.gradient(loss, x))


report("convert.u8_to_float", tf.image.convert_image_dtype(u8, tf.float32))
report("convert.u8_to_float64", tf.image.convert_image_dtype(u8, tf.float64))
report("convert.float_to_u8", tf.image.convert_image_dtype(
    tf.constant([0.0, 0.2, 0.5, 0.999, 1.0]), tf.uint8))
report("convert.float_to_u8_saturate", tf.image.convert_image_dtype(
    tf.constant([-0.5, 0.5, 1.5]), tf.uint8, saturate=True))
report("convert.float_to_int16", tf.image.convert_image_dtype(tf.constant([0.25, 1.0]),
                                                              tf.int16))
report("convert.u8_to_int32", tf.image.convert_image_dtype(u8[0, 0], tf.int32))
report("convert.int32_to_u8", tf.image.convert_image_dtype(
    tf.constant([0, 2 ** 24, 2 ** 31 - 1]), tf.uint8))
report("convert.float_to_float16", tf.image.convert_image_dtype(tf.constant([0.1]), tf.float16))
report("convert.same", tf.image.convert_image_dtype(u8[0, 0], tf.uint8))
expect_error("convert.to_bool", lambda: tf.image.convert_image_dtype(u8, tf.bool))

value_and_grad("flip_left_right.one", tf.image.flip_left_right, one)
value_and_grad("flip_left_right.batch", tf.image.flip_left_right, img)
value_and_grad("flip_up_down.batch", tf.image.flip_up_down, img)
report("flip_up_down.one", tf.image.flip_up_down(u8))
expect_error("flip.rank2", lambda: tf.image.flip_left_right(tf.zeros([2, 2])))
for k in range(-1, 5):
    report(f"rot90.one_k{k}", tf.image.rot90(one, k))
value_and_grad("rot90.batch", lambda x: tf.image.rot90(x, 3), img)

value_and_grad("rgb_to_grayscale.float", tf.image.rgb_to_grayscale, img)
report("rgb_to_grayscale.uint8", tf.image.rgb_to_grayscale(u8))
report("grayscale_to_rgb", tf.image.grayscale_to_rgb(tf.constant([[[0.5], [1.0]]])))
expect_error("grayscale_to_rgb.channels", lambda: tf.image.grayscale_to_rgb(tf.zeros([2, 2, 3])))

value_and_grad("crop_to_bounding_box", lambda x: tf.image.crop_to_bounding_box(x, 1, 1, 2, 2),
               img)
value_and_grad("pad_to_bounding_box", lambda x: tf.image.pad_to_bounding_box(x, 1, 2, 5, 7),
               one)
expect_error("crop.too_big", lambda: tf.image.crop_to_bounding_box(one, 1, 1, 3, 3))
expect_error("crop.negative", lambda: tf.image.crop_to_bounding_box(one, -1, 0, 1, 1))
expect_error("pad.too_small", lambda: tf.image.pad_to_bounding_box(one, 0, 0, 2, 4))
report("resize_with_crop_or_pad.crop", tf.image.resize_with_crop_or_pad(one, 1, 2))
report("resize_with_crop_or_pad.pad", tf.image.resize_with_crop_or_pad(one, 6, 7))
report("resize_with_crop_or_pad.mixed", tf.image.resize_with_crop_or_pad(img, 2, 7))
big = np.arange(7 * 9 * 1, dtype=np.float32).reshape(7, 9, 1)
for fraction in (1.0, 0.875, 0.5, 0.3, 0.1):
    report(f"central_crop.{fraction}", tf.image.central_crop(big, fraction))
value_and_grad("central_crop.batch", lambda x: tf.image.central_crop(x, 0.5), img)
expect_error("central_crop.zero", lambda: tf.image.central_crop(big, 0.0))
expect_error("central_crop.above_one", lambda: tf.image.central_crop(big, 1.5))

value_and_grad("adjust_brightness.float", lambda x: tf.image.adjust_brightness(x, 0.25), img)
report("adjust_brightness.uint8", tf.image.adjust_brightness(u8, 0.5))
report("adjust_brightness.uint8_negative", tf.image.adjust_brightness(u8, -0.3))
value_and_grad("per_image_standardization.batch", tf.image.per_image_standardization, img)
report("per_image_standardization.uint8", tf.image.per_image_standardization(u8))
report("per_image_standardization.constant",
       tf.image.per_image_standardization(tf.ones([2, 2, 1])))

flipped = tf.image.random_flip_left_right(one, seed=3)
report("random_flip_left_right.one_is_one_of_two",
       bool(np.all(flipped.numpy() == one)) or bool(np.all(flipped.numpy() == one[:, ::-1])))
batch = tf.image.random_flip_up_down(img, seed=1).numpy()
report("random_flip_up_down.each_image_one_of_two",
       [bool(np.all(b == i) or np.all(b == i[::-1])) for b, i in zip(batch, img)])
crop = tf.image.random_crop(img, [2, 2, 2, 3], seed=5)
report("random_crop.shape_dtype", [list(crop.shape), crop.dtype.name])
expect_error("random_crop.too_big", lambda: tf.image.random_crop(one, [4, 4, 3]))
