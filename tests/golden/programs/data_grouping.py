# Dataset.group_by_window and bucket_by_sequence_length (methods and tf.data.experimental
# transformations): the order windows come out in, flushing at the end by key, per-key window
# sizes, padding, no_padding, drop_remainder and padding values
def items(ds):
    out = []
    for e in ds:
        out.append([t.numpy().tolist() for t in e] if isinstance(e, tuple) else e.numpy().tolist())
    return out


ds = tf.data.Dataset.range(10)
report("group.batches", items(ds.group_by_window(lambda x: x % 3, lambda k, w: w.batch(2),
                                                 window_size=2)))
report("group.key_in_reduce", items(ds.group_by_window(
    lambda x: x % 2, lambda k, w: w.map(lambda v: v * 10 + k), window_size=3)))
report("group.size_func", items(tf.data.Dataset.range(12).group_by_window(
    lambda x: x % 2, lambda k, w: w.batch(5), window_size_func=lambda k: k + 2)))
report("group.experimental", items(ds.apply(tf.data.experimental.group_by_window(
    lambda x: 2 - x % 3, lambda k, w: w.batch(10), window_size=4))))
expect_error("group.both_sizes", lambda: ds.group_by_window(
    lambda x: x % 2, lambda k, w: w, window_size=2, window_size_func=lambda k: 2))

seqs = [[1], [1, 2, 3], [1, 2], [5, 6, 7, 8], [9], [1, 2, 3, 4, 5], [4, 4], [7, 7, 7]]
tokens = tf.data.Dataset.from_generator(lambda: iter(seqs), output_signature=tf.TensorSpec(
    [None], tf.int32))
length = lambda x: tf.shape(x)[0]  # noqa: E731
report("bucket.default", items(tokens.bucket_by_sequence_length(length, [2, 4], [2, 2, 2])))
report("bucket.batch_sizes", items(tokens.bucket_by_sequence_length(length, [3], [3, 2])))
report("bucket.padding_value", items(tokens.bucket_by_sequence_length(
    length, [3], [2, 2], padding_values=-1)))
report("bucket.drop_remainder", items(tokens.bucket_by_sequence_length(
    length, [2, 4], [2, 2, 2], drop_remainder=True)))
report("bucket.padded_shapes", items(tokens.bucket_by_sequence_length(
    length, [3], [2, 4], padded_shapes=[6])))
pairs = tf.data.Dataset.from_generator(lambda: ((s, len(s)) for s in seqs), output_signature=(
    tf.TensorSpec([None], tf.int32), tf.TensorSpec([], tf.int32)))
report("bucket.tuples", items(pairs.bucket_by_sequence_length(
    lambda x, n: n, [3], [2, 3])))
report("bucket.experimental", items(tokens.apply(
    tf.data.experimental.bucket_by_sequence_length(length, [4], [3, 3]))))
same = tf.data.Dataset.from_tensor_slices(np.arange(12).reshape(6, 2))
report("bucket.no_padding", items(same.bucket_by_sequence_length(
    lambda x: tf.cast(x[0] % 4, tf.int32), [2], [2, 3], no_padding=True)))
