# More of tf.experimental.numpy: compositions TensorFlow writes from its ops (logaddexp,
# hypot, cbrt, sinc, exp2, ...), flips, rolls, triangles, meshgrids, ptp, vdot, and the
# gradients through them
tnp = tf.experimental.numpy
tnp.experimental_enable_numpy_behavior()
f32 = tf.constant([[0.5, -1.0, 2.0], [1.5, 0.0, -0.75]])
f64 = tf.constant(np.array([[1.0, 2.0, -3.0], [0.25, 0.5, 4.0]]))
i32 = tf.constant([[1, 2, 3], [4, 5, 6]])
report("fabs", tnp.fabs(f32))
report("exp2", tnp.exp2(f32))
report("exp2_int", tnp.exp2(i32))
report("deg2rad", tnp.deg2rad(tf.constant([180.0, 90.0])))
report("deg2rad_int", tnp.deg2rad(tf.constant([180, 90])))
report("rad2deg", tnp.rad2deg(tf.constant([np.pi, 1.0])))
report("hypot", tnp.hypot(f32, f64))
report("logaddexp", tnp.logaddexp(f32, f64))
report("logaddexp_inf", tnp.logaddexp(tf.constant([-np.inf, np.inf]), tf.constant([-np.inf, 1.0])))
report("logaddexp2", tnp.logaddexp2(f32, 1.0))
report("cbrt", tnp.cbrt(tf.constant([-8.0, 27.0, 0.0])))
report("sinc", tnp.sinc(tf.constant([0.0, 0.5, 1.5])))
report("signbit", tnp.signbit(f32))
report("signbit_bool", tnp.signbit(tf.constant([True, False])))
report("float_power", tnp.float_power(i32, 2.0))
report("ptp", tnp.ptp(f32))
report("ptp_axis", tnp.ptp(i32, axis=1, keepdims=True))
report("vdot", tnp.vdot(f32, f64))
report("array_equal", tnp.array_equal(i32, [[1, 2, 3], [4, 5, 6]]))
report("array_equal_shape", tnp.array_equal(i32, [1, 2, 3]))
report("array_equal_values", tnp.array_equal([1.0, 2.0], [1.0, 2.5]))
report("isscalar", [tnp.isscalar(3.0), tnp.isscalar(f32), tnp.isscalar(tf.constant(1))])
report("flatten_F", tnp.flatten(i32, order="F"))
report("fliplr", tnp.fliplr(i32))
report("flipud", tnp.flipud(f32))
report("roll", tnp.roll(i32, 1))
report("roll_axis", tnp.roll(i32, -1, axis=1))
report("dstack", tnp.dstack([[1, 2], [3.0, 4.0]]))
report("broadcast_arrays", tnp.broadcast_arrays([[1], [2]], tnp.arange(3)))
report("meshgrid_xy", tnp.meshgrid(tnp.arange(3), tnp.arange(2.0)))
report("meshgrid_ij", tnp.meshgrid([1, 2], [3, 4, 5], indexing="ij"))
expect_error("meshgrid_sparse", lambda: tnp.meshgrid([1, 2], sparse=True))
report("tri", tnp.tri(3))
report("tri_k", tnp.tri(2, 4, k=1, dtype=tnp.int32))
report("tril", tnp.tril(f64))
report("tril_k", tnp.tril(tnp.ones([2, 3, 3]), k=-1))
report("triu", tnp.triu(i32, k=1))
expect_error("tril_rank1", lambda: tnp.tril([1.0, 2.0]))


def grads(f, *values):
    xs = [tf.constant(x) for x in values]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = f(*xs)
    return tape.gradient(y, xs)


a = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], np.float32)
b = np.array([[1.0, 2.0, -3.0], [0.25, 0.5, 4.0]], np.float32)
report("grad.logaddexp_hypot", grads(lambda x, y: tnp.sum(tnp.logaddexp(x, y) + tnp.hypot(x, y)),
                                     a, b))
report("grad.cbrt_sinc_exp2", grads(lambda x: tnp.sum(tnp.cbrt(x) + tnp.sinc(x) + tnp.exp2(x)), a))
report("grad.tril_roll_flip", grads(lambda x: tnp.sum(tnp.triu(tnp.roll(tnp.fliplr(x), 1)) *
                                                      tnp.arange(3.0).astype(tnp.float32)), a))
report("grad.ptp_vdot", grads(lambda x, y: tnp.ptp(x) + tnp.vdot(x, y), a, b))
report("grad.meshgrid_broadcast", grads(
    lambda x, y: tnp.sum(tnp.meshgrid(x[0], y[0])[1] ** 2)
    + tnp.sum(tnp.broadcast_arrays(y[:, :1], x)[0] * x),
    a, b))
