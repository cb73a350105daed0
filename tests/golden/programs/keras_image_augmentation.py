# Keras's random image layers (tf-keras 2): what does not depend on the random stream. In
# inference each returns its input as float32 (RandomCrop: the centred window, resized);
# in training, ranges of one value (factor=(a, a)) make RandomRotation, RandomZoom,
# RandomTranslation and RandomBrightness deterministic, so their transforms (matrices,
# ImageProjectiveTransformV3's bilinear/nearest sampling and fill modes) are compared value
# for value; RandomFlip and RandomCrop in training are checked by what they may give.
# Also tf.image.adjust_saturation / adjust_contrast, the experimental.preprocessing path,
# the layers' errors, and a Sequential starting with a Sequential that was called on one
# unbatched image (tf-keras leaves it unbuilt).

L = tf.keras.layers
rng = np.random.default_rng(3)
batch = tf.constant(rng.uniform(0, 255, size=(2, 7, 9, 3)).astype(np.float32))
pixels = tf.constant(rng.integers(0, 256, size=(2, 7, 9, 3)).astype(np.uint8))

for name, layer in [("flip", L.RandomFlip()), ("rotation", L.RandomRotation(0.2)),
                    ("zoom", L.RandomZoom(0.3)), ("translation", L.RandomTranslation(0.2, 0.2)),
                    ("contrast", L.RandomContrast(0.5)), ("brightness", L.RandomBrightness(0.2))]:
    out = layer(pixels, training=False)
    report("inference." + name, out)
    report("inference." + name + ".dtype", out.dtype.name)

report("inference.crop", L.RandomCrop(4, 6)(batch, training=False))
report("inference.crop_unbatched", L.RandomCrop(5, 5)(batch[0], training=False))

for mode in ["reflect", "wrap", "constant", "nearest"]:
    for interpolation in ["bilinear", "nearest"]:
        key = mode + "." + interpolation
        report("rotation." + key, L.RandomRotation((0.07, 0.07), fill_mode=mode,
                                                   interpolation=interpolation,
                                                   fill_value=7.0)(batch, training=True))
        report("zoom_out." + key, L.RandomZoom((0.35, 0.35), fill_mode=mode,
                                               interpolation=interpolation)(batch, training=True))
        report("translation." + key, L.RandomTranslation(
            (0.3, 0.3), (-0.45, -0.45), fill_mode=mode, interpolation=interpolation,
            fill_value=-1.0)(batch, training=True))
report("rotation.big_angle", L.RandomRotation((0.3, 0.3))(batch, training=True))
report("rotation.unbatched", L.RandomRotation((-0.1, -0.1))(batch[1], training=True))
report("rotation.uint8", L.RandomRotation((0.05, 0.05))(pixels, training=True))
report("zoom_in.width", L.RandomZoom((-0.4, -0.4), width_factor=(0.2, 0.2))(batch,
                                                                                training=True))
report("translation.far", L.RandomTranslation((-1.0, -1.0), (0.9, 0.9),
                                              fill_mode="reflect")(batch, training=True))
report("brightness.fixed", L.RandomBrightness((0.1, 0.1))(batch, training=True))
report("brightness.clipped", L.RandomBrightness((0.9, 0.9))(pixels, training=True))
report("brightness.range", L.RandomBrightness((-0.3, -0.3), value_range=(0, 1))(
    batch / 255.0, training=True))
expect_error("contrast.zero_range", lambda: L.RandomContrast(0.0)(batch, training=True))
contrast = L.RandomContrast((0.4, 0.1))(batch * 1.5 - 40, training=True).numpy()
report("contrast.within_clip", [float(contrast.min()) >= 0.0, float(contrast.max()) <= 255.0])
report("default_training", L.RandomRotation((0.1, 0.1))(batch)[0, 3])

flipped = L.RandomFlip()(batch, training=True)
x = batch.numpy()
report("flip.is_a_flip", [any(np.array_equal(flipped.numpy()[i], v) for v in
                              (x[i], x[i, ::-1], x[i, :, ::-1], x[i, ::-1, ::-1]))
                          for i in range(2)])
h_only = L.RandomFlip("horizontal")(batch, training=True)
report("flip.horizontal", [any(np.array_equal(h_only.numpy()[i], v) for v in
                               (x[i], x[i, :, ::-1])) for i in range(2)])
crop = L.RandomCrop(4, 6)(batch, training=True)
report("crop.shape", list(crop.shape))
report("crop.is_a_window", any(np.array_equal(crop.numpy(), x[:, t:t + 4, s:s + 6])
                               for t in range(4) for s in range(4)))
report("crop.smaller_image", L.RandomCrop(9, 4)(batch, training=True))

report("saturation.uint8", tf.image.adjust_saturation(pixels, 3))
report("saturation.float", tf.image.adjust_saturation(batch / 255.0, 0.4))
report("saturation.gray", tf.image.adjust_saturation(tf.ones([2, 2, 3]) * 0.5, 2.0))
report("contrast.uint8", tf.image.adjust_contrast(pixels, 1.7))
report("contrast.float", tf.image.adjust_contrast(batch, 0.3))
expect_error("saturation.channels", lambda: tf.image.adjust_saturation(tf.ones([2, 2, 4]), 2.))

P = tf.keras.layers.experimental.preprocessing
report("experimental_path", [P.RandomFlip("vertical")(batch, training=False).shape.as_list(),
                             P.Rescaling(0.5)(batch)[0, 0, 0]])
expect_error("flip.bad_mode", lambda: L.RandomFlip("diagonal"))
expect_error("rotation.bad_fill", lambda: L.RandomRotation(0.1, fill_mode="mirror"))
expect_error("rotation.bad_interpolation", lambda: L.RandomRotation(0.1, interpolation="cubic"))
expect_error("rotation.upper_below_lower", lambda: L.RandomRotation((0.2, 0.1)))
expect_error("zoom.below_minus_one", lambda: L.RandomZoom(-1.5))
expect_error("translation.above_one", lambda: L.RandomTranslation(1.5, 0.1))
expect_error("contrast.negative", lambda: L.RandomContrast(-0.1))
expect_error("brightness.above_one", lambda: L.RandomBrightness(1.5))

prep = tf.keras.Sequential([L.Resizing(5, 5), L.Rescaling(1. / 255)])
prep(pixels[0])
model = tf.keras.Sequential([prep, L.RandomFlip(), L.Conv2D(2, 3)])
report("nested_unbatched.built", model.built)

# the gradient TensorFlow registers for ImageProjectiveTransformV3 (the upstream gradient
# sampled through the inverse transform), through RandomRotation and RandomZoom
weights = tf.reshape(tf.range(2 * 7 * 9 * 3, dtype=tf.float32), [2, 7, 9, 3]) / 100.0
for name, layer in [("rotation", L.RandomRotation((0.07, 0.07), fill_mode="constant")),
                    ("zoom", L.RandomZoom((0.3, 0.3), interpolation="nearest")),
                    ("translation", L.RandomTranslation((0.2, 0.2), (0.1, 0.1)))]:
    with tf.GradientTape() as tape:
        tape.watch(batch)
        loss = tf.reduce_sum(layer(batch, training=True) * weights)
    report("gradient." + name, tape.gradient(loss, batch))
