# tf.math.segment_sum/mean/max/min and unsorted_segment_sum/mean/max/min/sqrt_n: values
# (empty segments, dropped negative ids, rank-2 ids, integer data, int64 ids), gradients
# (ties share a max's gradient), and their errors
d = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
ids = [0, 0, 2, 2]
for name in ("segment_sum", "segment_mean", "segment_max", "segment_min"):
    report(name, getattr(tf.math, name)(d, ids))
    report(name + ".int64_ids", getattr(tf.math, name)(d, tf.constant([0, 1, 1, 3], tf.int64)))
u_ids = [2, 0, -1, 2]
for name in ("unsorted_segment_sum", "unsorted_segment_mean", "unsorted_segment_max",
             "unsorted_segment_min", "unsorted_segment_sqrt_n"):
    report(name, getattr(tf.math, name)(d, u_ids, 4))
    report(name + ".tensor_num", getattr(tf.math, name)(d, [0, 1, 0, 1], tf.constant(2)))
report("unsorted_segment_sum.rank2_ids", tf.math.unsorted_segment_sum(
    tf.reshape(d, [2, 2, 2]), [[0, 1], [1, 1]], 2))
report("segment_sum.int", tf.math.segment_sum(tf.constant([1, 5, 3]), [0, 0, 1]))
report("unsorted_segment_max.int", tf.math.unsorted_segment_max(tf.constant([1, 5, 3]),
                                                                [0, 0, 2], 3))
report("segment_max.empty_middle", tf.math.segment_max(tf.constant([1.0, 2.0]), [1, 3]))
report("segment_sum.float64", tf.math.segment_sum(tf.constant([1.5, 2.5], tf.float64), [0, 0]))

x = tf.Variable([1.0, 3.0, 3.0, 2.0, 5.0])
with tf.GradientTape(persistent=True) as tape:
    outs = {"segment_max_ties": tf.math.segment_max(x, [0, 0, 0, 1, 1]),
            "unsorted_segment_min": tf.math.unsorted_segment_min(x, [0, 0, 1, -1, 1], 3),
            "segment_sum": tf.math.segment_sum(x, [0, 1, 1, 1, 4]),
            "segment_mean": tf.math.segment_mean(x, [0, 1, 1, 1, 4]),
            "unsorted_segment_sum": tf.math.unsorted_segment_sum(x, [3, -1, 0, 0, 1], 4),
            "unsorted_segment_mean": tf.math.unsorted_segment_mean(x, [3, -1, 0, 0, 1], 4),
            "unsorted_segment_sqrt_n": tf.math.unsorted_segment_sqrt_n(x, [3, 3, 0, 0, 0], 4)}
    weighted = {k: tf.reduce_sum(v * tf.range(1.0, 1.0 + tf.cast(tf.size(v), tf.float32)))
                for k, v in outs.items()}
for k in outs:
    report("grad." + k, tape.gradient(weighted[k], x))
m = tf.Variable([[1.0, 4.0], [2.0, 4.0], [0.5, 1.0]])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.math.unsorted_segment_max(m, [1, 1, 0], 2) * [[1.0, 2.0], [3.0, 4.0]])
report("grad.unsorted_segment_max_rows", tape.gradient(y, m))

expect_error("segment_sum.not_increasing", lambda: tf.math.segment_sum(d, [1, 0, 2, 2]))
expect_error("segment_sum.negative", lambda: tf.math.segment_sum(d, [-1, 0, 2, 2]))
expect_error("segment_sum.length", lambda: tf.math.segment_sum(d, [0, 0, 2]))
expect_error("segment_sum.float_ids", lambda: tf.math.segment_sum(d, [0.0, 0.0, 1.0, 1.0]))
expect_error("segment_sum.scalar", lambda: tf.math.segment_sum(tf.constant(1.0), [0]))
expect_error("unsorted_segment_sum.out_of_range", lambda: tf.math.unsorted_segment_sum(
    d, [2, 0, 5, 2], 4))
expect_error("unsorted_segment_max.length", lambda: tf.math.unsorted_segment_max(
    d, [0, 1], 2))

# TensorFlow's kernels go through the rows in order: a NaN row makes the running max NaN and
# the next row replaces it; the sorted forms start from -inf (a segment of -inf rows is -inf),
# the unsorted ones from the dtype's lowest value. (Three columns: with more, the sorted
# kernel reduces packets of columns, whose NaN rule depends on the CPU.)
nan_rows = tf.constant([[np.nan, 1.0, -np.inf], [2.0, np.nan, -np.inf], [-1.0, 0.5, np.nan]])
report("unsorted_segment_max.nan_order", tf.math.unsorted_segment_max(nan_rows, [0, 0, 0], 1))
report("unsorted_segment_min.nan_order", tf.math.unsorted_segment_min(nan_rows, [1, 1, 1], 2))
report("unsorted_segment_max.nan_dropped_row", tf.math.unsorted_segment_max(
    nan_rows, [0, -1, 0], 1))
report("segment_max.nan_order", tf.math.segment_max(nan_rows, [0, 0, 0]))
report("segment_min.nan_order", tf.math.segment_min(nan_rows, [0, 0, 0]))
minus_inf = tf.constant([[-np.inf, 1.0, -np.inf], [-np.inf, 2.0, 3.0]], tf.float64)
report("segment_max.minus_inf", tf.math.segment_max(minus_inf, [0, 0]))
report("segment_min.plus_inf", tf.math.segment_min(-minus_inf, [0, 0]))
report("unsorted_segment_max.minus_inf", tf.math.unsorted_segment_max(minus_inf, [0, 0], 1))
x = tf.Variable(minus_inf)
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.math.segment_max(x, [0, 0]) * [1.0, 2.0, 3.0])
report("grad.segment_max.minus_inf", tape.gradient(y, x))
