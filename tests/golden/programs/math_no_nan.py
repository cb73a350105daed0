# tf.math.multiply_no_nan, xlogy and xdivy: values and gradients at the zeros where they are
# defined as 0, beside infinities and NaNs, and the dtypes TensorFlow refuses


def both_grads(name, fn, x, y):
    x, y = tf.constant(x), tf.constant(y)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z = fn(x, y)
    report(name, z)
    report(name + ".grads", tape.gradient(z, [x, y]))


finite_x = [0.0, 2.0, -1.0, 0.0, 4.0]
finite_y = [0.0, 0.0, 3.0, 5.0, 0.5]
both_grads("multiply_no_nan", tf.math.multiply_no_nan, finite_x, finite_y)
report("multiply_no_nan.nonfinite_x", tf.math.multiply_no_nan([np.inf, np.nan, np.nan],
                                                              [0.0, 0.0, 2.0]))
x = tf.constant([np.inf, np.nan])
with tf.GradientTape() as tape:
    tape.watch(x)
    z = tf.math.multiply_no_nan(x, [0.0, 0.0])
report("multiply_no_nan.nonfinite_x_grad", tape.gradient(z, x))
both_grads("xlogy", tf.math.xlogy, [0.0, 2.0, np.inf, np.nan, -1.0, 0.0],
           [0.0, 0.0, 0.0, 0.0, 3.0, 5.0])
both_grads("xlogy.broadcast", tf.math.xlogy, [[0.0], [2.0]], [1.0, 4.0])
both_grads("xdivy", tf.math.xdivy, [0.0, 2.0, np.inf, np.nan, -1.0, 0.0],
           [0.0, 0.0, 0.0, 0.0, 3.0, 5.0])
report("xlogy.float64", tf.math.xlogy(tf.constant([0.0, 1.5], tf.float64), [0.0, 2.0]))
expect_error("multiply_no_nan.int", lambda: tf.math.multiply_no_nan([1, 2], [0, 1]))
expect_error("xlogy.int_float", lambda: tf.math.xlogy(2, 3.0))
expect_error("xdivy.dtypes", lambda: tf.math.xdivy(tf.constant([1.0]),
                                                  tf.constant([1.0], tf.float64)))
