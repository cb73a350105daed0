# tf.data: Dataset.from_generator (signatures, args, TensorFlow's errors at iteration),
# interleave (TensorFlow's cycle and block order), padded_batch, apply, take_while, scan,
# get_single_element, their cardinalities, and tf.errors' codes


def elements(ds):
    return [e for e in ds]


def ragged():
    for i in range(3):
        yield i, [float(i)] * (i + 1)


signature = (tf.TensorSpec((), tf.int32), tf.TensorSpec((None,), tf.float32))
gen = tf.data.Dataset.from_generator(ragged, output_signature=signature)
report("from_generator.signature", elements(gen))
report("from_generator.twice", elements(gen))
report("from_generator.cardinality", gen.cardinality())
report("from_generator.types", elements(tf.data.Dataset.from_generator(
    ragged, output_types=(tf.int64, tf.float64))))
report("from_generator.types_shapes", elements(tf.data.Dataset.from_generator(
    lambda: iter([[1, 2], [3, 4]]), output_types=tf.int32, output_shapes=[2])))
report("from_generator.scalar", elements(tf.data.Dataset.from_generator(
    lambda: iter([1, 2]), output_types=tf.float32)))
report("from_generator.truncates", elements(tf.data.Dataset.from_generator(
    lambda: iter([1.5, -2.5]), output_signature=tf.TensorSpec((), tf.int32))))
report("from_generator.args", elements(tf.data.Dataset.from_generator(
    lambda n: iter(range(n)), args=(3,), output_signature=tf.TensorSpec((), tf.int64))))
report("from_generator.dict", elements(tf.data.Dataset.from_generator(
    lambda: iter([{"a": 1, "b": [0.5, 1.5]}]),
    output_signature={"a": tf.TensorSpec((), tf.int32), "b": tf.TensorSpec((2,), tf.float32)})))
report("from_generator.batched", elements(tf.data.Dataset.from_generator(
    lambda: iter(range(5)), output_signature=tf.TensorSpec((), tf.int32)).batch(2)))
expect_error("from_generator.shape", lambda: elements(tf.data.Dataset.from_generator(
    lambda: iter([[1, 2], [3]]), output_types=tf.int32, output_shapes=[2])))
expect_error("from_generator.type", lambda: elements(tf.data.Dataset.from_generator(
    lambda: iter(["a"]), output_signature=tf.TensorSpec((), tf.int32))))
expect_error("from_generator.structure", lambda: elements(tf.data.Dataset.from_generator(
    lambda: iter([1]), output_signature=signature)))
expect_error("from_generator.no_signature", lambda: tf.data.Dataset.from_generator(ragged))

report("interleave.repeat", elements(tf.data.Dataset.range(3).interleave(
    lambda x: tf.data.Dataset.from_tensors(x).repeat(2), cycle_length=2, block_length=1)))
report("interleave.blocks", elements(tf.data.Dataset.range(1, 4).interleave(
    lambda x: tf.data.Dataset.range(x), cycle_length=2, block_length=2)))
# (cycle_length given: TensorFlow's default is the machine's number of cores)
report("interleave.refill", elements(tf.data.Dataset.range(1, 6).interleave(
    lambda x: tf.data.Dataset.range(x), cycle_length=2)))
report("interleave.wide", elements(tf.data.Dataset.range(1, 4).interleave(
    lambda x: tf.data.Dataset.range(10 * x, 10 * x + 3), cycle_length=5, block_length=2)))
report("interleave.tuple", elements(tf.data.Dataset.from_tensor_slices(([1, 2], [10, 20]))
                                    .interleave(lambda a, b: tf.data.Dataset.from_tensors(a + b),
                                                cycle_length=1)))
report("interleave.cardinality", tf.data.Dataset.range(4).interleave(
    lambda x: tf.data.Dataset.range(x), cycle_length=2).cardinality())

seqs = tf.data.Dataset.range(1, 4).map(lambda x: tf.fill([x], x))
report("padded_batch.longest", elements(seqs.padded_batch(2)))
report("padded_batch.shape_value", elements(seqs.padded_batch(
    2, padded_shapes=[4], padding_values=tf.constant(-1, tf.int64), drop_remainder=True)))
report("padded_batch.tuple", elements(tf.data.Dataset.range(1, 4).map(
    lambda x: (tf.fill([x], x), x)).padded_batch(2)))
report("padded_batch.tuple_shapes", elements(tf.data.Dataset.range(1, 4).map(
    lambda x: (tf.fill([x], tf.cast(x, tf.float32)), x)).padded_batch(
        3, padded_shapes=([None], []), padding_values=(0.5, tf.constant(0, tf.int64)))))
report("padded_batch.matrix", elements(tf.data.Dataset.range(1, 3).map(
    lambda x: tf.ones([x, 3 - x])).padded_batch(2)))
report("padded_batch.cardinality", seqs.padded_batch(2).cardinality())
expect_error("padded_batch.too_small", lambda: elements(seqs.padded_batch(2, padded_shapes=[2])))

report("apply", elements(tf.data.Dataset.range(4).apply(lambda d: d.skip(2))))
report("take_while", elements(tf.data.Dataset.range(10).take_while(lambda x: x < 3)))
report("take_while.cardinality", tf.data.Dataset.range(10).take_while(lambda x: x < 3)
       .cardinality())
report("scan", elements(tf.data.Dataset.range(4).scan(
    tf.constant(0, tf.int64), lambda s, x: (s + x, s * 10))))
report("scan.cardinality", tf.data.Dataset.range(10).scan(0, lambda s, x: (s, x)).cardinality())
report("get_single_element", tf.data.Dataset.range(1).get_single_element())
report("get_single_element.experimental", tf.data.experimental.get_single_element(
    tf.data.Dataset.from_tensors({"a": 1.0})))
expect_error("get_single_element.two", lambda: tf.data.Dataset.range(2).get_single_element())
expect_error("get_single_element.empty", lambda: tf.data.Dataset.range(0).get_single_element())

report("errors.codes", [tf.errors.OK, tf.errors.CANCELLED, tf.errors.INVALID_ARGUMENT,
                        tf.errors.NOT_FOUND, tf.errors.OUT_OF_RANGE, tf.errors.DATA_LOSS,
                        tf.errors.UNAUTHENTICATED])
report("errors.classes", [issubclass(getattr(tf.errors, n), tf.errors.OpError) for n in (
    "DataLossError", "AbortedError", "CancelledError", "UnknownError", "InternalError",
    "UnavailableError", "AlreadyExistsError", "PermissionDeniedError",
    "DeadlineExceededError", "UnauthenticatedError")])
