# tf.Variable's constructor: aggregation= and synchronization= (validated, kept as
# properties; ON_READ makes the default trainable False), TensorFlow's positional order,
# the arguments eager execution ignores, and its argument errors.

A, S = tf.VariableAggregation, tf.VariableSynchronization


def props(v):
    return [str(v.aggregation), v.aggregation.name, v.aggregation.value,
            str(v.synchronization), v.synchronization.name, v.synchronization.value,
            v.trainable]


report("members", [[m.name for m in A], [m.value for m in A], [m.name for m in S],
                   [m.value for m in S], A.__name__, S.__name__])
report("reprs", [repr(A.MEAN), str(S.ON_READ), repr(tf.compat.v1.VariableAggregation.SUM)])
report("default", props(tf.Variable(1.0)))
report("mean_on_write", props(tf.Variable(1.0, aggregation=A.MEAN,
                                          synchronization=S.ON_WRITE)))
report("each_aggregation", [props(tf.Variable(1.0, aggregation=a)) for a in A])
report("each_synchronization", [props(tf.Variable(1.0, synchronization=s)) for s in S])
report("on_read_trainable", [props(tf.Variable(1.0, synchronization=S.ON_READ, trainable=True)),
                             props(tf.Variable(1.0, synchronization=S.ON_READ, trainable=False))])
report("from_ints", [props(tf.Variable(1.0, aggregation=1, synchronization=3)),
                     props(tf.Variable(1.0, aggregation=True))])
report("nones", props(tf.Variable(1.0, aggregation=None, synchronization=None)))
report("v1_member", props(tf.Variable(1.0, aggregation=tf.compat.v1.VariableAggregation.SUM)))
report("equalities", [A.SUM == tf.compat.v1.VariableAggregation.SUM, A.SUM == 1,
                      S.ON_READ == 3, A(2) is A.MEAN, A["MEAN"] is A.MEAN,
                      hash(A.SUM) == hash(tf.compat.v1.VariableAggregation.SUM)])
v = tf.Variable(2.0, synchronization=S.ON_READ, aggregation=A.SUM)
with tf.GradientTape() as tape:
    y = v * 3.0
report("on_read_not_watched", [tape.gradient(y, v), v.assign(5.0)])
w = tf.Variable([1.0, 2.0], True, True, None, "positional")
report("positional_order", [w.name, w.trainable])
report("ignored_args", tf.Variable([1.0, 2.0], validate_shape=False, caching_device="/cpu:0",
                                   import_scope="x", experimental_enable_variable_lifting=False,
                                   name="ignored"))
report("copy_keeps_no_aggregation", str(tf.Variable(tf.Variable(1.0, aggregation=A.SUM))
                                        .aggregation))
report("shape_none_accepted", tf.Variable([1.0, 2.0], shape=[None]).numpy())
expect_error("aggregation_string", lambda: tf.Variable(1.0, aggregation="mean"))
expect_error("aggregation_bad_int", lambda: tf.Variable(1.0, aggregation=7))
expect_error("aggregation_is_sync", lambda: tf.Variable(1.0, aggregation=S.ON_READ))
expect_error("synchronization_string", lambda: tf.Variable(1.0, synchronization="auto"))
expect_error("synchronization_is_agg", lambda: tf.Variable(1.0, synchronization=A.SUM))
expect_error("synchronization_dict", lambda: tf.Variable(1.0, synchronization={}))
expect_error("no_initial_value", lambda: tf.Variable())
expect_error("initial_value_none", lambda: tf.Variable(None, aggregation=A.MEAN))
expect_error("variable_def", lambda: tf.Variable(variable_def=1))
expect_error("constraint_not_callable", lambda: tf.Variable(1.0, constraint=3))
expect_error("name_not_string", lambda: tf.Variable(1.0, name=3))
expect_error("shape_mismatch", lambda: tf.Variable([1.0, 2.0], shape=[3]))
expect_error("shape_mismatch_unvalidated", lambda: tf.Variable([1.0, 2.0], shape=[3],
                                                               validate_shape=False))
expect_error("dtype_of_tensor", lambda: tf.Variable(tf.constant(1.0), dtype=tf.int32))
expect_error("float_to_int", lambda: tf.Variable(1.5, dtype=tf.int32))
expect_error("ragged", lambda: tf.Variable([[1.0], [2.0, 3.0]]))
