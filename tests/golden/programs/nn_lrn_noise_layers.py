# tf.nn.local_response_normalization / tf.nn.lrn (values, gradient, errors),
# tf.keras.layers.AlphaDropout (inference, the two values a training call can give, config),
# tf.keras.layers.ActivityRegularization (losses, config), tf.broadcast_dynamic_shape and
# tf.broadcast_static_shape
x = tf.constant(np.arange(24, dtype=np.float32).reshape(1, 2, 2, 6) * 0.3 - 2.0)
report("lrn.defaults", tf.nn.local_response_normalization(x))
report("lrn.args", tf.nn.local_response_normalization(x, depth_radius=1, bias=0.5, alpha=0.2,
                                                      beta=0.75))
report("lrn.alias", tf.nn.lrn(x, 2, 2.0, 1e-3, 0.75))
report("lrn.radius_0", tf.nn.lrn(x, depth_radius=0))
report("lrn.float16_dtype", tf.nn.lrn(tf.cast(x, tf.float16)).dtype.name)
v = tf.Variable(x)
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.nn.lrn(v, depth_radius=2, bias=1.0, alpha=0.3, beta=0.75) *
                      tf.reshape(tf.range(24.0), [1, 2, 2, 6]))
report("lrn.gradient", tape.gradient(y, v))
expect_error("lrn.float64", lambda: tf.nn.lrn(tf.cast(x, tf.float64)))
expect_error("lrn.rank3", lambda: tf.nn.lrn(x[0]))
expect_error("lrn.int", lambda: tf.nn.lrn(tf.ones((1, 1, 1, 2), tf.int32)))

drop = tf.keras.layers.AlphaDropout(0.3)
ones = tf.ones((4, 5))
report("alpha_dropout.inference", drop(ones))
report("alpha_dropout.training_false", drop(ones, training=False))
report("alpha_dropout.rate_0", tf.keras.layers.AlphaDropout(0.0)(ones, training=True))
out = drop(tf.ones((50, 40)), training=True).numpy()
rate, alpha_p = 0.3, -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946
a = ((1 - rate) * (1 + rate * alpha_p ** 2)) ** -0.5
b = -a * alpha_p * rate
kept, dropped = a + b, a * alpha_p + b
report("alpha_dropout.two_values", bool(np.all(np.isclose(out, kept) | np.isclose(out, dropped))))
report("alpha_dropout.both_occur", bool(np.isclose(out, kept).any() and
                                        np.isclose(out, dropped).any()))
report("alpha_dropout.noise_shape", bool(np.all(np.ptp(tf.keras.layers.AlphaDropout(
    0.5, noise_shape=(50, 1))(tf.ones((50, 40)), training=True).numpy(), axis=1) == 0)))
report("alpha_dropout.config", {k: v for k, v in tf.keras.layers.AlphaDropout(
    0.2, seed=3).get_config().items() if k != "name"})
model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="selu", kernel_initializer="ones"),
                             tf.keras.layers.AlphaDropout(0.1)])
report("alpha_dropout.in_model_predict", model.predict(np.ones((2, 2), np.float32), verbose=0))

reg = tf.keras.layers.ActivityRegularization(l1=0.1, l2=0.2)
report("activity_regularization.output", reg(tf.constant([[1.0, -2.0], [0.5, 0.0]])))
report("activity_regularization.losses", reg.losses)
report("activity_regularization.config", {k: v for k, v in reg.get_config().items()
                                          if k != "name"})
inp = tf.keras.Input(shape=(2,))
m = tf.keras.Model(inp, tf.keras.layers.ActivityRegularization(l2=1.0)(
    tf.keras.layers.Dense(2, kernel_initializer="ones")(inp)))
m(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
report("activity_regularization.model_losses", m.losses)

report("broadcast_dynamic_shape", tf.broadcast_dynamic_shape([2, 1, 3], [4, 1]))
report("broadcast_dynamic_shape.int64", tf.broadcast_dynamic_shape(
    tf.constant([2, 1, 3], tf.int64), tf.constant([4, 1], tf.int64)))
report("broadcast_dynamic_shape.scalar", tf.broadcast_dynamic_shape(
    tf.constant([], tf.int32), [3]))
expect_error("broadcast_dynamic_shape.incompatible", lambda: tf.broadcast_dynamic_shape(
    [2, 3], [4, 1]))
report("broadcast_static_shape", str(tf.broadcast_static_shape(tf.TensorShape([2, 1, 3]),
                                                                tf.TensorShape([4, 1]))))
report("broadcast_static_shape.unknown", str(tf.broadcast_static_shape(
    tf.TensorShape([None, 1]), tf.TensorShape([5]))))
expect_error("broadcast_static_shape.incompatible", lambda: tf.broadcast_static_shape(
    tf.TensorShape([2, 3]), tf.TensorShape([4, 1])))
