# tf.math.reduce_euclidean_norm, zero_fraction, is_non_decreasing, is_strictly_increasing,
# invert_permutation, bincount, in_top_k, accumulate_n, polyval and cumulative_logsumexp:
# values, dtypes, gradients where TensorFlow has them, edge cases and the errors it raises

m = tf.math
nan, inf = float("nan"), float("inf")


def grads(name, fn, *xs):
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(xs)
        with tf.GradientTape() as inner:
            inner.watch(xs)
            y = fn(*xs)
            loss = tf.reduce_sum(y * tf.cast(tf.range(1, tf.size(y) + 1), y.dtype)
                                 if y.shape.rank == 0 else
                                 y * tf.reshape(tf.cast(tf.range(1, tf.size(y) + 1), y.dtype),
                                                tf.shape(y)))
        gs = inner.gradient(loss, xs)
        total = tf.add_n([tf.reduce_sum(g * g) for g in gs])
    report(name, y)
    report(name + ".grad", gs)
    report(name + ".grad2", outer.gradient(total, xs))


a = [[3.0, -4.0, 1.0], [0.5, 2.0, -2.0]]
grads("norm.all", lambda x: m.reduce_euclidean_norm(x), a)
grads("norm.axis1", lambda x: m.reduce_euclidean_norm(x, axis=1), a)
grads("norm.axis0_keepdims", lambda x: m.reduce_euclidean_norm(x, axis=0, keepdims=True), a)
grads("norm.float64", lambda x: m.reduce_euclidean_norm(x, axis=-1), np.array([[1.0, 2.0, 2.0]]))
report("norm.ints", [m.reduce_euclidean_norm([3, 4]), m.reduce_euclidean_norm([[1, 1], [2, 2]], 1),
                     m.reduce_euclidean_norm(tf.constant([5, 5], tf.int64))])
report("norm.edges", [m.reduce_euclidean_norm([0.0, 0.0]), m.reduce_euclidean_norm([inf, 1.0]),
                      m.reduce_euclidean_norm([nan, 1.0]), m.reduce_euclidean_norm([1e30, 1e30]),
                      m.reduce_euclidean_norm(tf.zeros([0]))])

grads("cle.vector", lambda x: m.cumulative_logsumexp(x), [0.5, -1.0, 2.0, 0.0])
grads("cle.exclusive", lambda x: m.cumulative_logsumexp(x, exclusive=True)[1:], [0.5, -1.0, 2.0])
grads("cle.reverse", lambda x: m.cumulative_logsumexp(x, reverse=True), [0.5, -1.0, 2.0])
grads("cle.axis1", lambda x: m.cumulative_logsumexp(x, axis=1), a)
large = tf.constant([1000.0, 1001.0, -1000.0])   # (second derivatives there are float32 noise)
with tf.GradientTape() as tape:
    tape.watch(large)
    y = m.cumulative_logsumexp(large)
report("cle.large", [y, tape.gradient(y, large)])
grads("cle.float64", lambda x: m.cumulative_logsumexp(x, axis=0, reverse=True, exclusive=True)[:-1],
      np.array([1.0, 2.0, 3.0]))
report("cle.exclusive_first", m.cumulative_logsumexp([1.0, 2.0], exclusive=True))
# (a NaN is left out: TensorFlow's kernel answers [-inf, 1] for [nan, 1] and [1, 1 + log 2]
# for [1, nan], tapeviz NaN)
report("cle.edges", [m.cumulative_logsumexp([-inf, -inf, 0.0]), m.cumulative_logsumexp([inf, 1.0])])

grads("polyval", lambda c0, c1, c2, x: m.polyval([c0, c1, c2], x), 2.0, -1.0, 0.5, [0.0, 1.5, -2.0])
report("polyval.values", [m.polyval([1.0, 2.0, 3.0], tf.constant(2.0)), m.polyval([], tf.constant([1.0, 2.0])),
                          m.polyval([3], tf.constant(7)), m.polyval([1, 0, -1], tf.constant([2, 3])),
                          m.polyval([tf.constant([1.0, 2.0]), 1.0], tf.constant([[1.0], [2.0]]))])
grads("accumulate_n", lambda p, q, r: m.accumulate_n([p, q * q, r]), [1.0, 2.0], [3.0, -1.0], [0.5, 0.5])
report("accumulate_n.values", [m.accumulate_n([tf.constant([1, 2])]), m.accumulate_n([[1.0, 2.0], [3.0, 4.0]]),
                               m.accumulate_n([tf.constant(1.0), tf.constant(2.0)], shape=[]),
                               m.accumulate_n((tf.constant([1.0]), tf.constant([2.0])), tensor_dtype=tf.float32)])

report("zero_fraction", [m.zero_fraction([0.0, 1.0, 0.0, 2.0]), m.zero_fraction(tf.constant([[0, 0], [0, 3]])),
                         m.zero_fraction([True, False]), m.zero_fraction(tf.zeros([0])),
                         m.zero_fraction([nan, -0.0, 0.0])])
report("monotonic", [m.is_non_decreasing([1, 1, 2]), m.is_strictly_increasing([1, 1, 2]),
                     m.is_strictly_increasing([1.0, 2.0, 3.5]), m.is_non_decreasing([[1, 2], [2, 3]]),
                     m.is_non_decreasing([[1, 2], [0, 3]]), m.is_non_decreasing([]),
                     m.is_strictly_increasing([5]), m.is_non_decreasing([1.0, nan, 2.0])])
