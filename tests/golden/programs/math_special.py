# tf.math.lgamma, digamma, erfc, erfinv and ndtri: values, first and second derivatives
# (digamma's gradient is polygamma(1, x)), dtypes, the edge points (poles, the ends of the
# domain, ±inf, NaN) and the inputs TensorFlow refuses


def first_and_second(name, fn, x):
    x = tf.constant(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = fn(x)
        g = inner.gradient(y, x)
    report(name, y)
    report(name + ".grad", g)
    report(name + ".grad2", outer.gradient(g, x))


first_and_second("lgamma", tf.math.lgamma, [0.1, 0.5, 1.0, 2.0, 3.5, 10.0, 100.0, -0.5, -2.5])
first_and_second("digamma", tf.math.digamma, [0.1, 0.5, 1.0, 2.0, 3.5, 10.0, -0.5, -2.5])
first_and_second("erfc", tf.math.erfc, [-3.0, -1.0, -0.1, 0.0, 0.5, 2.0, 5.0, 9.0])
first_and_second("erfinv", tf.math.erfinv, [-0.99, -0.5, 0.0, 0.1, 0.5, 0.9, 0.999])
first_and_second("ndtri", tf.math.ndtri, [0.001, 0.025, 0.1, 0.5, 0.8, 0.975, 0.999])
first_and_second("lgamma_float64", tf.math.lgamma, np.array([0.25, 1.5, 40.0]))
first_and_second("digamma_float64", tf.math.digamma, np.array([0.25, 1.5, 40.0]))
first_and_second("erfinv_float64", tf.math.erfinv, np.array([-0.75, 0.3, 0.999999]))
first_and_second("ndtri_float64", tf.math.ndtri, np.array([1e-10, 0.3, 0.9]))
first_and_second("erfc_matrix", tf.math.erfc, [[0.25, -0.5], [1.5, 3.0]])

nan, inf = float("nan"), float("inf")
report("edges.lgamma", tf.math.lgamma([0.0, -0.0, -1.0, -2.0, 1.0, 2.0, inf, -inf, nan, 1e30]))
report("edges.digamma", tf.math.digamma([0.0, -1.0, -2.0, inf, -inf, nan, 1e30]))
report("edges.erfc", tf.math.erfc([inf, -inf, nan, 10.0, 30.0]))
report("edges.erfinv", tf.math.erfinv([-1.0, 1.0, 1.5, -2.0, nan, inf]))
report("edges.ndtri", tf.math.ndtri([0.0, 1.0, -0.5, 1.5, nan, inf]))
ends = tf.constant([0.0, 1.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(ends)
    at_poles = tf.math.lgamma(ends - 1.0)
    at_zero = tf.math.digamma(ends - 1.0)
    erfinv_ends = tf.math.erfinv(ends * 2.0 - 1.0)
    ndtri_ends = tf.math.ndtri(ends)
report("edges.grad.lgamma_poles", tape.gradient(at_poles, ends))
report("edges.grad.digamma_poles", tape.gradient(at_zero, ends))
report("edges.grad.erfinv_ends", tape.gradient(erfinv_ends, ends))
report("edges.grad.ndtri_ends", tape.gradient(ndtri_ends, ends))

report("float16", [tf.math.lgamma(tf.constant([0.5, 3.0], tf.float16)),
                   tf.math.digamma(tf.constant([0.5, 3.0], tf.float16)),
                   tf.math.erfc(tf.constant([0.5, -1.0], tf.float16))])
report("dtypes", [tf.math.lgamma(tf.constant(2.0, tf.float64)).dtype.name,
                  tf.math.erfc(1.0).dtype.name, tf.math.ndtri(0.5).dtype.name])
report("python_floats", [tf.math.lgamma(4.0), tf.math.digamma([1.0, 2.0]), tf.math.erfc(0.5),
                         tf.math.erfinv(0.5), tf.math.ndtri([0.5, 0.9])])
v = tf.Variable([[0.5, 2.0], [3.0, 4.5]])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.math.lgamma(v) * tf.constant([[1.0], [-2.0]]))
report("variable.grad", tape.gradient(loss, v))
for name, fn in [("lgamma_int", lambda: tf.math.lgamma(tf.constant([1, 2]))),
                 ("digamma_python_int", lambda: tf.math.digamma(3)),
                 ("erfc_bool", lambda: tf.math.erfc(tf.constant([True]))),
                 ("erfinv_int64", lambda: tf.math.erfinv(tf.constant([0], tf.int64))),
                 ("ndtri_int", lambda: tf.math.ndtri(tf.constant([0]))),
                 ("erfinv_float16", lambda: tf.math.erfinv(tf.constant([0.5], tf.float16))),
                 ("ndtri_float16", lambda: tf.math.ndtri(tf.constant([0.5], tf.float16))),
                 ("lgamma_string", lambda: tf.math.lgamma("a"))]:
    expect_error(name, fn)
