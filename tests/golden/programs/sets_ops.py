# tf.sets.union / intersection / difference / size on dense and sparse operands (rows of the
# last axis as sets, sorted results as SparseTensors), string sets, and their errors
a = tf.constant([[2, 3, 5, 7], [7, 8, 0, 0]])
b = tf.constant([[4, 5, 6, 7], [8, 9, 0, 0]])


def sparse_parts(sp):
    return [sp.indices, sp.values, sp.dense_shape]


report("union", sparse_parts(tf.sets.union(a, b)))
report("intersection", sparse_parts(tf.sets.intersection(a, b)))
report("difference", sparse_parts(tf.sets.difference(a, b)))
report("difference.b_minus_a", sparse_parts(tf.sets.difference(a, b, aminusb=False)))
report("difference.dense", tf.sparse.to_dense(tf.sets.difference(a, b)))
sa = tf.sparse.from_dense(a)
report("intersection.sparse_dense", sparse_parts(tf.sets.intersection(sa, b)))
report("difference.sparse_dense", sparse_parts(tf.sets.difference(sa, b)))
report("union.sparse_sparse", sparse_parts(tf.sets.union(sa, tf.sparse.from_dense(b))))
report("size.sparse", tf.sets.size(sa))
report("size.of_intersection", tf.sets.size(tf.sets.intersection(a[:1], tf.constant(
    [[5, 0, 0, 0]]))) > 0)
report("rank3", sparse_parts(tf.sets.intersection(tf.constant([[[1, 2], [3, 3]]]),
                                                  tf.constant([[[2, 2], [3, 1]]]))))
report("int64", sparse_parts(tf.sets.union(tf.constant([[1, 2]], tf.int64),
                                           tf.constant([[3]], tf.int64))))
report("empty_result", sparse_parts(tf.sets.intersection(tf.constant([[1]]),
                                                         tf.constant([[2]]))))
strings = tf.sets.union(tf.constant([["b", "a"]]), tf.constant([["c", "a"]]))
report("strings", [strings.indices, [v.decode() for v in strings.values.numpy()],
                   strings.dense_shape, strings.values.dtype.name])
expect_error("size.dense", lambda: tf.sets.size(a))
expect_error("float", lambda: tf.sets.union(tf.constant([[1.0, 2.0]]), tf.constant([[2.0]])))
expect_error("rank1", lambda: tf.sets.union(tf.constant([1, 2]), tf.constant([2, 3])))
expect_error("mismatched_batch", lambda: tf.sets.union(a, tf.constant([[1, 2]])))
expect_error("dtype_mix", lambda: tf.sets.union(tf.constant([[1, 2]], tf.int64),
                                                tf.constant([[3]], tf.int32)))
