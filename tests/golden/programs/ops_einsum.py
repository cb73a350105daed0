# tf.einsum: values and gradients of the common equations


def grads(equation, *operands):
    ts = [tf.constant(o) for o in operands]
    with tf.GradientTape() as tape:
        tape.watch(ts)
        y = tf.einsum(equation, *ts)
        loss = tf.reduce_sum(y * tf.reshape(tf.range(1.0, 1.0 + tf.cast(tf.size(y), tf.float32)), tf.shape(y)))
    return y, tape.gradient(loss, ts)


a = np.arange(6, dtype=np.float32).reshape(2, 3) / 4.0
b = np.arange(12, dtype=np.float32).reshape(3, 4) / 5.0 - 1.0
sq = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]], np.float32)
u = np.array([1.0, -2.0, 3.0], np.float32)
w = np.array([0.5, 1.5], np.float32)
batch_a = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10.0
batch_b = np.arange(16, dtype=np.float32).reshape(2, 4, 2) / 7.0 - 0.5
cases = {
    "matmul": ("ij,jk->ik", a, b),
    "matmul_implicit": ("ij,jk", a, b),
    "batch_matmul": ("bij,bjk->bik", batch_a, batch_b),
    "batch_matmul_ellipsis": ("...ij,...jk->...ik", batch_a, batch_b),
    "trace": ("ii", sq),
    "trace_explicit": ("ii->", sq),
    "diagonal": ("ii->i", sq),
    "outer": ("i,j->ij", u, w),
    "inner": ("i,i->", u, u * 2.0),
    "transpose": ("ij->ji", a),
    "sum_axis": ("ij->i", a),
    "sum_all": ("ij->", a),
    "matvec": ("ij,j->i", sq, u),
    "bilinear": ("i,ij,j->", u, sq, u),
    "broadcast_ellipsis": ("...j,jk->...k", batch_a, b.T[:4, :3].copy()),
    "hadamard": ("ij,ij->ij", a, a + 1.0),
    "uppercase": ("Bi,iJ->BJ", a, b),
}
for name, (eq, *ops) in cases.items():
    y, g = grads(eq, *ops)
    report(name + ".value", y)
    report(name + ".grads", g)

x = tf.Variable(sq)
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        y = tf.einsum("ij,jk->", x, x)
    g = inner.gradient(y, x)
    s = tf.reduce_sum(g * g)
report("second_order", outer.gradient(s, x))
with tf.GradientTape() as tape:
    y = tf.einsum("ij,jk->ik", x, x)
report("jacobian", tape.jacobian(y, x))
report("int_operands", tf.einsum("ij,jk->ik", tf.constant([[1, 2]]), tf.constant([[3], [4]])))
report("float64", tf.einsum("i,i->", tf.constant([1.0, 2.0], tf.float64), tf.constant([3.0, 4.0], tf.float64)))
expect_error("mismatched_dims", lambda: tf.einsum("ij,jk->ik", tf.ones([2, 3]), tf.ones([4, 2])))
expect_error("wrong_operand_count", lambda: tf.einsum("ij,jk->ik", tf.ones([2, 3])))
expect_error("wrong_rank", lambda: tf.einsum("ij,jk->ik", tf.ones([2, 3, 1]), tf.ones([3, 2])))
expect_error("dtype_mix", lambda: tf.einsum("i,i->", tf.ones([2]), tf.ones([2], tf.float64)))
