# tf.boolean_mask (values, gradients, axis=, non-bool masks, errors) and a dtype given as
# TensorFlow's DataType enum number (tf.zeros(shape, 1) is float32)


def vg(name, f, x):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    report(name, y)
    g = tape.gradient(y, x)
    report(name + ".grad", None if g is None else tf.convert_to_tensor(g))


M = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
C = [[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]
vg("rows", lambda x: tf.boolean_mask(x, [True, False]), M)
vg("rows_squared", lambda x: tf.boolean_mask(x, [False, True]) ** 2, M)
vg("elements", lambda x: tf.boolean_mask(x, [[True, False, True], [False, True, True]]) * 3.0,
   M)
vg("axis1", lambda x: tf.boolean_mask(x, [True, False, True], axis=1), M)
vg("axis_minus_2", lambda x: tf.boolean_mask(x, [False, True], axis=-2), M)
vg("cube_axis1_2d_mask", lambda x: tf.boolean_mask(x, [[True, False], [True, True]], axis=1), C)
vg("none_true", lambda x: tf.boolean_mask(x, [False, False]), M)
vg("float_mask_one_hot", lambda x: tf.boolean_mask(x, tf.one_hot([2, 0], depth=3)), M)
vg("int_mask", lambda x: tf.boolean_mask(x, [1, 0]), M)
vg("log_of_picked", lambda x: -tf.math.log(tf.boolean_mask(x, tf.one_hot([1, 2], depth=3))),
   [[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
report("int_tensor", tf.boolean_mask(tf.constant([[1, 2], [3, 4]]), [True, False]))
report("mask_tensor", tf.boolean_mask(tf.constant([5.0, 6.0, 7.0]),
                                      tf.constant([7.0, 6.0, 8.0]) > 6.5))
expect_error("mask_short", lambda: tf.boolean_mask(tf.constant(M), [True]))
expect_error("mask_wrong_2d", lambda: tf.boolean_mask(tf.constant(M), [[True]]))
expect_error("axis_minus_1", lambda: tf.boolean_mask(tf.constant(M), [True, False, True],
                                                     axis=-1))
expect_error("mask_scalar", lambda: tf.boolean_mask(tf.constant(M), tf.constant(True)))

report("zeros_enum_1", tf.zeros([2], 1))
report("zeros_tuple_enum_1", tf.zeros((3), 1))
report("ones_enum_3", tf.ones([2], 3))
report("zeros_enum_9", tf.zeros([2], 9))
report("ones_enum_2", tf.ones([1, 2], 2))
report("ones_enum_10", tf.ones([2], 10))
report("constant_enum_2", tf.constant([1, 2], 2))
report("cast_enum_3", tf.cast(tf.constant([1.7, -2.2]), 3))
report("as_dtype_names", [tf.as_dtype(n).name for n in (1, 2, 3, 4, 5, 6, 9, 10, 19)])
report("dtype_equals_enum", [tf.float32 == 1, tf.float32 == 3, tf.int64 == 9])
expect_error("as_dtype_0", lambda: tf.as_dtype(0))
expect_error("as_dtype_99", lambda: tf.as_dtype(99))
expect_error("zeros_enum_0", lambda: tf.zeros([2], 0))
