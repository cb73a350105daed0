# Flatten's data_format (channels_first moves the channel axis last before flattening, so a
# Dense after it sees the same order as channels_last), its config and error, and
# tf.keras.utils.normalize (L1/L2 norms along an axis, zero rows left as they are).
L = tf.keras.layers
X = tf.reshape(tf.range(2 * 3 * 2 * 2, dtype=tf.float32), (2, 3, 2, 2))
report("flatten_last", L.Flatten()(X))
report("flatten_first", L.Flatten(data_format="channels_first")(X))
report("flatten_first_3d", L.Flatten(data_format="channels_first")(X[:, :, :, 0]))
report("flatten_first_2d", L.Flatten(data_format="channels_first")(X[:, :, 0, 0]))
with tf.GradientTape() as tape:
    tape.watch(X)
    y = L.Flatten(data_format="channels_first")(X) * tf.range(12, dtype=tf.float32)
report("flatten_first_grad", tape.gradient(y, X))
report("flatten_config", L.Flatten(data_format="channels_first").get_config()["data_format"])
report("flatten_default_config", L.Flatten().get_config()["data_format"])
expect_error("flatten_bad_format", lambda: L.Flatten(data_format="nchw"))

A = np.array([[3.0, 4.0], [0.0, 0.0], [1.0, -1.0]])
report("normalize", tf.keras.utils.normalize(A))
report("normalize_axis0", tf.keras.utils.normalize(A, axis=0))
report("normalize_l1", tf.keras.utils.normalize(A, order=1))
report("normalize_1d", tf.keras.utils.normalize(np.array([2.0, 0.0, 2.0], np.float32)))
report("normalize_int", tf.keras.utils.normalize(np.array([[1, 2], [3, 4]])))
