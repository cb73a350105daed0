# tf.experimental.numpy's sort, argsort, split, pad, append, diff, isclose, allclose,
# count_nonzero and average (with the NumPy behavior switch on), and gradients through them
tnp = tf.experimental.numpy
tnp.experimental_enable_numpy_behavior()
f32 = tf.constant([[3.0, -1.0, 2.0, 0.5], [1.0, 4.0, -2.0, 2.0]])
i32 = tf.constant([[5, 1, 4], [2, 2, 0]])
report("sort", tnp.sort(f32))
report("sort_axis0", tnp.sort(i32, axis=0))
report("sort_none", tnp.sort(f32, axis=None))
report("argsort", tnp.argsort(f32))
report("argsort_stable", tnp.argsort(tf.constant([2, 1, 2, 1]), kind="stable"))
report("argsort_none", tnp.argsort(i32, axis=None))
report("argsort_scalar", tnp.argsort(3.0))
expect_error("sort_kind", lambda: tnp.sort(f32, kind="mergesort"))
expect_error("argsort_order", lambda: tnp.argsort(f32, order="x"))
report("split_sections", tnp.split(f32, 2, axis=1))
report("split_indices", tnp.split(tnp.arange(6), [1, 4]))
report("split_past_end", tnp.split(tnp.arange(4), [1, 9]))
expect_error("split_unequal", lambda: tnp.split(tnp.arange(5), 2))
report("pad_constant", tnp.pad(i32, [[1, 0], [0, 2]], "constant"))
report("pad_value", tnp.pad(f32, ((0, 1), (1, 1)), "constant", constant_values=9.0))
report("pad_reflect", tnp.pad(tnp.arange(4), [[2, 1]], "reflect"))
report("pad_symmetric", tnp.pad(tnp.arange(4), [[2, 1]], "symmetric"))
expect_error("pad_mode", lambda: tnp.pad(f32, [[1, 1], [1, 1]], "edge"))
report("append_flat", tnp.append(i32, [7.5]))
report("append_axis", tnp.append(i32, [[9, 9, 9]], axis=0))
report("diff", tnp.diff(f32))
report("diff_n2_axis0", tnp.diff(tf.constant([[1, 4, 9], [16, 25, 36], [0, 0, 1]]), n=2, axis=0))
report("diff_bool", tnp.diff(tf.constant([True, True, False])))
expect_error("diff_axis", lambda: tnp.diff(f32, axis=2))
report("isclose", tnp.isclose(f32, f32 + 1e-6))
report("isclose_tol", tnp.isclose([1.0, 2.0], [1.1, 2.0], atol=0.2))
report("isclose_int", tnp.isclose(i32, 2))
report("isclose_nan", tnp.isclose([np.nan, 1.0], [np.nan, 1.0], equal_nan=True))
report("allclose", tnp.allclose(f32, f32 * (1 + 1e-7)))
report("allclose_false", tnp.allclose([1.0], [1.1]))
report("count_nonzero", tnp.count_nonzero(i32))
report("count_nonzero_axis", tnp.count_nonzero(f32 > 0, axis=1))
report("average", tnp.average(f32))
report("average_int_axis", tnp.average(i32, axis=0))
report("average_weights", tnp.average(f32, weights=tnp.ones_like(f32) * 2.0))
report("average_axis_weights", tnp.average(f32, axis=1, weights=[1.0, 2.0, 3.0, 4.0]))
report("average_returned", tnp.average(i32, axis=1, weights=[1, 0, 2], returned=True))
expect_error("average_axis_tuple", lambda: tnp.average(f32, axis=(0, 1)))


def grads(f, *values):
    xs = [tf.constant(x) for x in values]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = f(*xs)
    return tape.gradient(y, xs)


a = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], np.float32)
w = np.array([1.0, 2.0, 3.0], np.float32)
report("grad.sort", grads(lambda x: tnp.sum(tnp.sort(x) * [1.0, 2.0, 3.0]), a))
report("grad.pad_diff", grads(lambda x: tnp.sum(tnp.diff(tnp.pad(x, [[1, 0], [0, 1]],
                                                                 "reflect")) ** 2), a))
report("grad.average_weights", grads(lambda x, w: tnp.sum(tnp.average(x, axis=1, weights=w)),
                                     a, w))
report("grad.split_append", grads(lambda x: tnp.sum(tnp.append(*tnp.split(x, 2)) ** 2), a))
