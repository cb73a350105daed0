# tf.scan, tf.foldl, tf.foldr, tf.vectorized_map, tf.case, tf.switch_case, tf.ensure_shape,
# tf.identity_n, tf.init_scope and tf.gradients as eager TensorFlow runs them (values,
# structures, gradients through the iterations, errors)

x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
report("vectorized_map.double", tf.vectorized_map(lambda r: r * 2, x))
report("vectorized_map.structure", tf.vectorized_map(lambda r: (r[0], r * 2), x))
report("vectorized_map.tuple_in", tf.vectorized_map(lambda t: t[0] + t[1], (x, x)))
report("vectorized_map.int_sum", tf.vectorized_map(lambda r: tf.reduce_sum(r),
                                                   tf.constant([[1, 2], [3, 4]])))
report("vectorized_map.dtype_change", tf.vectorized_map(lambda r: r > 2.0, x))
expect_error("vectorized_map.scalar", lambda: tf.vectorized_map(lambda r: r, tf.constant(1.0)))

report("scan.sum", tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3, 4])))
report("scan.initializer", tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3]), initializer=10))
report("scan.reverse", tf.scan(lambda a, x: a * x, tf.constant([1.0, 2.0, 3.0]), reverse=True))
report("scan.reverse_initializer", tf.scan(lambda a, x: a * 10 + x, tf.constant([1, 2, 3]),
                                           initializer=0, reverse=True))
report("scan.tuple_state", tf.scan(lambda a, x: (a[0] + x, a[1] * x), tf.constant([1.0, 2.0, 3.0]),
                                   initializer=(tf.constant(0.0), tf.constant(1.0))))
report("scan.tuple_elems", tf.scan(lambda a, x: a + x[0] * x[1],
                                   (tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])),
                                   initializer=tf.constant(0.0)))
report("scan.rows", tf.scan(lambda a, r: a + r, tf.reshape(tf.range(6.0), [3, 2])))
expect_error("scan.initializer_dtype", lambda: tf.scan(lambda a, x: a + x, tf.constant([1, 2]),
                                                       initializer=0.5))
expect_error("scan.empty", lambda: tf.scan(lambda a, x: a + x, tf.constant([], tf.int32)))
v = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.scan(lambda a, x: a * x * v, tf.constant([1.0, 2.0, 3.0])))
report("scan.grad", [y, tape.gradient(y, v)])

report("foldl.sum", tf.foldl(lambda a, x: a + x, tf.constant([1, 2, 3])))
report("foldr.digits", tf.foldr(lambda a, x: a * 10 + x, tf.constant([1, 2, 3])))
report("foldl.initializer", tf.foldl(lambda a, x: a + x, tf.constant([1, 2, 3]),
                                     initializer=tf.constant(10)))
report("foldl.python_initializer", tf.foldl(lambda a, x: a * 10 + x, tf.constant([1, 2, 3]),
                                            initializer=0))
report("foldl.tuple", tf.foldl(lambda a, x: (a[0] + x, a[1] * x), tf.constant([1.0, 2.0, 3.0]),
                               initializer=(0.0, 1.0)))
expect_error("foldl.empty", lambda: tf.foldl(lambda a, x: a + x, tf.constant([], tf.int32)))
with tf.GradientTape() as tape:
    y = tf.foldr(lambda a, x: a * v + x, tf.constant([1.0, 2.0, 3.0]))
report("foldr.grad", [y, tape.gradient(y, v)])

t, f = tf.constant(True), tf.constant(False)
report("case.first_true", tf.case([(f, lambda: 1), (t, lambda: 2)], default=lambda: 3))
report("case.default", tf.case([(f, lambda: 1)], default=lambda: 3))
report("case.two_true", tf.case([(t, lambda: 1), (t, lambda: 2)]))
expect_error("case.python_bools", lambda: tf.case([(False, lambda: "a"), (True, lambda: "b")]))
expect_error("case.not_pairs", lambda: tf.case([t, lambda: 1]))
expect_error("case.not_a_list", lambda: tf.case(t))
expect_error("case.none_true", lambda: tf.case([(f, lambda: 1), (f, lambda: 2)]))
expect_error("case.dict", lambda: tf.case({True: lambda: 1}))
report("switch_case.index", tf.switch_case(tf.constant(1), [lambda: 10, lambda: 20],
                                           default=lambda: 30))
report("switch_case.default", tf.switch_case(tf.constant(5), [lambda: 10, lambda: 20],
                                             default=lambda: 30))
report("switch_case.last_is_default", tf.switch_case(tf.constant(-1), [lambda: 10, lambda: 20]))
report("switch_case.dict", tf.switch_case(tf.constant(0), {1: lambda: 20, 0: lambda: 10}))
report("switch_case.pairs", tf.switch_case(tf.constant(1), [(1, lambda: "b"), (0, lambda: "a")]))
expect_error("switch_case.gap", lambda: tf.switch_case(tf.constant(2), {0: lambda: 10,
                                                                        2: lambda: 20}))
expect_error("switch_case.empty", lambda: tf.switch_case(tf.constant(0), []))
expect_error("switch_case.python_int", lambda: tf.switch_case(1, [lambda: 10]))
expect_error("switch_case.float", lambda: tf.switch_case(tf.constant(1.0), [lambda: 10]))

report("ensure_shape.fits", tf.ensure_shape(x, [2, None]))
report("ensure_shape.none", tf.ensure_shape(x, None))
expect_error("ensure_shape.size", lambda: tf.ensure_shape(x, [3, 2]))
expect_error("ensure_shape.rank", lambda: tf.ensure_shape(x, [2]))
report("identity_n", tf.identity_n([x, 1]))
with tf.init_scope() as scope:
    report("init_scope", scope)
expect_error("gradients", lambda: tf.gradients(x, x))
