# tf.keras.utils.timeseries_dataset_from_array as TensorFlow's time-series tutorial feeds
# its WindowGenerator: windows with and without targets, sequence_stride, sampling_rate,
# start_index/end_index, batch_size None; Tensor.set_shape as the tutorial's split_window
# uses it, and the error for an incompatible shape.
data = np.arange(20, dtype=np.float32).reshape(10, 2)
ds = tf.keras.utils.timeseries_dataset_from_array(data, None, sequence_length=3, batch_size=4)
report("windows", [b for b in ds])
ds = tf.keras.preprocessing.timeseries_dataset_from_array(
    data, np.arange(10) * 10, sequence_length=2, sequence_stride=2, sampling_rate=2,
    batch_size=2)
report("with_targets", [list(b) for b in ds])
ds = tf.keras.utils.timeseries_dataset_from_array(data[:, 0], None, sequence_length=4,
                                                  start_index=2, end_index=9, batch_size=None)
report("range_unbatched", [w for w in ds])
report("cardinality", int(tf.keras.utils.timeseries_dataset_from_array(
    data, None, sequence_length=3, batch_size=3).cardinality()))
t = tf.constant(data)[:, 1:]
t.set_shape([None, 1])
report("set_shape", t.shape.as_list())
expect_error("set_shape_incompatible", lambda: t.set_shape([None, 2]))
expect_error("bad_sampling_rate", lambda: tf.keras.utils.timeseries_dataset_from_array(
    data, None, sequence_length=2, sampling_rate=0))
