# tf.cond, tf.while_loop, tf.map_fn as eager TensorFlow runs them (values, structures,
# gradients through the branch or iterations taken), tf.control_dependencies, tf.group,
# tf.no_op, tf.executing_eagerly, tf.get_logger, and what TensorFlow refuses

report("executing_eagerly", tf.executing_eagerly())
report("group", tf.group(tf.constant(1), tf.constant(2)))
report("no_op", tf.no_op())
calls = []
with tf.control_dependencies([tf.constant(1.0), lambda: calls.append("called")]) as ctx:
    report("control_dependencies.inner", tf.constant(2.0) * 3.0)
report("control_dependencies.context", ctx)
report("control_dependencies.callables", calls)
report("get_logger", [tf.get_logger().name, tf.get_logger().getEffectiveLevel() >= 30])

# cond: one branch runs; the result is the branch's own (a Python number stays one)
report("cond.python", tf.cond(True, lambda: 1, lambda: 2))
report("cond.tensor_pred", tf.cond(tf.constant(False), lambda: tf.constant(1.0), lambda: 2))
report("cond.int_pred", tf.cond(tf.constant(1), lambda: "yes", lambda: "no"))
report("cond.tuple", tf.cond(tf.constant(True), lambda: (1.0, [2]), lambda: (3.0, [4])))
x = tf.Variable(3.0)
for flag in (True, False):
    with tf.GradientTape() as tape:
        y = tf.cond(tf.constant(flag), lambda: x * x, lambda: tf.sin(x))
    report(f"cond.grad_{flag}", [y, tape.gradient(y, x)])
with tf.GradientTape() as tape:
    y = tf.cond(x > 5.0, lambda: x * x, lambda: tf.constant(1.0))
report("cond.grad_untaken_none", tape.gradient(y, x))
expect_error("cond.vector_pred", lambda: tf.cond(tf.constant([True, False]), lambda: 1,
                                                 lambda: 2))
expect_error("cond.not_callable", lambda: tf.cond(True, 1, lambda: 2))
expect_error("cond.no_false_fn", lambda: tf.cond(True, lambda: 1))

# while_loop: TensorFlow 2 returns the structure of loop_vars, every leaf a tensor
report("while.tuple", tf.while_loop(lambda i: i < 3, lambda i: (i + 1,), (0,)))
report("while.pair", tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * 2.0),
                                   (tf.constant(0), tf.constant(1.0))))
report("while.list_zero_iterations", tf.while_loop(lambda i, s: i < 0, lambda i, s: [i, s],
                                                   [5, 2.5]))
report("while.nested", tf.while_loop(lambda a, d: a < 4,
                                     lambda a, d: (a + 2, {"x": d["x"] * 3}),
                                     (0, {"x": tf.constant([1.0, 2.0])})))
report("while.maximum_iterations", tf.while_loop(lambda i, s: i < 100,
                                                 lambda i, s: (i + 1, s + i), (0, 0),
                                                 maximum_iterations=4))
w = tf.Variable(1.5)
with tf.GradientTape() as tape:
    _, p = tf.while_loop(lambda i, p: i < 4, lambda i, p: (i + 1, p * w), (0, tf.constant(1.0)))
report("while.grad", [p, tape.gradient(p, w)])
report("while.variable_var", tf.while_loop(lambda v: v < 4.0, lambda v: (v + 1.0,), (w,)))
ta = tf.TensorArray(tf.float32, size=3)
_, ta = tf.while_loop(lambda i, ta: i < 3, lambda i, ta: (i + 1, ta.write(i, tf.cast(i, tf.float32) ** 2)),
                      (0, ta))
report("while.tensor_array", ta.stack())
expect_error("while.unpacked_body", lambda: tf.while_loop(lambda i: i < 3, lambda i: i + 1, [0]))
expect_error("while.no_vars", lambda: tf.while_loop(lambda i: i < 3, lambda i: i + 1, []))
expect_error("while.body_structure", lambda: tf.while_loop(lambda i: i < 10,
                                                           lambda i: [i + 1, 2], [0]))
expect_error("while.vector_cond", lambda: tf.while_loop(lambda i: tf.constant([True, True]),
                                                        lambda i: (i + 1,), [0]))
expect_error("while.cond_not_callable", lambda: tf.while_loop(1, lambda i: i + 1, [0]))
expect_error("while.body_not_callable", lambda: tf.while_loop(lambda i: i < 3, 1, [0]))
expect_error("while.parallel_iterations", lambda: tf.while_loop(
    lambda i: i < 3, lambda i: (i + 1,), [0], parallel_iterations=0))

# map_fn: fn on each row, results stacked
report("map_fn.double", tf.map_fn(lambda r: r * 2, tf.constant([[1.0, 2.0], [3.0, 4.0]])))
report("map_fn.tuple_in", tf.map_fn(lambda t: t[0] + t[1],
                                    (tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])),
                                    fn_output_signature=tf.float32))
report("map_fn.tuple_out", tf.map_fn(lambda t: (t[0] * 2, t[1] + 1),
                                     (tf.constant([1.0, 2.0]), tf.constant([3, 4]))))
report("map_fn.signature_dtype", tf.map_fn(lambda r: tf.cast(r, tf.int32),
                                           tf.constant([1.5, 2.5]), fn_output_signature=tf.int32))
report("map_fn.signature_spec", tf.map_fn(
    lambda r: tf.reduce_sum(r), tf.constant([[1, 2], [3, 4]]),
    fn_output_signature=tf.TensorSpec(shape=[], dtype=tf.int32)))
report("map_fn.dtype_arg", tf.map_fn(lambda r: r > 1.0, tf.constant([0.5, 2.0]), dtype=tf.bool))
report("map_fn.empty", tf.map_fn(lambda r: r, tf.zeros([0, 2])))
m = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as tape:
    out = tf.map_fn(lambda r: tf.reduce_sum(r * r) * r, m)
report("map_fn.grad", [out, tape.gradient(tf.reduce_sum(out), m)])
expect_error("map_fn.scalar", lambda: tf.map_fn(lambda r: r, tf.constant(1.0)))
expect_error("map_fn.python_list", lambda: tf.map_fn(lambda r: r * 2, [1.0, 2.0]))
expect_error("map_fn.dtype_change", lambda: tf.map_fn(lambda r: tf.cast(r, tf.int32),
                                                      tf.constant([1.0, 2.0])))
expect_error("map_fn.lengths", lambda: tf.map_fn(lambda t: t[0], (tf.constant([1.0, 2.0]),
                                                                  tf.constant([3.0, 4.0, 5.0]))))
expect_error("map_fn.ragged", lambda: tf.map_fn(lambda r: tf.range(r), tf.constant([1, 2])))
