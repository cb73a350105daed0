# tf.data.Dataset.window (with flat_map, as Hands-On Machine Learning's chapter 16 cuts text
# into windows), Dataset.shard, and tf.data.experimental's names
ds = tf.data.Dataset.range(7)


def listed(windows):
    return [[int(x) for x in w] for w in windows]


report("window_shift", listed(ds.window(3, shift=2)))
report("window_shift_cardinality", ds.window(3, shift=2).cardinality())
report("window_drop_remainder", listed(ds.window(3, shift=2, drop_remainder=True)))
report("window_drop_remainder_cardinality",
       ds.window(3, shift=2, drop_remainder=True).cardinality())
report("window_default_shift", listed(ds.window(3)))
report("window_default_shift_cardinality", [ds.window(3).cardinality(),
                                            ds.window(3, drop_remainder=True).cardinality()])
report("window_stride", listed(ds.window(2, shift=1, stride=3)))
report("window_stride_drop", listed(ds.window(2, shift=1, stride=3, drop_remainder=True)))
report("window_stride_drop_cardinality",
       ds.window(2, shift=1, stride=3, drop_remainder=True).cardinality())
report("window_shift_beyond_size", listed(ds.window(2, shift=3)))
report("window_of_a_window_cardinality", next(iter(ds.window(3))).cardinality())
pairs = tf.data.Dataset.from_tensor_slices((np.arange(5), np.arange(5) * 10))
report("window_tuple", [(listed([a]), listed([b])) for a, b in pairs.window(2)])
report("window_dict", [{k: listed([v]) for k, v in e.items()}
                       for e in tf.data.Dataset.from_tensor_slices({"a": np.arange(4)}).window(3)])
report("window_infinite_cardinality", ds.repeat().window(2).cardinality())
report("window_empty", listed(ds.take(2).window(3, drop_remainder=True)))

flat = ds.window(3, shift=2, drop_remainder=True).flat_map(lambda w: w.batch(3))
report("flat_map_batches", list(flat))
report("flat_map_cardinality", flat.cardinality())
report("flat_map_tuple", list(pairs.window(2).flat_map(
    lambda a, b: tf.data.Dataset.zip((a.batch(2), b.batch(2))))))
report("flat_map_repeat", list(ds.take(3).flat_map(
    lambda x: tf.data.Dataset.from_tensors(x).repeat(2))))
text = tf.constant(np.arange(12, dtype=np.int32))
chars = tf.data.Dataset.from_tensor_slices(text).window(5, shift=1, drop_remainder=True)
chars = chars.flat_map(lambda w: w.batch(5)).batch(3).map(lambda w: (w[:, :-1], w[:, 1:]))
report("handson_char_windows", list(chars))

report("shard", list(ds.shard(3, 1)))
report("shard_cardinality", [ds.shard(3, 1).cardinality(), ds.shard(3, 0).cardinality(),
                             ds.repeat().shard(2, 0).cardinality(),
                             ds.filter(lambda x: x > 1).shard(2, 0).cardinality()])
expect_error("shard_index_too_big", lambda: ds.shard(2, 2))
expect_error("shard_index_negative", lambda: ds.shard(2, -1))
expect_error("shard_zero_shards", lambda: ds.shard(0, 0))
expect_error("window_size_zero", lambda: ds.window(0))
expect_error("window_shift_zero", lambda: ds.window(2, shift=0))
expect_error("window_stride_zero", lambda: ds.window(2, stride=0))

report("experimental_names", [tf.data.experimental.AUTOTUNE,
                              tf.data.experimental.INFINITE_CARDINALITY,
                              tf.data.experimental.UNKNOWN_CARDINALITY])
report("experimental_cardinality", tf.data.experimental.cardinality(ds))
report("experimental_autotune_prefetch", list(ds.take(2).prefetch(
    tf.data.experimental.AUTOTUNE)))
