# tf.nest: flatten (dicts by sorted key, None and scalars as leaves), pack_sequence_as,
# map_structure over one and several structures, is_nested, assert_same_structure, and the
# errors for structures that differ or flat lists of the wrong length.
import collections

Point = collections.namedtuple("Point", ["x", "y"])
t = tf.constant([1.0, 2.0])
s = {"b": [1, (2, 3)], "a": Point(4, 5), "c": None}
report("flatten", tf.nest.flatten(s))
report("flatten_leaf", [tf.nest.flatten(7), tf.nest.flatten(None), len(tf.nest.flatten(t))])
packed = tf.nest.pack_sequence_as(s, list(range(10, 16)))
report("pack", [packed["a"].x, packed["a"].y, type(packed["a"]).__name__, packed["b"],
                type(packed["b"][1]).__name__, packed["c"]])
report("map_one", tf.nest.map_structure(lambda v: v * 2, [1, (2, {"k": 3})]))
report("map_two", tf.nest.map_structure(lambda a, b: a + b, (1, [2, 3]), (10, [20, 30])))
report("map_tensors", tf.nest.map_structure(tf.square, (t, [t * 2])))
report("is_nested", [tf.nest.is_nested([1]), tf.nest.is_nested((1,)), tf.nest.is_nested({}),
                     tf.nest.is_nested(1), tf.nest.is_nested(t), tf.nest.is_nested(None)])
tf.nest.assert_same_structure((1, [2, 3]), ("a", ["b", "c"]))
expect_error("assert_differ", lambda: tf.nest.assert_same_structure((1, [2, 3]), (1, [2])))
expect_error("assert_types", lambda: tf.nest.assert_same_structure((1, 2), [1, 2]))
report("assert_no_check_types", tf.nest.assert_same_structure((1, 2), [1, 2],
                                                              check_types=False))
expect_error("map_differ", lambda: tf.nest.map_structure(lambda a, b: a, [1, 2], [1]))
expect_error("pack_short", lambda: tf.nest.pack_sequence_as([1, [2, 3]], [1, 2]))
expect_error("pack_long", lambda: tf.nest.pack_sequence_as([1, 2], [1, 2, 3]))
