# tf.SparseTensor and tf.sparse: to_dense (TensorFlow's index checks), from_dense, reorder,
# transpose, sparse_dense_matmul, reduce_sum, add; gradients to the values and the dense
# operand; printing and construction errors

def parts(s):
    """(The golden format reads an object with .values as IndexedSlices: report the parts.)"""
    return [s.indices, s.values, s.dense_shape]


st = tf.SparseTensor(indices=[[0, 1], [1, 2]], values=[3.0, 4.0], dense_shape=[2, 3])
report("repr", repr(st))
report("attributes", [st.dtype.name, list(st.shape), st.indices.dtype.name,
                      st.dense_shape, list(st.get_shape()), st.values])
report("to_dense", tf.sparse.to_dense(st))
report("to_dense.default", tf.sparse.to_dense(st, default_value=-1.0))
report("to_dense.vector_int", tf.sparse.to_dense(tf.sparse.SparseTensor([[0], [2]], [1, 2], [4])))
unordered = tf.SparseTensor([[1, 0], [0, 0]], [1.0, 2.0], [2, 2])
expect_error("to_dense.unordered", lambda: tf.sparse.to_dense(unordered))
report("to_dense.unvalidated", tf.sparse.to_dense(unordered, validate_indices=False))
report("reorder", parts(tf.sparse.reorder(unordered)))
report("reorder.to_dense", tf.sparse.to_dense(tf.sparse.reorder(unordered)))
expect_error("to_dense.repeated", lambda: tf.sparse.to_dense(
    tf.SparseTensor([[0, 0], [0, 0]], [1.0, 2.0], [2, 2])))
expect_error("to_dense.out_of_bounds", lambda: tf.sparse.to_dense(
    tf.SparseTensor([[0, 5]], [1.0], [2, 2])))
expect_error("new.indices_vector", lambda: tf.SparseTensor([0, 1], [1.0], [2, 2]))
expect_error("new.values_count", lambda: tf.SparseTensor([[0, 1]], [1.0, 2.0], [2, 2]))
expect_error("new.shape_rank", lambda: tf.SparseTensor([[0, 1]], [1.0], [2, 2, 2]))
expect_error("new.float_indices", lambda: tf.SparseTensor([[0.5, 1]], [1.0], [2, 2]))

report("from_dense", parts(tf.sparse.from_dense([[0.0, 2.0], [3.0, 0.0]])))
report("from_dense.int", parts(tf.sparse.from_dense(tf.constant([0, 5, 0, 7]))))
report("transpose", parts(tf.sparse.transpose(st)))
b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
report("sparse_dense_matmul", tf.sparse.sparse_dense_matmul(st, b))
report("sparse_dense_matmul.adjoint_b", tf.sparse.sparse_dense_matmul(
    st, tf.transpose(b), adjoint_b=True))
report("sparse_dense_matmul.adjoint_a", tf.sparse.sparse_dense_matmul(
    st, tf.ones([2, 2]), adjoint_a=True))
expect_error("sparse_dense_matmul.inner", lambda: tf.sparse.sparse_dense_matmul(
    st, tf.ones([2, 2])))
report("reduce_sum.all", tf.sparse.reduce_sum(st))
report("reduce_sum.axis1", tf.sparse.reduce_sum(st, axis=1))
report("reduce_sum.keepdims", tf.sparse.reduce_sum(st, axis=0, keepdims=True))
report("add.dense", tf.sparse.add(st, tf.ones([2, 3])))
report("mul.scalar", tf.sparse.to_dense(st * 2.0))
report("mul.dense", tf.sparse.to_dense(st * tf.constant([[1.0, 10.0, 100.0],
                                                          [2.0, 20.0, 200.0]])))

v = tf.constant([3.0, 4.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch([v, b])
    s = tf.SparseTensor([[0, 1], [1, 2]], v, [2, 3])
    y = tf.reduce_sum(tf.sparse.sparse_dense_matmul(s, b) ** 2)
    z = tf.reduce_sum(tf.sparse.to_dense(s) * tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
report("grad.matmul", tape.gradient(y, [v, b]))
report("grad.to_dense", tape.gradient(z, v))
