# tf.keras.layers.Dot / layers.dot (int, negative and pair axes, normalize=True, ranks 2 to 4,
# in a functional model, gradients through it, its errors) and tf.keras.backend.batch_dot,
# batch_get_value, batch_set_value, moving_average_update
a = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3) - 2.0)
b = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3) * 0.5 + 1.0)
x3 = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4) * 0.25 - 1.0)
y3 = tf.constant(np.arange(30, dtype=np.float32).reshape(2, 5, 3) * 0.1)
z3 = tf.constant(np.arange(16, dtype=np.float32).reshape(2, 2, 4) * 0.3 - 2.0)
x4 = tf.constant(np.arange(48, dtype=np.float32).reshape(2, 3, 2, 4) * 0.05)
Dot = tf.keras.layers.Dot

report("dot.rank2_axis1", Dot(axes=1)([a, b]))
report("dot.rank2_axis_neg", Dot(axes=-1)([a, b]))
report("dot.rank3_pair", Dot(axes=(1, 2))([x3, y3]))
report("dot.rank3_last", Dot(axes=2)([x3, z3]))
report("dot.rank3_pair_neg", Dot(axes=[-2, -1])([x3, y3]))
report("dot.normalize", Dot(axes=1, normalize=True)([a, b]))
report("dot.normalize_rank3", Dot(axes=(2, 2), normalize=True)([x3, z3]))
report("dot.rank4_rank3", Dot(axes=(3, 2))([x4, z3]))
report("dot.function", tf.keras.layers.dot([x3, z3], axes=2))
report("dot.config", {k: v for k, v in Dot(axes=(1, 2), normalize=True).get_config().items()
                      if k in ("axes", "normalize")})
report("dot.output_shape", list(Dot(axes=(1, 2)).compute_output_shape([(None, 3, 4),
                                                                       (None, 5, 3)])))
report("dot.output_shape_rank2", list(Dot(axes=1).compute_output_shape([(None, 3),
                                                                       (None, 3)])))

u = tf.keras.Input(shape=(3, 4))
v = tf.keras.Input(shape=(5, 3))
out = Dot(axes=(1, 2))([u, v])
report("dot.symbolic_shape", list(out.shape))
model = tf.keras.Model([u, v], out)
report("dot.model", model([x3, y3]))

w = tf.Variable(b)
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(Dot(axes=1, normalize=True)([a, w]) ** 2)
report("dot.grad_normalized", tape.gradient(loss, w))
xv = tf.Variable(x3)
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(Dot(axes=(1, 2))([xv, y3]) * tf.constant(
        np.arange(40, dtype=np.float32).reshape(2, 4, 5)))
report("dot.grad_rank3", tape.gradient(loss, xv))

expect_error("dot.axes_type", lambda: Dot(axes="1"))
expect_error("dot.axes_three", lambda: Dot(axes=(1, 2, 3)))
expect_error("dot.axes_not_int", lambda: Dot(axes=(1, 2.0)))
expect_error("dot.one_input", lambda: Dot(axes=1)([a]))
expect_error("dot.mismatch", lambda: Dot(axes=1)([a, tf.ones((2, 4))]))
expect_error("dot.symbolic_mismatch", lambda: Dot(axes=1)([u, tf.keras.Input(shape=(4,))]))

K = tf.keras.backend
report("batch_dot.default_rank2", K.batch_dot(a, b))
report("batch_dot.default_rank3", K.batch_dot(x3, tf.transpose(z3, [0, 2, 1])))
report("batch_dot.int_axes", K.batch_dot(x3, z3, axes=2))
report("batch_dot.pair", K.batch_dot(x3, y3, axes=[1, 2]))
report("batch_dot.rank3_rank2", K.batch_dot(x3, tf.constant(np.ones((2, 4), np.float32)),
                                            axes=[2, 1]))
report("batch_dot.rank2_rank3", K.batch_dot(a, y3, axes=[1, 2]))
report("batch_dot.rank4", K.batch_dot(x4, z3, axes=[3, 2]))
report("batch_dot.float64", K.batch_dot(tf.cast(a, tf.float64), tf.cast(b, tf.float64)))
expect_error("batch_dot.rank1", lambda: K.batch_dot(tf.constant([1.0, 2.0]), a))
expect_error("batch_dot.batch_sizes", lambda: K.batch_dot(a, tf.ones((3, 3))))
expect_error("batch_dot.axis0", lambda: K.batch_dot(a, b, axes=0))
expect_error("batch_dot.nested_axes", lambda: K.batch_dot(a, b, axes=[[1], [1]]))
expect_error("batch_dot.sizes", lambda: K.batch_dot(x3, y3, axes=[2, 2]))

v1 = tf.Variable([1.0, 2.0])
v2 = tf.Variable([[3]], dtype=tf.int32)
report("batch_get_value", K.batch_get_value([v1, v2]))
K.batch_set_value([(v1, [5.0, 6.0]), (v2, np.array([[7]]))])
report("batch_set_value", [v1, v2])
mean = tf.Variable([1.0, 10.0])
report("moving_average_update.returned", K.moving_average_update(mean, [3.0, 0.0], 0.9))
report("moving_average_update.variable", mean)
