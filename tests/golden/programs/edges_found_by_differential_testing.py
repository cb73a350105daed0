# edges where tapeviz disagreed with TensorFlow on random programs, each as its minimal program


def jac(name, f, x):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    report(name, tape.jacobian(y, x))


# Reciprocal's and Rsqrt's gradients are exactly 0 where the upstream gradient is 0, even at
# x = 0 (as Sqrt's): the off-diagonal Jacobian entries are 0, not 0·inf = NaN
jac("reciprocal_at_zero.jacobian", tf.math.reciprocal, [0.0, 0.68])
jac("rsqrt_at_zero.jacobian", tf.math.rsqrt, [0.0, 1.5])
jac("softplus_of_reciprocal.jacobian", lambda x: tf.nn.softplus(tf.math.reciprocal(x)),
    np.array([0.0, 0.68]))

# an exclusive cumsum shifts: an infinity does not turn the first entry into inf - inf = NaN
x = tf.constant([[np.inf, 1.0], [2.0, -np.inf], [3.0, 4.0]])
report("cumsum_exclusive_inf", tf.cumsum(x, axis=0, exclusive=True))
report("cumsum_exclusive_reverse_inf", tf.cumsum(x, axis=0, exclusive=True, reverse=True))

# the spectral norm of a matrix holding NaN or infinity is NaN, and so is its gradient
m = tf.constant([[[np.inf, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])
with tf.GradientTape() as tape:
    tape.watch(m)
    s = tf.norm(m, ord=2, axis=[1, 2])
report("spectral_norm_nonfinite", s)
report("spectral_norm_nonfinite.grad", tape.gradient(s, m))
report("spectral_norm_nan_keepdims", tf.norm(tf.constant([[np.nan, 1.0], [0.0, 2.0]]), ord=2,
                                             axis=[0, 1], keepdims=True))

# batch_jacobian needs a target and a source of rank 2 or more
x = tf.constant([1.0, 2.0, 3.0])
xm = tf.constant([[1.0], [2.0], [3.0]])
with tf.GradientTape(persistent=True) as tape:
    tape.watch([x, xm])
    y = x * 2.0
    ym = xm * 2.0
expect_error("batch_jacobian_rank1_both", lambda: tape.batch_jacobian(y, x))
expect_error("batch_jacobian_rank1_source", lambda: tape.batch_jacobian(ym, x))
expect_error("batch_jacobian_rank1_target", lambda: tape.batch_jacobian(y, xm))
report("batch_jacobian_rank2", tape.batch_jacobian(ym, xm))

# the spectral norm's second derivative (the singular vectors move with the matrix)
m = tf.constant([[0.8, -1.2, 0.3], [0.5, 0.9, -0.4]], dtype=tf.float64)
with tf.GradientTape(persistent=True) as outer:
    outer.watch(m)
    with tf.GradientTape() as inner:
        inner.watch(m)
        s = tf.norm(tf.cos(m), ord=2, axis=[0, 1])
    g = inner.gradient(s, m)
    d = tf.reduce_sum(g * tf.constant([[1.0, -0.5, 0.25], [0.3, 0.7, -1.1]], tf.float64))
report("spectral_norm.grad", g)
report("spectral_norm.grad2", outer.gradient(d, m))
report("spectral_norm.hessian", outer.jacobian(g, m))

# divide_no_nan's gradient for the denominator divides twice, as TensorFlow's: b·b overflows
a = tf.constant([np.inf, -0.4868, -0.5084])
b = tf.constant([1.2468, -1.1691, -np.inf])
with tf.GradientTape(persistent=True) as outer:
    outer.watch([a, b])
    with tf.GradientTape() as inner:
        inner.watch([a, b])
        q = tf.math.divide_no_nan(a, b)
    ga, gb = inner.gradient(q, [a, b])
    d = tf.reduce_sum(ga * tf.constant([0.9, 0.5, 0.1])) + tf.reduce_sum(gb * tf.constant(
        [0.2, -0.7, 0.4]))
report("divide_no_nan.grad", [ga, gb])
report("divide_no_nan.grad2", outer.gradient(d, [a, b]))

# reduce_prod's second derivative beside an infinite factor: the other entries are infinite,
# not inf/inf = NaN (the entry at the infinite factor is finite, TensorFlow's NaN there is a
# documented divergence, so it is not reported)
x = tf.constant([np.inf, -0.161812103, -0.595879149], dtype=tf.float64)
with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        p = tf.reduce_prod(x)
    g = inner.gradient(p, x, output_gradients=tf.constant(0.9, tf.float64))
    d = tf.reduce_sum(g * tf.constant([0.716, 0.233, 0.141], tf.float64))
report("reduce_prod_inf.grad2_beside_inf", outer.gradient(d, x)[1:])

# sigmoid_cross_entropy_with_logits under an infinite upstream gradient: TensorFlow sums the
# gradients of the loss's three terms, so inf - inf gives NaN (not inf · (sigmoid(x) - z))
logits = tf.constant([0.0, 0.3, -2.0])
labels = tf.constant([0.0, 0.5, 1.0])
with tf.GradientTape() as tape:
    tape.watch([logits, labels])
    q = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits) / tf.constant(0.0)
report("sigmoid_xent_infinite_upstream.grad", tape.gradient(q, [logits, labels]))
