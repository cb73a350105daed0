# tf.dynamic_partition, tf.dynamic_stitch (values, gradients, errors), tf.math.confusion_matrix,
# tf.image.resize_with_pad, tf.autograph's switches and tf.config's older eager switch

report("dynamic_partition.vector", tf.dynamic_partition([10, 20, 30, 40], [0, 1, 0, 2], 3))
report("dynamic_partition.rows", tf.dynamic_partition([[1, 2], [3, 4]], [1, 0], 2))
report("dynamic_partition.matrix_partitions", tf.dynamic_partition(
    tf.reshape(tf.range(12), [2, 3, 2]), [[0, 1, 0], [1, 1, 0]], 2))
report("dynamic_partition.empty_part", tf.dynamic_partition([1.0, 2.0], [0, 0], 2))
expect_error("dynamic_partition.out_of_range", lambda: tf.dynamic_partition([10, 20], [0, 3], 2))
x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    parts = tf.dynamic_partition(x, [1, 0, 1], 2)
    y = tf.reduce_sum(parts[1] * [5.0, 7.0]) + tf.reduce_sum(parts[0])
report("dynamic_partition.grad", tape.gradient(y, x))

report("dynamic_stitch", tf.dynamic_stitch([[0, 2], [1]], [[10.0, 30.0], [20.0]]))
report("dynamic_stitch.repeat_last_wins", tf.dynamic_stitch([[0, 1], [1]], [[10.0, 30.0], [20.0]]))
report("dynamic_stitch.gap_zero", tf.dynamic_stitch([[0, 3]], [[1.0, 2.0]]))
report("dynamic_stitch.rows", tf.dynamic_stitch([[1], [0]], [[[1, 2]], [[3, 4]]]))
with tf.GradientTape() as tape:
    tape.watch(x)
    z = tf.dynamic_stitch([[2, 0], [1]], [x[:2] * 2, x[2:]])
    y = tf.reduce_sum(z * [1.0, 10.0, 100.0])
report("dynamic_stitch.grad", [z, tape.gradient(y, x)])
parts = tf.dynamic_partition(tf.constant([5.0, 6.0, 7.0, 8.0]), [1, 0, 1, 0], 2)
positions = tf.dynamic_partition(tf.range(4), [1, 0, 1, 0], 2)
report("partition_then_stitch", tf.dynamic_stitch(positions, parts))

report("confusion_matrix", tf.math.confusion_matrix([1, 2, 4], [2, 2, 4]))
report("confusion_matrix.num_classes_dtype", tf.math.confusion_matrix(
    [1, 2], [2, 2], num_classes=3, dtype=tf.float32))
report("confusion_matrix.weights", tf.math.confusion_matrix([1, 2], [2, 2], weights=[0.5, 2.0]))
report("confusion_matrix.tensors", tf.math.confusion_matrix(tf.constant([0, 1, 1]),
                                                            tf.constant([0, 0, 1], tf.int64)))
expect_error("confusion_matrix.out_of_bound", lambda: tf.math.confusion_matrix(
    [1, 2], [2, 2], num_classes=2))
expect_error("confusion_matrix.negative", lambda: tf.math.confusion_matrix([1, -1], [2, 2]))

img = tf.reshape(tf.range(2 * 4 * 1, dtype=tf.float32), [2, 4, 1])
report("resize_with_pad.square", tf.image.resize_with_pad(img, 4, 4))
report("resize_with_pad.nearest", tf.image.resize_with_pad(img, 3, 6, method="nearest"))
report("resize_with_pad.batch", tf.image.resize_with_pad(tf.ones([2, 3, 5, 2]), 5, 5))

report("autograph.do_not_convert", tf.autograph.experimental.do_not_convert(lambda a: a + 1)(1))


@tf.autograph.experimental.do_not_convert
def plus_two(a):
    return a + 2


report("autograph.decorator", plus_two(1))
report("autograph.set_verbosity", tf.autograph.set_verbosity(0))
report("config.experimental_run_functions_eagerly",
       [tf.config.experimental_run_functions_eagerly(True),
        tf.config.experimental_functions_run_eagerly(), tf.config.functions_run_eagerly()])
tf.config.run_functions_eagerly(False)
