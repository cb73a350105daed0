# tf.keras.layers.Normalization as TensorFlow's regression tutorial uses it: adapt() sets the
# mean and variance per feature, the layer standardises, a Sequential model that starts with
# the adapted layer is built at once; given mean/variance, axis=None, invert=True.
data = np.array([[1.0, 10.0, -2.0], [3.0, 14.0, 0.0], [2.0, 9.0, 4.0], [6.0, 11.0, 2.0]],
                np.float32)
norm = tf.keras.layers.Normalization(axis=-1)
norm.adapt(data)
report("mean", norm.mean)
report("variance", norm.variance)
report("call", norm(data[:2]))
report("weights", [list(w.shape) for w in norm.weights])
report("trainable", len(norm.trainable_weights))
model = tf.keras.Sequential([norm, tf.keras.layers.Dense(1, kernel_initializer="ones")])
report("sequential.built", model.built)
report("sequential.weights", len(model.weights))
with tf.GradientTape() as tape:
    x = tf.constant(data)
    tape.watch(x)
    out = tf.reduce_sum(model(x))
report("grad_input", tape.gradient(out, x))
given = tf.keras.layers.Normalization(mean=[1.0, 2.0], variance=[4.0, 0.0])
report("given", given(tf.constant([[3.0, 2.5]])))
report("invert", tf.keras.layers.Normalization(mean=2.0, variance=9.0, invert=True)(
    tf.constant([[1.0], [-1.0]])))
whole = tf.keras.layers.Normalization(axis=None)
whole.adapt(data)
report("axis_none", whole(data[:1]))
images = np.arange(24, dtype=np.float32).reshape(2, 2, 2, 3)
per_channel = tf.keras.layers.Normalization(axis=-1)
per_channel.adapt(images)
report("per_channel_mean", per_channel.mean)
expect_error("mean_without_variance", lambda: tf.keras.layers.Normalization(mean=1.0))
