# tf.io.serialize_tensor / tf.io.parse_tensor: TensorProto bytes of numeric, bool, string,
# scalar and empty tensors, the round trip, and parse_tensor's errors
tensors = {"float32_matrix": tf.constant([[1.0, 2.0], [3.0, 4.0]]), "int32_scalar": tf.constant(5),
           "int64_empty": tf.constant([], tf.int64), "strings": tf.constant(["ab", "c"]),
           "bool": tf.constant([True, False]), "float64_scalar": tf.constant(1.5, tf.float64),
           "uint8": tf.constant([1, 2], tf.uint8), "int16_3d": tf.constant(
               np.arange(-6, 6, dtype=np.int16).reshape(2, 3, 2)),
           "float16": tf.constant([0.5, -2.0], tf.float16)}
for name, t in tensors.items():
    data = tf.io.serialize_tensor(t)
    report(f"serialize.{name}", data.numpy().hex())
    report(f"roundtrip.{name}", tf.io.parse_tensor(data, t.dtype))
report("serialize.dtype_shape", [tf.io.serialize_tensor(tf.ones((2,))).dtype.name,
                                 list(tf.io.serialize_tensor(tf.ones((2,))).shape)])
report("parse.python_bytes", tf.io.parse_tensor(
    tf.io.serialize_tensor(tf.constant([7, 8])).numpy(), tf.int32))
mapped = tf.data.Dataset.from_tensor_slices(
    [tf.io.serialize_tensor(tf.constant([1.0, 2.0])), tf.io.serialize_tensor(tf.constant(
        [3.0, 4.0]))]).map(lambda s: tf.io.parse_tensor(s, tf.float32))
report("parse.in_map", list(mapped))
expect_error("parse.wrong_type", lambda: tf.io.parse_tensor(
    tf.io.serialize_tensor(tf.constant([1.0])), tf.int32))
expect_error("parse.garbage", lambda: tf.io.parse_tensor(b"garbage", tf.int32))
