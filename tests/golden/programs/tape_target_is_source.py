# a target that is itself a source: TensorFlow's autodiff guide picks `result = v0` with a
# Python `if`; d(x)/d(x) is the upstream gradient whether or not the tape watched x
v0 = tf.Variable(2.0)
v1 = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as tape:
    if True:
        result = v0
    else:
        result = v1 ** 2
report("python_if_picks_a_variable", tape.gradient(result, [v0, v1]))
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    y = x * 2.0
report("unwatched_target_is_source", tape.gradient([x, y], x))
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    pass
report("unwatched_with_output_gradients", tape.gradient(x, x, output_gradients=tf.constant([3.0, 4.0])))
n = tf.constant(3)
with tf.GradientTape() as tape:
    tape.watch(n)
report("integer_identity", tape.gradient(n, n))
w = tf.Variable([1.0, 2.0])
with tf.GradientTape() as tape:
    z = w * w
report("watched_target_and_source", tape.gradient([w, z], w))
# two reads of one variable are two tensors: each is a source of its own, and the variable
# gets the sum over its reads (TensorFlow's GradientTape contract)
v = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as tape:
    r1 = v.read_value()
    r2 = v.read_value()
    y = r1 * 3.0 + r2 * 5.0 + v * 7.0
report("two_reads_apart", tape.gradient(y, [r1, r2]))
report("two_reads_and_the_variable", tape.gradient(y, [v, r1, r2]))
report("a_read_is_its_own_target", tape.gradient(r1, [r1]))
report("another_read_is_not_a_read", tape.gradient(r2, [r1]))
report("reads_as_targets", tape.gradient([r1, r2], [r1, v]))
report("variable_target_wrt_a_read", tape.gradient(v, [r1]))
