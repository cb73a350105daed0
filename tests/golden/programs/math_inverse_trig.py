# tf.atan2, tf.acosh, tf.asinh, tf.atanh, tf.math.rint, tf.math.reciprocal_no_nan,
# tf.math.xlog1py and tf.scalar_mul: values, first and second derivatives, dtypes, the edge
# points (0, ±1, ±inf, NaN) and the inputs TensorFlow refuses


def first_and_second(name, fn, *xs):
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(xs)
        with tf.GradientTape() as inner:
            inner.watch(xs)
            y = fn(*xs)
        gs = inner.gradient(y, xs)
        total = tf.add_n([tf.reduce_sum(g) for g in gs if g is not None]) if any(
            g is not None for g in gs) else None
    report(name, y)
    report(name + ".grad", gs)
    if total is not None:
        report(name + ".grad2", outer.gradient(total, xs))


first_and_second("asinh", tf.asinh, [-3.0, -1.0, -0.1, 0.0, 0.5, 2.0, 100.0])
first_and_second("acosh", tf.acosh, [1.0, 1.5, 2.0, 10.0, 1000.0])
first_and_second("atanh", tf.atanh, [-0.9, -0.5, 0.0, 0.3, 0.99])
first_and_second("atan2", tf.atan2, [1.0, -1.0, 0.5, -2.0, 3.0], [2.0, 2.0, -1.0, -0.5, 0.0])
first_and_second("atan2_broadcast", tf.math.atan2, [[1.0], [-2.0]], [0.5, -1.5, 3.0])
first_and_second("atan2_float64", tf.atan2, np.array([1.0, -0.25]), np.array([-1.0, 4.0]))
first_and_second("xlog1py", tf.math.xlog1py, [0.0, 0.0, 1.0, -2.0, 3.0],
                 [-1.0, 2.0, 0.5, 3.0, -0.5])
first_and_second("reciprocal_no_nan", tf.math.reciprocal_no_nan, [0.0, 2.0, -0.5, 4.0])
first_and_second("rint", tf.math.rint, [0.5, 1.5, 2.5, -0.5, -1.7, 2.2])

report("edges.atanh", tf.atanh([-1.0, 1.0, 2.0, float("nan"), -float("inf")]))
report("edges.acosh", tf.acosh([0.5, -1.0, float("inf"), float("nan")]))
report("edges.asinh", tf.math.asinh([float("inf"), -float("inf"), float("nan")]))
report("edges.atan2", tf.atan2([0.0, -0.0, 0.0, -0.0, 1.0, float("inf"), float("nan")],
                               [0.0, 0.0, -0.0, -1.0, float("inf"), float("inf"), 1.0]))
report("edges.xlog1py", tf.math.xlog1py([0.0, 0.0, 1.0, 2.0, 0.0],
                                        [float("nan"), float("inf"), -1.0, -2.0, -1.0]))
report("edges.reciprocal_no_nan", tf.math.reciprocal_no_nan(
    [float("inf"), -float("inf"), float("nan"), -0.0, 1e-30]))
report("edges.rint", tf.math.rint([float("inf"), float("nan"), -0.2, 1e10 + 0.5]))

zero = tf.constant([0.0, 0.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(zero)
    at_origin = tf.atan2(zero, zero)
    acosh_one = tf.acosh(zero + 1.0)
    atanh_one = tf.atanh(zero + 1.0)
    x_zero = tf.math.xlog1py(zero, zero - 1.0)
report("edges.grad.atan2_origin", tape.gradient(at_origin, zero))
report("edges.grad.acosh_one", tape.gradient(acosh_one, zero))
report("edges.grad.atanh_one", tape.gradient(atanh_one, zero))
report("edges.grad.xlog1py_zero_x", tape.gradient(x_zero, zero))

report("float16", [tf.asinh(tf.constant([0.5], tf.float16)), tf.acosh(tf.constant([2.0], tf.float16)),
                   tf.atanh(tf.constant([0.5], tf.float16))])
report("float64.dtype", [tf.atan2(tf.constant(1.0, tf.float64), 2.0).dtype.name,
                         tf.math.xlog1py(tf.constant(1.0, tf.float64), 2.0).dtype.name,
                         tf.math.reciprocal_no_nan(tf.constant(2.0, tf.float64)).dtype.name])
report("python_floats", [tf.atan2(1.0, 2.0), tf.asinh(0.5), tf.math.xlog1py(2.0, 1.0),
                         tf.math.reciprocal_no_nan([0.0, 4.0])])
for name, fn in [("atan2_int", lambda: tf.atan2(tf.constant([1]), tf.constant([2]))),
                 ("atan2_python_ints", lambda: tf.atan2(1, 2)),
                 ("atan2_mixed", lambda: tf.atan2(tf.constant([1.0]), tf.constant([1.0], tf.float64))),
                 ("atan2_shapes", lambda: tf.atan2(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]))),
                 ("acosh_int", lambda: tf.acosh(tf.constant([2]))),
                 ("asinh_int", lambda: tf.asinh(3)), ("atanh_bool", lambda: tf.atanh(tf.constant([True]))),
                 ("rint_float16", lambda: tf.math.rint(tf.constant([2.5], tf.float16))),
                 ("rint_int", lambda: tf.math.rint(tf.constant([1, 2]))),
                 ("reciprocal_no_nan_int", lambda: tf.math.reciprocal_no_nan(tf.constant([0, 2]))),
                 ("xlog1py_int", lambda: tf.math.xlog1py(tf.constant([1]), tf.constant([2]))),
                 ("xlog1py_mixed", lambda: tf.math.xlog1py(tf.constant([1.0]), tf.constant([2.0], tf.float64)))]:
    expect_error(name, fn)

x = tf.constant([1.0, -2.0, 3.0])
report("scalar_mul", [tf.scalar_mul(2, x), tf.math.scalar_mul(0.5, x), tf.scalar_mul(3, tf.constant([1, 2])),
                      tf.math.scalar_mul(tf.constant(2.0), x), tf.scalar_mul(np.float32(1.5), x)])
report("scalar_mul.float64", tf.scalar_mul(2, tf.constant([1.0], tf.float64)))
s = tf.constant(2.5)
with tf.GradientTape(persistent=True) as tape:
    tape.watch([s, x])
    y = tf.reduce_sum(tf.scalar_mul(s, x * x))
report("scalar_mul.grad", tape.gradient(y, [s, x]))
table = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
with tf.GradientTape() as tape:
    picked = tf.reduce_sum(tf.gather(table, [2, 0]) * tf.constant([[1.0, -1.0]]))
sparse = tape.gradient(picked, table)
scaled = tf.math.scalar_mul(3.0, sparse)
report("scalar_mul.sparse", [type(scaled).__name__, scaled.values, scaled.indices,
                             tf.convert_to_tensor(scaled)])
for name, fn in [("scalar_mul_vector", lambda: tf.scalar_mul(tf.constant([1.0, 2.0]), x)),
                 ("scalar_mul_list", lambda: tf.math.scalar_mul([2.0], x)),
                 ("scalar_mul_float_into_int", lambda: tf.scalar_mul(2.5, tf.constant([1, 2]))),
                 ("scalar_mul_float64_scalar", lambda: tf.scalar_mul(tf.constant(2.0, tf.float64), x))]:
    expect_error(name, fn)
