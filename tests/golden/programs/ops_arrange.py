# tf.pad, tf.slice, tf.reverse, tf.roll, tf.sort, tf.argsort, tf.math.top_k, tf.unique,
# tf.meshgrid, tf.sequence_mask: values, dtypes, gradients, and the inputs TensorFlow refuses


def value_and_grad(name, fn, x, weights=None):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
        w = tf.reshape(tf.range(1, tf.size(y) + 1, dtype=y.dtype), tf.shape(y))
        loss = tf.reduce_sum(y * w * w)
    report(name, y)
    report(name + ".grad", tape.gradient(loss, x))


m = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
for mode in ("CONSTANT", "REFLECT", "SYMMETRIC", "reflect"):
    value_and_grad("pad." + mode, lambda x: tf.pad(x, [[1, 1], [2, 2]], mode), m)
value_and_grad("pad.uneven", lambda x: tf.pad(x, [[0, 1], [2, 0]], "SYMMETRIC"), m)
value_and_grad("pad.constant_values", lambda x: tf.pad(x, [[1, 0], [0, 1]],
                                                       constant_values=-2.5), m)
value_and_grad("pad.rank3", lambda x: tf.pad(x, [[0, 0], [1, 1], [1, 0]], "REFLECT"),
               np.arange(12.0).reshape(2, 3, 2))
report("pad.int", tf.pad(tf.constant([1, 2, 3]), [[2, 1]], constant_values=9))
report("pad.empty", tf.pad(tf.zeros([0, 2]), [[1, 1], [0, 0]], constant_values=3.0))
report("pad.int64_paddings", tf.pad(m, tf.constant([[0, 0], [1, 1]], tf.int64)))
c = tf.constant(4.0)
with tf.GradientTape() as tape:
    tape.watch(c)
    padded = tf.pad(tf.constant([1.0, 2.0]), [[1, 1]], constant_values=c)
report("pad.tensor_constant", padded)
report("pad.constant_values_grad", tape.gradient(padded, c))
expect_error("pad.reflect_too_wide", lambda: tf.pad(m, [[1, 1], [3, 3]], "REFLECT"))
expect_error("pad.symmetric_too_wide", lambda: tf.pad(m, [[3, 0], [0, 0]], "SYMMETRIC"))
expect_error("pad.wrong_rank", lambda: tf.pad(m, [[1, 1]]))
expect_error("pad.negative", lambda: tf.pad(m, [[1, -1], [0, 0]]))
expect_error("pad.mode", lambda: tf.pad(m, [[1, 1], [2, 2]], "FOO"))
expect_error("pad.float_paddings", lambda: tf.pad(m, [[0.5, 1], [2, 2]]))
expect_error("pad.float_value_into_int", lambda: tf.pad(tf.constant([1, 2]), [[1, 1]],
                                                        constant_values=1.5))

value_and_grad("slice.rest", lambda x: tf.slice(x, [0, 1], [2, -1]), m)
value_and_grad("slice.block", lambda x: tf.slice(x, [1, 0], [1, 2]), m)
report("slice.tensor_args", tf.slice(tf.constant(m), tf.constant([0, 2]), tf.constant([1, 1])))
expect_error("slice.too_big", lambda: tf.slice(m, [0, 1], [3, 1]))
expect_error("slice.short_begin", lambda: tf.slice(m, [0], [1]))
expect_error("slice.negative_begin", lambda: tf.slice(m, [0, -1], [1, 1]))

value_and_grad("reverse.last", lambda x: tf.reverse(x, [1]), m)
value_and_grad("reverse.both", lambda x: tf.reverse(x, [-1, 0]), m)
expect_error("reverse.out_of_range", lambda: tf.reverse(m, [2]))
expect_error("reverse.twice", lambda: tf.reverse(m, [1, 1]))