report("invert_permutation", [m.invert_permutation([3, 4, 0, 2, 1]),
                              m.invert_permutation(tf.constant([1, 0], tf.int64)),
                              m.invert_permutation(tf.constant([], tf.int32))])
report("bincount", [m.bincount([1, 1, 2, 5]), m.bincount(tf.constant([[1, 2], [2, 2]])),
                    m.bincount([1, 2], minlength=4), m.bincount([1, 7, 2], maxlength=3),
                    m.bincount([1, 2, 2], weights=tf.constant([0.5, 1.0, 2.0])),
                    m.bincount([1, 3], dtype=tf.float32), m.bincount([[1, 2], [0, 0]], axis=-1),
                    m.bincount([[1, 2], [0, 0]], axis=-1, binary_output=True, minlength=4),
                    m.bincount(tf.constant([], tf.int32)), m.bincount(tf.constant([1, 2], tf.int64)),
                    m.bincount([2, 2], binary_output=True),
                    m.bincount([1, 1], weights=tf.constant([1, 2], tf.int64))])
p = tf.constant([[0.1, 0.7, 0.2], [0.4, 0.4, 0.2], [0.3, 0.3, 0.4], [nan, 0.5, 0.1]])
report("in_top_k", [m.in_top_k([1, 0, 0, 1], p, 1), m.in_top_k([1, 0, 0, 1], p, 2),
                    m.in_top_k(tf.constant([2, 1, 0, 0], tf.int64), p, 3), m.in_top_k([1, 0, 0, 1], p, 0),
                    m.in_top_k([5, -1, 0, 1], p, 2)])

for name, fn in [
        ("norm_bool", lambda: m.reduce_euclidean_norm([True, False])),
        ("norm_axis", lambda: m.reduce_euclidean_norm([1.0, 2.0], axis=2)),
        ("cle_int", lambda: m.cumulative_logsumexp(tf.constant([1, 2]))),
        ("cle_scalar", lambda: m.cumulative_logsumexp(tf.constant(1.0))),
        ("cle_axis", lambda: m.cumulative_logsumexp([1.0, 2.0], axis=1)),
        ("polyval_tuple", lambda: m.polyval((1.0, 2.0), tf.constant(1.0))),
        ("polyval_int_coeff_float_x", lambda: m.polyval([1, 2], tf.constant(1.0))),
        ("accumulate_n_empty", lambda: m.accumulate_n([])),
        ("accumulate_n_not_list", lambda: m.accumulate_n(tf.constant([1.0]))),
        ("accumulate_n_dtypes", lambda: m.accumulate_n([tf.constant([1.0]), tf.constant([1])])),
        ("accumulate_n_shapes", lambda: m.accumulate_n([tf.constant([1.0]), tf.constant([1.0, 2.0])])),
        ("accumulate_n_shape_arg", lambda: m.accumulate_n([tf.constant([1.0])], shape=[2])),
        ("accumulate_n_tensor_dtype", lambda: m.accumulate_n([tf.constant([1.0])], tensor_dtype=tf.float64)),
        ("monotonic_bool", lambda: m.is_non_decreasing([True, False])),
        ("monotonic_string", lambda: m.is_strictly_increasing(["a", "b"])),
        ("invert_not_permutation", lambda: m.invert_permutation([0, 0, 1])),
        ("invert_out_of_range", lambda: m.invert_permutation([0, 3, 1])),
        ("invert_float", lambda: m.invert_permutation([0.0, 1.0])),
        ("invert_matrix", lambda: m.invert_permutation([[0, 1], [1, 0]])),
        ("bincount_negative", lambda: m.bincount([1, -1])),
        ("bincount_weights_and_binary", lambda: m.bincount([1], weights=tf.constant([1.0]), binary_output=True)),
        ("bincount_axis", lambda: m.bincount([1, 2], axis=1)),
        ("bincount_weights_shape", lambda: m.bincount([1, 2], weights=tf.constant([1.0]))),
        ("bincount_weights_list", lambda: m.bincount([1, 2], weights=[1.0, 2.0])),
        ("in_top_k_float64", lambda: m.in_top_k([0], tf.constant([[1.0, 2.0]], tf.float64), 1)),
        ("in_top_k_float_targets", lambda: m.in_top_k(tf.constant([0.0]), tf.constant([[1.0, 2.0]]), 1)),
        ("in_top_k_rows", lambda: m.in_top_k([0, 1], tf.constant([[1.0, 2.0]]), 1)),
]:
    expect_error(name, fn)

w = tf.Variable([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    counts = m.bincount([0, 1, 1], weights=w.read_value() * 1.0)
    total = tf.reduce_sum(counts) + m.zero_fraction(w) + tf.cast(m.is_non_decreasing(w), tf.float32)
expect_error("bincount.grad", lambda: tape.gradient(total, w))
with tf.GradientTape() as tape:
    total = m.zero_fraction(w) + tf.cast(m.in_top_k([0], tf.reshape(w, [1, 3]), 2), tf.float32)[0]
report("not_differentiable.grad", tape.gradient(total, w))
