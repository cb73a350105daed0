# cumsum and norm: values and gradients


def vg(name, f, x):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
        w = tf.reshape(tf.range(1.0, 1.0 + tf.cast(tf.size(y), tf.float32)), tf.shape(y))
        t = tf.reduce_sum(y * w)
    report(name, y)
    report(name + ".grad", tape.gradient(t, x))


M = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
vg("cumsum", tf.cumsum, [1.0, 2.0, 3.0, 4.0])
vg("cumsum_axis0_default", tf.cumsum, M)
vg("cumsum_axis1", lambda x: tf.cumsum(x, axis=1), M)
vg("cumsum_exclusive", lambda x: tf.cumsum(x, exclusive=True), [1.0, 2.0, 3.0])
vg("cumsum_reverse", lambda x: tf.cumsum(x, reverse=True), [1.0, 2.0, 3.0])
vg("math_cumsum", lambda x: tf.math.cumsum(x, axis=-1), M)
vg("norm", tf.norm, [3.0, 4.0])
vg("norm_matrix_default", tf.norm, M)
vg("norm_axis0", lambda x: tf.norm(x, axis=0), M)
vg("norm_axis1_keepdims", lambda x: tf.norm(x, axis=1, keepdims=True), M)
vg("norm_ord1", lambda x: tf.norm(x, ord=1), [3.0, -4.0])
vg("norm_ord_inf", lambda x: tf.norm(x, ord=np.inf), [3.0, -4.0])
vg("norm_fro", lambda x: tf.norm(x, ord="fro", axis=[0, 1]), M)
vg("norm_euclidean", lambda x: tf.norm(x, ord="euclidean"), M)
vg("norm_at_zero", tf.norm, [0.0, 0.0])
vg("linalg_norm", tf.linalg.norm, [[1.0, 2.0], [2.0, 4.0]])
report("cumsum_int", tf.cumsum(tf.constant([[1, 2], [3, 4]]), axis=1))
report("norm_f64", tf.norm(np.array([3.0, 4.0])))

# matrix norms over two axes, and vector norms of any order
A = [[1.402, 0.593], [1.192, 2.822]]
B = [[-0.43, -0.038], [-0.016, -0.616]]
vg("matrix_norm_ord1", lambda x: tf.norm(x, ord=1, axis=[0, 1]), A)
vg("matrix_norm_ord_inf", lambda x: tf.norm(x, ord=np.inf, axis=[0, 1]), B)
vg("matrix_norm_ord2", lambda x: tf.norm(x, ord=2, axis=[0, 1]), A)
vg("matrix_norm_ord1_keepdims", lambda x: tf.norm(x, ord=1, axis=[-2, -1], keepdims=True), A)
T = (np.arange(12.0).reshape(2, 2, 3) - 5.0).tolist()
vg("batched_matrix_norm_ord2", lambda x: tf.norm(x, ord=2, axis=[1, 2]), T)
vg("batched_matrix_norm_ord_inf", lambda x: tf.norm(x, ord=np.inf, axis=[2, 1]), T)
vg("batched_matrix_norm_fro_keepdims", lambda x: tf.norm(x, ord="fro", axis=[0, 2], keepdims=True), T)
vg("vector_norm_ord3", lambda x: tf.norm(x, ord=3.0), [1.0, -2.0, 3.0])
vg("vector_norm_ord_half", lambda x: tf.norm(x, ord=0.5), [1.0, -2.0, 3.0])
vg("vector_norm_ord3_axis1", lambda x: tf.norm(x, ord=3.0, axis=1), A)
vg("vector_norm_ord1_axis_none_matrix", lambda x: tf.norm(x, ord=1), A)
expect_error("matrix_norm_ord3", lambda: tf.norm(tf.constant(A), ord=3.0, axis=[0, 1]))
expect_error("vector_norm_ord0", lambda: tf.norm(tf.constant([1.0, 2.0]), ord=0))
expect_error("vector_norm_fro", lambda: tf.norm(tf.constant([1.0, 2.0]), ord="fro"))
expect_error("norm_three_axes", lambda: tf.norm(tf.constant(T), axis=[0, 1, 2]))
