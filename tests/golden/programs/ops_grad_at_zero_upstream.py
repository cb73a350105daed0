# sqrt, rsqrt and reciprocal where the upstream gradient is 0: the gradient is exactly 0 there
# (even at x = 0), and its derivative with respect to what made that upstream gradient is not


def second(name, f, x, c):
    x, c = tf.constant(x), tf.constant(c)
    with tf.GradientTape() as outer:
        outer.watch([x, c])
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(f(x) * c)
        g = inner.gradient(y, x)
    report(name + ".grad", g)
    report(name + ".d_grad", outer.gradient(g, [x, c]))


second("sqrt", tf.sqrt, [1.0, 4.0, 9.0, 0.0], [0.0, 2.0, 0.0, 0.0])
second("rsqrt", tf.math.rsqrt, [1.0, 4.0, 0.25, 0.0], [0.0, 2.0, 0.0, 0.0])
second("reciprocal", tf.math.reciprocal, [1.0, -2.0, 0.5, 0.0], [0.0, 3.0, 0.0, 0.0])
second("reciprocal_f64", tf.math.reciprocal, np.array([2.0, 0.0]), np.array([0.0, 1.0]))
