# tf.linalg.svd (wide, tall, square, batched, float64, full_matrices, compute_uv=False) and
# tf.linalg.eigh / eigvalsh, with their gradients. Singular vectors and eigenvectors are
# reported only in sign-free forms (|u|, u*u, reconstructions): TensorFlow's kernels and
# LAPACK may pick different signs for a column.
rng = np.random.RandomState(3)
wide = tf.constant(rng.normal(size=(3, 5)).astype(np.float32))
tall = tf.constant(rng.normal(size=(4, 2)).astype(np.float32))
square = tf.constant(rng.normal(size=(3, 3)).astype(np.float32))
batch = tf.constant(rng.normal(size=(2, 3, 4)))            # float64
sym = rng.normal(size=(4, 4))
sym = tf.constant((sym + sym.T).astype(np.float32))
lower_only = tf.constant(np.tril(sym.numpy()) + np.triu(np.full((4, 4), 7.0, np.float32), 1))


def sign_free(a, **kw):
    s, u, v = tf.linalg.svd(a, **kw)
    return [s, tf.abs(u), tf.abs(v), list(u.shape), list(v.shape),
            tf.matmul(u[..., :, :s.shape[-1]] * s[..., None, :], v[..., :, :s.shape[-1]],
                      transpose_b=True)]


for name, a in (("wide", wide), ("tall", tall), ("square", square), ("batch64", batch)):
    report(f"svd.{name}", sign_free(a))
    report(f"svd.{name}.values_only", tf.linalg.svd(a, compute_uv=False))
report("svd.full_wide", sign_free(wide, full_matrices=True)[3:])
report("svd.full_tall", sign_free(tall, full_matrices=True)[3:])
report("svd.dtypes", [t.dtype.name for t in tf.linalg.svd(batch)])


def grads(a, f, **kw):
    x = tf.Variable(a)
    with tf.GradientTape() as tape:
        out = f(*tf.linalg.svd(x, **kw)) if kw.get("compute_uv", True) else \
            f(tf.linalg.svd(x, **kw))
    return tape.gradient(out, x)


def weights(t):
    return tf.constant(np.linspace(0.5, 2.0, int(np.prod(t.shape))).reshape(t.shape),
                       dtype=t.dtype)


for name, a in (("wide", wide), ("tall", tall), ("square", square), ("batch64", batch)):
    report(f"svd_grad.{name}.s", grads(a, lambda s, u, v: tf.reduce_sum(s * weights(s))))
    report(f"svd_grad.{name}.u", grads(a, lambda s, u, v: tf.reduce_sum(u * u * weights(u))))
    report(f"svd_grad.{name}.v", grads(a, lambda s, u, v: tf.reduce_sum(v * v * weights(v))))
    report(f"svd_grad.{name}.values_only", grads(
        a, lambda s: tf.reduce_sum(s * weights(s)), compute_uv=False))
report("svd_grad.full_one_more_column", grads(
    square[:, :2], lambda s, u, v: tf.reduce_sum(u * u * weights(u)) + tf.reduce_sum(s),
    full_matrices=True))
expect_error("svd_grad.full_two_more_columns", lambda: grads(
    wide, lambda s, u, v: tf.reduce_sum(s), full_matrices=True))
report("svd.nan", tf.linalg.svd(tf.constant([[1.0, np.nan], [0.0, 1.0]]), compute_uv=False))
expect_error("svd.rank1", lambda: tf.linalg.svd(tf.constant([1.0, 2.0])))
expect_error("svd.int", lambda: tf.linalg.svd(tf.constant([[1, 2], [3, 4]])))

e, v = tf.linalg.eigh(sym)
report("eigh.values", e)
report("eigh.abs_vectors", tf.abs(v))
report("eigh.reconstruction", tf.matmul(v * e[None, :], v, transpose_b=True))
report("eigvalsh", tf.linalg.eigvalsh(sym))
report("eigh.lower_triangle_only", tf.linalg.eigvalsh(lower_only))
report("eigh.batch64", tf.linalg.eigvalsh(tf.constant(np.stack([sym.numpy(), -sym.numpy()]),
                                                      tf.float64)))
for name, a in (("sym", sym), ("lower_only", lower_only)):
    x = tf.Variable(a)
    with tf.GradientTape(persistent=True) as tape:
        e, v = tf.linalg.eigh(x)
        by_values = tf.reduce_sum(e * weights(e))
        by_vectors = tf.reduce_sum(v * v * weights(v))
        values_only = tf.reduce_sum(tf.linalg.eigvalsh(x) * weights(e))
    report(f"eigh_grad.{name}.values", tape.gradient(by_values, x))
    report(f"eigh_grad.{name}.vectors", tape.gradient(by_vectors, x))
    report(f"eigh_grad.{name}.eigvalsh", tape.gradient(values_only, x))
expect_error("eigh.not_square", lambda: tf.linalg.eigh(tf.ones((2, 3))))
expect_error("eigh.rank1", lambda: tf.linalg.eigh(tf.ones((3,))))
expect_error("eigh.nan", lambda: tf.linalg.eigh(tf.constant([[1.0, 0.0], [np.nan, 1.0]])))
expect_error("eigh.int", lambda: tf.linalg.eigvalsh(tf.ones((2, 2), tf.int32)))
