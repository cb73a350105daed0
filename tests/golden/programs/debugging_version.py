# tf.debugging checks (check_numerics, assert_equal & co, assert_rank, Assert) as eager
# TensorFlow runs them, and tf.version beside tf.__version__

report("version.consistent", tf.version.VERSION == tf.__version__)
report("version.release", tf.version.VERSION.split("+")[0].split("-")[0])
report("version.git_starts_with_v", tf.version.GIT_VERSION.startswith("v2."))

x = tf.constant([1.0, 2.0])
report("check_numerics.passes", tf.debugging.check_numerics(x, "fine"))
v = tf.Variable([0.5, 3.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.debugging.check_numerics(v * v, "square"))
report("check_numerics.grad", tape.gradient(y, v))
expect_error("check_numerics.nan", lambda: tf.debugging.check_numerics(
    tf.constant([1.0, np.nan]), "bad"))
expect_error("check_numerics.inf", lambda: tf.debugging.check_numerics(
    tf.constant([1.0, np.inf]), "bad"))
expect_error("check_numerics.int", lambda: tf.debugging.check_numerics(tf.constant([1, 2]),
                                                                       "bad"))
expect_error("assert_all_finite.nan", lambda: tf.debugging.assert_all_finite(
    tf.constant([np.nan]), "bad"))

report("assert_equal.passes", tf.debugging.assert_equal(tf.constant([1, 2]), [1, 2]))
report("assert_equal.broadcast", tf.assert_equal(tf.constant([[1, 1]]), 1))
report("assert_less.passes", tf.debugging.assert_less(x, 3.0))
report("assert_greater_equal.passes", tf.debugging.assert_greater_equal(x, [1.0, 2.0]))
report("assert_positive.passes", tf.debugging.assert_positive(x))
report("assert_non_negative.passes", tf.debugging.assert_non_negative([0, 1]))
report("assert_none_equal.passes", tf.debugging.assert_none_equal(x, [2.0, 1.0]))
report("assert_near.passes", tf.debugging.assert_near(x, x + 1e-7))
report("assert_rank.passes", tf.debugging.assert_rank(x, 1))
report("Assert.passes", tf.Assert(tf.constant(True), [x]))
expect_error("assert_equal.fails", lambda: tf.debugging.assert_equal(tf.constant([1, 2]),
                                                                     tf.constant([1, 3])))
expect_error("assert_equal.message", lambda: tf.assert_equal(1, 2, message="mm"))
expect_error("assert_less.fails", lambda: tf.debugging.assert_less(x, 2.0))
expect_error("assert_greater.fails", lambda: tf.assert_greater(x, 1.5))
expect_error("assert_less_equal.fails", lambda: tf.debugging.assert_less_equal(x, 1.0))
expect_error("assert_positive.fails", lambda: tf.debugging.assert_positive([1.0, 0.0]))
expect_error("assert_non_negative.fails", lambda: tf.debugging.assert_non_negative([-1]))
expect_error("assert_none_equal.fails", lambda: tf.debugging.assert_none_equal(x, [1.0, 0.0]))
expect_error("assert_near.fails", lambda: tf.debugging.assert_near(x, x + 0.1))
expect_error("assert_equal.dtypes", lambda: tf.debugging.assert_equal(tf.constant([1, 2]),
                                                                      tf.constant([1.0, 2.0])))
expect_error("assert_rank.fails", lambda: tf.debugging.assert_rank(x, 2))
expect_error("assert_rank.top_level", lambda: tf.assert_rank(tf.zeros([2, 2]), 1))
expect_error("Assert.fails", lambda: tf.Assert(tf.constant(False), ["x is", x]))
expect_error("Assert.python_false", lambda: tf.Assert(False, [1]))
report("set_log_device_placement", tf.debugging.set_log_device_placement(False))
