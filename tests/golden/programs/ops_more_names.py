# names TensorFlow code uses every day: linalg.solve, scatter_nd, add_n,
# nn.embedding_lookup, repeat, get_static_value, grad_pass_through, recompute_grad, dtypes

m = tf.Variable([[3.0, 1.0], [1.0, 2.0]])
rhs = tf.Variable([[9.0, 1.0], [8.0, 0.0]])
with tf.GradientTape() as tape:
    sol = tf.linalg.solve(m, rhs)
    loss = tf.reduce_sum(sol * tf.constant([[1.0, 2.0], [3.0, 4.0]]))
report("solve.value", sol)
report("solve.grads", tape.gradient(loss, [m, rhs]))
report("solve.adjoint", tf.linalg.solve(m, rhs, adjoint=True))
report("solve.batched", tf.linalg.solve(tf.stack([m, 2.0 * m]), tf.stack([rhs, rhs])))
report("solve.float64", tf.linalg.solve(tf.constant([[2.0]], tf.float64), tf.constant([[1.0]], tf.float64)))
expect_error("solve.vector_rhs", lambda: tf.linalg.solve(m, tf.constant([1.0, 2.0])))
expect_error("solve.singular", lambda: tf.linalg.solve(tf.constant([[1.0, 2.0], [2.0, 4.0]]), tf.constant([[1.0], [1.0]])))
expect_error("solve.not_square", lambda: tf.linalg.solve(tf.ones([2, 3]), tf.ones([2, 1])))
expect_error("solve.int", lambda: tf.linalg.solve(tf.constant([[1]]), tf.constant([[1]])))

indices = tf.constant([[4], [3], [1], [7]])
updates = tf.Variable([9.0, 10.0, 11.0, 12.0])
with tf.GradientTape() as tape:
    scattered = tf.scatter_nd(indices, updates, tf.constant([8]))
    loss = tf.reduce_sum(scattered * tf.range(8.0))
report("scatter_nd.value", scattered)
report("scatter_nd.grad", tape.gradient(loss, updates))
rows = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as tape:
    dup = tf.scatter_nd([[0], [2], [0]], tf.concat([rows, rows[:1]], axis=0), [3, 2])
    loss = tf.reduce_sum(dup * tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
report("scatter_nd.duplicates_add", dup)
report("scatter_nd.rows_grad", tape.gradient(loss, rows))
report("scatter_nd.int", tf.scatter_nd([[1, 0]], [5], [2, 2]))
expect_error("scatter_nd.out_of_range", lambda: tf.scatter_nd([[9]], [1.0], [3]))
expect_error("scatter_nd.bad_updates_shape", lambda: tf.scatter_nd([[0], [1]], [1.0], [3]))

a, b, c = tf.Variable([1.0, 2.0]), tf.Variable([3.0, 4.0]), tf.constant([5.0, 6.0])
with tf.GradientTape() as tape:
    total = tf.add_n([a, b, c, a])
    loss = tf.reduce_sum(total * tf.constant([1.0, -1.0]))
report("add_n.value", total)
report("add_n.grads", tape.gradient(loss, [a, b]))
report("add_n.one", tf.add_n([c]))
report("add_n.ints", tf.add_n([tf.constant([1, 2]), tf.constant([3, 4])]))
expect_error("add_n.empty", lambda: tf.add_n([]))
expect_error("add_n.shapes", lambda: tf.add_n([tf.ones([2]), tf.ones([3])]))
expect_error("add_n.dtypes", lambda: tf.add_n([tf.ones([2]), tf.ones([2], tf.float64)]))

table = tf.Variable([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
ids = tf.constant([[2, 0], [2, 1]])
with tf.GradientTape() as tape:
    emb = tf.nn.embedding_lookup(table, ids)
    loss = tf.reduce_sum(emb * emb)
report("embedding_lookup.value", emb)
report("embedding_lookup.grad_dense", tf.convert_to_tensor(tape.gradient(loss, table)))
expect_error("embedding_lookup.out_of_range", lambda: tf.nn.embedding_lookup(table, [5]))

r = tf.Variable([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    rep = tf.repeat(r, [1, 0, 3])
    loss = tf.reduce_sum(rep * tf.range(1.0, 5.0))
report("repeat.counts", rep)
report("repeat.grad", tape.gradient(loss, r))
grid = tf.constant([[1, 2], [3, 4]])
report("repeat.scalar", tf.repeat(grid, 2))
report("repeat.axis0", tf.repeat(grid, 2, axis=0))
report("repeat.axis1_counts", tf.repeat(grid, [2, 1], axis=1))
report("repeat.float_scalar", tf.repeat(3.0, 2))
expect_error("repeat.bad_counts", lambda: tf.repeat(grid, [1, 2, 3], axis=0))

report("get_static_value.tensor", tf.get_static_value(tf.constant([1, 2])))
report("get_static_value.scalar", tf.get_static_value(tf.constant(2.5)))
report("get_static_value.python", tf.get_static_value(3))
report("get_static_value.none", tf.get_static_value(None))
report("get_static_value.type", type(tf.get_static_value(tf.constant([1.0]))).__name__)
report("get_static_value.variable", tf.get_static_value(tf.Variable(1.0)))

x = tf.Variable(1.0, name="x")
z = tf.Variable(3.0, name="z")
with tf.GradientTape() as tape:
    y = x.assign(z ** 2)
report("grad_pass_through.assign_blocks", tape.gradient(y, z))
with tf.GradientTape() as tape:
    y = tf.grad_pass_through(x.assign)(z ** 2)
report("grad_pass_through.assign", tape.gradient(y, z))
report("grad_pass_through.value", y)
with tf.GradientTape() as tape:
    y = tf.grad_pass_through(lambda v: x * v)(z)
report("grad_pass_through.closure_variable", tape.gradient(y, x))
with tf.GradientTape() as tape:
    y = tf.grad_pass_through(lambda v: tf.round(v))(z * 1.3)
report("grad_pass_through.round", tape.gradient(y, z))


def block(h, scale):
    return tf.reduce_sum(tf.tanh(h * scale) ** 2)


checkpointed = tf.recompute_grad(block)
h = tf.constant([0.5, -1.0, 2.0])
s = tf.Variable(0.7)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(h)
    plain = block(h, s)
    again = checkpointed(h, s)
report("recompute_grad.value", [plain, again])
report("recompute_grad.grads", tape.gradient(again, [h, s]))
report("recompute_grad.same_as_plain", tape.gradient(plain, [h, s]))
dense_w = tf.Variable([[1.0, -1.0], [0.5, 2.0]])


@tf.recompute_grad
def layer(inp):
    return tf.nn.relu(tf.matmul(inp, dense_w))


with tf.GradientTape() as tape:
    out = tf.reduce_sum(layer(tf.constant([[1.0, 2.0]])))
report("recompute_grad.closure_variable", tape.gradient(out, dense_w))
first_only = tf.recompute_grad(lambda p, q: p * 2.0)
p, q = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
with tf.GradientTape() as tape:
    tape.watch([p, q])
    out = first_only(p, q)
report("recompute_grad.unused_argument", tape.gradient(out, [p, q]))

report("dtypes.names", [tf.complex64.name, tf.bfloat16.name, tf.complex128.name])
report("dtypes.flags", [tf.complex64.is_complex, tf.bfloat16.is_floating, tf.complex64.is_floating])
report("dtypes.sizes", [tf.complex64.size, tf.bfloat16.size])
report("dtypes.as_dtype", [tf.as_dtype("complex64").name, tf.as_dtype("bfloat16").name])
report("dtypes.real_dtype", tf.complex64.real_dtype.name)
