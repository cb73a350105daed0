# experimental_enable_numpy_behavior's dtype_conversion_mode: "off" gives tensors NumPy's
# methods but keeps TensorFlow's operator dtype rules; an unknown mode is refused
tnp = tf.experimental.numpy
f32 = tf.constant([[1.0, 2.0]])
expect_error("unknown_mode", lambda: tnp.experimental_enable_numpy_behavior(
    dtype_conversion_mode="numpy"))
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="off")
report("T", f32.T)
report("astype", f32.astype(tnp.float64))
expect_error("mixed_operator", lambda: f32 + tf.constant(1.0, tf.float64))
expect_error("int_plus_float", lambda: tf.constant([1]) + 2.5)
report("tnp_add_still_promotes", tnp.add(f32, tf.constant(1.0, tf.float64)))
report("sqrt_int", tnp.sqrt(9))
tnp.experimental_enable_numpy_behavior()
report("legacy_after_off", f32 + tf.constant(1.0, tf.float64))
