# tf.math.cumprod (exclusive, reverse, its gradient: TensorFlow's reverse cumulative sum of
# g * y over x, NaN where x is 0) and UpSampling2D with interpolation="bilinear" (and
# bicubic), which Keras computes by tf.image.resize, as a diffusion model's U-Net uses it
x = tf.Variable([[1.0, 2.0, 3.0], [0.5, -4.0, 2.0]])
weights = tf.constant([1.0, 2.0, 3.0])
for name, kwargs in [("plain", {}), ("exclusive", {"exclusive": True}),
                     ("reverse", {"reverse": True}),
                     ("both", {"exclusive": True, "reverse": True})]:
    with tf.GradientTape() as tape:
        y = tf.math.cumprod(x, axis=1, **kwargs)
        loss = tf.reduce_sum(y * weights)
    report("cumprod_" + name, y)
    report("cumprod_grad_" + name, tape.gradient(loss, x))
report("cumprod_axis0_int", tf.math.cumprod(tf.constant([[1, 2], [3, 4]]), axis=0))
report("alphas_cumprod", tf.math.cumprod(1.0 - tf.linspace(0.1, 0.5, 5)))
images = tf.Variable(tf.reshape(tf.cos(tf.range(2 * 3 * 3 * 2, dtype=tf.float32)),
                                (2, 3, 3, 2)))
for interpolation in ["bilinear", "bicubic", "nearest"]:
    layer = tf.keras.layers.UpSampling2D(size=2, interpolation=interpolation)
    with tf.GradientTape() as tape:
        up = layer(images)
        loss = tf.reduce_sum(up * up)
    report("upsample_" + interpolation, up)
    report("upsample_grad_" + interpolation, tape.gradient(loss, images))
expect_error("upsample_unknown", lambda: tf.keras.layers.UpSampling2D(interpolation="cubic"))
# at a zero factor TensorFlow's gradient divides by it with divide_no_nan: 0 there (not NaN)
z = tf.Variable([[2.0, 0.0, 3.0, 4.0], [0.0, 0.0, 5.0, -1.0]])
for name, kwargs in [("plain", {}), ("exclusive_reverse", {"exclusive": True, "reverse": True})]:
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.math.cumprod(z, axis=1, **kwargs) * [1.0, 2.0, 3.0, 4.0])
    report("cumprod_grad_at_zero_" + name, tape.gradient(loss, z))