value_and_grad("roll.one", lambda x: tf.roll(x, 1, 1), m)
value_and_grad("roll.two", lambda x: tf.roll(x, [1, -1], [0, 1]), m)
value_and_grad("roll.same_axis_twice", lambda x: tf.roll(x, [1, 1], [1, 1]), m)
report("roll.int", tf.roll(tf.range(5), 7, 0))
expect_error("roll.sizes", lambda: tf.roll(m, [1], [0, 1]))
expect_error("roll.axis", lambda: tf.roll(m, 1, 2))

s = [[3.0, 1.0, 2.0, 1.0], [0.5, -4.0, 7.0, 0.25]]
value_and_grad("sort.ascending", lambda x: tf.sort(x), s)
value_and_grad("sort.descending", lambda x: tf.sort(x, direction="DESCENDING"), s)
value_and_grad("sort.axis0", lambda x: tf.sort(x, axis=0), s)
report("sort.int", tf.sort(tf.constant([3, -1, 2, -7])))
report("sort.int_descending", tf.sort(tf.constant([3, -1, 2, -7]), direction="DESCENDING"))
report("argsort.ties", tf.argsort([3.0, 1.0, 3.0, 2.0, 1.0]))
report("argsort.ties_descending", tf.argsort([3.0, 1.0, 3.0, 2.0, 1.0], direction="DESCENDING"))
report("argsort.axis0", tf.argsort(s, axis=0))
report("argsort.dtype", tf.argsort([2, 1]).dtype.name)
expect_error("sort.direction", lambda: tf.sort(s, direction="up"))
expect_error("sort.scalar", lambda: tf.sort(tf.constant(3.0)))
expect_error("sort.string", lambda: tf.sort(["b", "a"]))

value_and_grad("top_k.values", lambda x: tf.math.top_k(x, 2).values, s)
report("top_k.indices", tf.math.top_k(s, 3).indices)
report("top_k.ties", tf.math.top_k([1, 3, 3, 2], k=3))
report("top_k.nn", tf.nn.top_k([0.5, 2.0, 1.0]))
report("top_k.int64", tf.math.top_k([0.5, 2.0], 1, index_type=tf.int64).indices)
report("top_k.k0", tf.math.top_k(s, 0))
expect_error("top_k.too_many", lambda: tf.math.top_k(s, 5))
expect_error("top_k.negative", lambda: tf.math.top_k(s, -1))
expect_error("top_k.scalar", lambda: tf.math.top_k(tf.constant(1.0), 1))

report("unique.int", tf.unique([3, 1, 3, 2, 1]))
report("unique.float_int64", tf.unique([1.0, 2.0, 1.0], out_idx=tf.int64))
expect_error("unique.matrix", lambda: tf.unique(m))

report("meshgrid.xy", tf.meshgrid([1, 2, 3], [4, 5]))
report("meshgrid.ij", tf.meshgrid([1, 2, 3], [4, 5], indexing="ij"))
report("meshgrid.three", tf.meshgrid([1.0, 2.0], [3.0], [4.0, 5.0, 6.0]))
report("meshgrid.one", tf.meshgrid([1.0, 2.0]))
gx, gy = tf.constant([1.0, 2.0, 3.0]), tf.constant([4.0, 5.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch([gx, gy])
    X, Y = tf.meshgrid(gx, gy)
    z = tf.reduce_sum(X * X * Y)
report("meshgrid.grad", tape.gradient(z, [gx, gy]))
expect_error("meshgrid.indexing", lambda: tf.meshgrid([1, 2], indexing="q"))
expect_error("meshgrid.dtypes", lambda: tf.meshgrid([1, 2], [1.0, 2.0]))

report("sequence_mask.maxlen", tf.sequence_mask([1, 3, 2], 4))
report("sequence_mask.default", tf.sequence_mask([1, 3, 2]))
report("sequence_mask.float32", tf.sequence_mask([[1], [2]], 3, dtype=tf.float32))
report("sequence_mask.float_lengths", tf.sequence_mask([1.0, 2.0]))
report("sequence_mask.zero", tf.sequence_mask([0, 1], 0))
expect_error("sequence_mask.vector_maxlen", lambda: tf.sequence_mask([1, 2], [3]))
