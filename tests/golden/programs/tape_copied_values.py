# tf.constant and tf.Variable given a tensor: which keep the gradient path and which copy the
# value into a new history (None), and the dtype TypeError


w = tf.Variable([[1.0, -2.0], [3.0, 0.5]])
x = tf.constant([1.0, 2.0, 3.0, 4.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    h = x * 2.0
    kept = tf.constant(h)
    kept_dtype = tf.constant(h, dtype=tf.float32)
    kept_shape = tf.constant(h, shape=[4])
    reshaped = tf.constant(h, shape=[2, 2])
    of_variable = tf.constant(w)
    new_variable = tf.Variable(h)
    variable_of_variable = tf.Variable(w)
    converted = tf.convert_to_tensor(w)
    losses = {name: tf.reduce_sum(t * t) for name, t in [
        ("kept", kept), ("kept_dtype", kept_dtype), ("kept_shape", kept_shape),
        ("reshaped", reshaped), ("of_variable", of_variable), ("new_variable", new_variable),
        ("variable_of_variable", variable_of_variable), ("converted", converted)]}

report("kept.is_the_tensor", kept is h)
report("kept_dtype.is_the_tensor", kept_dtype is h)
report("reshaped.value", reshaped)
report("of_variable.value", of_variable)
for name, loss in losses.items():
    report(name + ".grad_x", tape.gradient(loss, x))
    report(name + ".grad_w", tape.gradient(loss, w))
expect_error("other_dtype", lambda: tf.constant(h, dtype=tf.float64))
expect_error("int_dtype", lambda: tf.constant(h, dtype=tf.int32))
expect_error("too_few_elements", lambda: tf.constant(h, shape=[3]))
