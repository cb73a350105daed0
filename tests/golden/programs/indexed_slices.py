# tf.IndexedSlices: what a gather from a variable or a watched tensor gives as its gradient,
# and what the rest of TensorFlow does with one


def parts(g):
    if not isinstance(g, tf.IndexedSlices):
        return ["dense", g]
    return [g.values, g.indices, g.dense_shape, g.dtype.name, list(g.shape)]


v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
with tf.GradientTape(persistent=True) as t:
    one = tf.reduce_sum(tf.gather(v, [0, 2, 0]) * tf.constant([[1.0], [2.0], [3.0]]))
    mixed = tf.reduce_sum(tf.gather(v, [1])) + tf.reduce_sum(v)
    two = tf.reduce_sum(tf.gather(v, [1])) + 2.0 * tf.reduce_sum(tf.gather(v, [2, 2]))
    other_axis = tf.reduce_sum(tf.gather(v, [1], axis=1))
    rows2d = tf.reduce_sum(tf.nn.embedding_lookup(v, [[1, 2]]))
    sliced = tf.reduce_sum(v[1])
    through_identity = tf.reduce_sum(tf.gather(tf.identity(v), [2, 0]))
    identity_and_dense = tf.reduce_sum(tf.gather(tf.identity(v), [2])) + tf.reduce_sum(tf.identity(v))
g = t.gradient(one, v)
report("gather.parts", parts(g))
report("gather.dense", tf.convert_to_tensor(g))
report("mixed_with_dense", parts(t.gradient(mixed, v)))
report("two_gathers.parts", parts(t.gradient(two, v)))
report("two_gathers.dense", tf.convert_to_tensor(t.gradient(two, v)))
report("gather_axis_1", parts(t.gradient(other_axis, v)))
report("embedding_lookup_2d_ids", parts(t.gradient(rows2d, v)))
report("strided_slice", parts(t.gradient(sliced, v)))
report("through_identity", parts(t.gradient(through_identity, v)))
report("identity_and_dense", parts(t.gradient(identity_and_dense, v)))
c = tf.constant([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as t:
    t.watch(c)
    y = tf.reduce_sum(tf.gather(c, [1, 1]))
report("watched_tensor", parts(t.gradient(y, c)))
report("is_tensor", tf.is_tensor(g))
report("negation", parts(-g))
report("tf_multiply", tf.multiply(g, 0.5))
report("reduce_sum", tf.reduce_sum(g))
report("norm", tf.norm(g))
report("add_n", tf.add_n([g, g]))
report("tensor_times", tf.constant(0.5) * g)
report("tf_multiply_tensor_first", tf.multiply(tf.ones([3, 2]), g))
report("stack", tf.stack([g, tf.ones([3, 2])]))
expect_error("python_times", lambda: 0.5 * g)
expect_error("times_python", lambda: g * 0.5)
expect_error("numpy", lambda: g.numpy())
report("clip_by_norm", parts(tf.clip_by_norm(g, 1.0)))
clipped, norm = tf.clip_by_global_norm([g, tf.constant([3.0, 4.0])], 2.0)
report("clip_by_global_norm", [parts(clipped[0]), clipped[1], norm])
report("global_norm", tf.linalg.global_norm([g]))
made = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), tf.constant([3, 2]))
report("constructed", parts(made))
report("constructed.dense", tf.convert_to_tensor(made))
expect_error("no_dense_shape", lambda: tf.convert_to_tensor(tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]))))
w = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
w.assign_sub(g)
report("assign_sub", w)
for name, opt in (("sgd", tf.keras.optimizers.SGD(0.1)), ("adam", tf.keras.optimizers.Adam(0.1)),
                  ("rmsprop", tf.keras.optimizers.RMSprop(0.1))):
    table = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    for step in range(2):
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(tf.gather(table, [0, 2, 0]) ** 2)
        opt.apply_gradients([(t.gradient(loss, table), table)])
    report("optimizer." + name, table)
