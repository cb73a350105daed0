# tf.linalg.diag, set_diag, band_part, tensor_diag, tensor_diag_part, adjoint, cross and
# normalize: values, dtypes, gradients (a padding value gets none), and TensorFlow's errors


def value_and_grads(name, fn, *xs):
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape(persistent=True) as tape:
        for x in xs:
            tape.watch(x)
        y = fn(*xs)
        w = tf.reshape(tf.range(1, tf.size(y) + 1, dtype=y.dtype), tf.shape(y))
        loss = tf.reduce_sum(y * w * w)
    report(name, y)
    report(name + ".grads", tape.gradient(loss, xs))


m = np.arange(1.0, 13.0, dtype=np.float32).reshape(3, 4)
value_and_grads("diag.vector", tf.linalg.diag, [1.0, 2.0, 3.0])
value_and_grads("diag.batch", tf.linalg.diag, [[1.0, 2.0], [3.0, 4.0]])
report("diag.int", tf.linalg.diag([[1, 2], [3, 4]]))
report("diag.padding", tf.linalg.diag([1.0, 2.0], padding_value=9))
report("diag.num_rows", tf.linalg.diag([1.0, 2.0], num_rows=3))
report("diag.num_rows_cols", tf.linalg.diag([1.0, 2.0], num_rows=3, num_cols=2))
report("diag.k1", tf.linalg.diag([1.0, 2.0], k=1))
report("diag.k_minus2", tf.linalg.diag([1.0, 2.0], k=-2))
p = tf.constant(9.0)
with tf.GradientTape() as tape:
    tape.watch(p)
    y = tf.reduce_sum(tf.linalg.diag([1.0, 2.0], padding_value=p))
report("diag.padding_grad", tape.gradient(y, p))
expect_error("diag.scalar", lambda: tf.linalg.diag(1.0))

value_and_grads("set_diag", lambda x, d: tf.linalg.set_diag(x, d), m, [7.0, 8.0, 9.0])
value_and_grads("set_diag.batch", lambda x, d: tf.linalg.set_diag(x, d),
                np.arange(8.0, dtype=np.float32).reshape(2, 2, 2), [[-1.0, -2.0], [-3.0, -4.0]])
expect_error("set_diag.list_takes_dtype", lambda: tf.linalg.set_diag(np.ones([2, 2]), [1.0, 2.0]))
expect_error("set_diag.tensor_sets_dtype", lambda: tf.linalg.set_diag(np.ones([2, 2]),
                                                                      tf.constant([1.0, 2.0])))
expect_error("set_diag.dtypes", lambda: tf.linalg.set_diag(tf.ones([2, 2], tf.float64),
                                                           tf.constant([1.0, 2.0])))
report("set_diag.k1", tf.linalg.set_diag(m, [7.0, 8.0, 9.0], k=1))
expect_error("set_diag.length", lambda: tf.linalg.set_diag(m, [7.0, 8.0]))
expect_error("set_diag.vector", lambda: tf.linalg.set_diag([1.0, 2.0], [7.0, 8.0]))

value_and_grads("band_part.lower", lambda x: tf.linalg.band_part(x, 1, 0), m)
value_and_grads("band_part.upper_all", lambda x: tf.linalg.band_part(x, 0, -1), m)
report("band_part.lower_all", tf.linalg.band_part(m, -1, 1))
report("band_part.tensor_bounds", tf.linalg.band_part(m, tf.constant(0, tf.int64),
                                                      tf.constant(1, tf.int64)))
report("band_part.batch_int", tf.linalg.band_part(tf.ones([2, 3, 3], tf.int32), 0, 0))
expect_error("band_part.vector", lambda: tf.linalg.band_part([1.0, 2.0], 0, 0))
expect_error("band_part.float_bound", lambda: tf.linalg.band_part(m, 1.5, 0))

value_and_grads("tensor_diag", tf.linalg.tensor_diag, [[1.0, 2.0], [3.0, 4.0]])
value_and_grads("tensor_diag_part", tf.linalg.tensor_diag_part,
                np.arange(16.0, dtype=np.float32).reshape(2, 2, 2, 2))
expect_error("tensor_diag_part.shape", lambda: tf.linalg.tensor_diag_part(tf.ones([2, 3])))

value_and_grads("adjoint", tf.linalg.adjoint, m)
value_and_grads("cross", tf.linalg.cross, [[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]],
                [[0.0, 1.0, -1.0], [2.0, 0.5, 1.0]])
report("cross.int", tf.linalg.cross([1, 0, 0], [0, 1, 0]))
expect_error("cross.two", lambda: tf.linalg.cross([1.0, 0.0], [0.0, 1.0]))

value_and_grads("normalize.vector", lambda x: tf.linalg.normalize(x)[0], [3.0, 4.0])
report("normalize.pair", tf.linalg.normalize([3.0, 4.0]))
report("normalize.axis", tf.linalg.normalize([[3.0, 4.0], [6.0, 8.0]], axis=1))
report("normalize.ord1", tf.linalg.normalize([[3.0, 4.0], [6.0, 8.0]], ord=1, axis=1))
value_and_grads("normalize.norm_grad", lambda x: tf.linalg.normalize(x, axis=-1)[1],
                [[3.0, 4.0], [1.0, 2.0]])
