# Comparing an int tensor with a float: TensorFlow converts a comparison's other operand to
# the tensor's dtype, so a Python float (or list of them, or a string) is a TypeError for
# ==, !=, <, tf.equal, tf.math.greater ... (`==` no longer answers False), a float tensor an
# InvalidArgumentError, while a NumPy float is cast (2.5 becomes 2). `==` still answers
# False for None and for shapes that do not broadcast.

a = tf.constant([1, 2])
for name, fn in [("eq", lambda: a == 2.0), ("ne", lambda: a != 2.0), ("eq_half", lambda: a == 2.5),
                 ("lt", lambda: a < 2.0), ("le", lambda: a <= 2.0), ("gt", lambda: a > 1.5),
                 ("ge", lambda: a >= 1.5), ("reflected_eq", lambda: 2.0 == a),
                 ("reflected_lt", lambda: 2.0 < a), ("equal", lambda: tf.equal(a, 2.0)),
                 ("equal_first", lambda: tf.equal(2.0, a)),
                 ("not_equal", lambda: tf.not_equal(a, 2.0)),
                 ("greater", lambda: tf.math.greater(a, 1.5)),
                 ("greater_whole", lambda: tf.math.greater(a, 1.0)),
                 ("less", lambda: tf.math.less(a, 2.0)),
                 ("greater_equal", lambda: tf.math.greater_equal(a, 2.0)),
                 ("less_equal", lambda: tf.math.less_equal(a, 2.0)),
                 ("eq_float_list", lambda: a == [1.0, 2.0]),
                 ("equal_float_list", lambda: tf.equal(a, [1.0, 2.0])),
                 ("eq_string", lambda: a == "a"), ("equal_string", lambda: tf.equal(a, "a")),
                 ("float_eq_string", lambda: tf.constant([1.0]) == "a"),
                 ("eq_complex", lambda: a == 1 + 2j),
                 ("int64_eq", lambda: tf.constant([1, 2], tf.int64) == 2.0),
                 ("uint8_eq", lambda: tf.constant([1, 2], tf.uint8) == 2.0),
                 ("bool_eq", lambda: tf.constant([True]) == 1.0),
                 ("variable_eq", lambda: tf.Variable([1, 2]) == 2.0),
                 ("variable_lt", lambda: tf.Variable([1, 2]) < 2.0),
                 ("scalar_eq", lambda: tf.constant(2) == 2.0),
                 ("eq_float_tensor", lambda: a == tf.constant(2.0)),
                 ("lt_float_tensor", lambda: a < tf.constant(2.0)),
                 ("equal_float_tensor", lambda: tf.equal(a, tf.constant(2.0))),
                 ("eq_float64_tensor", lambda: tf.constant([1.0]) == tf.constant([1.0], tf.float64)),
                 ("equal_shapes", lambda: tf.equal(a, tf.constant([1, 2, 3]))),
                 ("eq_mixed_list", lambda: tf.constant([1.0]) == [1, "a"])]:
    expect_error(name, fn)
report("numpy_floats_cast", [a == np.float64(2.5), a < np.float64(2.5), a == np.float32(2.0),
                             tf.equal(a, np.float32(1.5)), a == np.array([1.5, 2.0]),
                             a > np.array([0.5, 2.9], np.float32)])
report("still_fine", [a == 2, a != 2, a < 2, tf.equal(a, 2), tf.constant([1.0]) < 2,
                      tf.constant([1.0, 2.0]) == 2, a == np.int64(2), a == True,
                      a == 10000000000, a < 10000000000])
report("unequal_not_raising", [a == None, a != None, a == tf.constant([1, 2, 3]),
                               a != tf.constant([1, 2, 3])])
