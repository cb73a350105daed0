# tf.TensorArray in eager code (the integrated-gradients tutorial batches gradients through
# one): write/read/stack, scatter/gather, unstack/concat, dynamic size, unwritten entries,
# gradients through stack and gather, and the errors
ta = tf.TensorArray(tf.float32, size=3)
ta = ta.write(0, [1.0, 2.0])
ta = ta.write(2, tf.constant([5.0, 6.0]))
report("size", ta.size())
report("read0", ta.read(0))
report("read_unwritten", ta.read(1))
report("stack", ta.stack())
report("gather", ta.gather([2, 0]))
report("dtype", ta.dtype.name)
report("element_shape", list(ta.element_shape))

x = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
with tf.GradientTape() as tape:
    arr = tf.TensorArray(tf.float32, size=3)
    arr = arr.scatter(tf.range(0, 3), x * x)
    total = tf.reduce_sum(arr.stack() * tf.constant([[1.0], [2.0], [3.0]]))
report("scatter_stack_total", total)
report("scatter_stack_grad", tape.gradient(total, x))

with tf.GradientTape() as tape:
    arr = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in range(4):
        arr = arr.write(i, x[0] * float(i + 1))
    picked = arr.gather([3, 1])
    loss = tf.reduce_sum(picked ** 2)
report("dynamic_size", arr.size())
report("dynamic_gather", picked)
report("dynamic_grad", tape.gradient(loss, x))

ua = tf.TensorArray(tf.int32, size=2).unstack(tf.constant([[1, 2], [3, 4]]))
report("unstack_read", ua.read(1))
cat_ta = tf.TensorArray(tf.float32, size=2, infer_shape=False)
cat_ta = cat_ta.write(0, [1.0]).write(1, [2.0, 3.0])
report("concat_ragged", cat_ta.concat())

expect_error("write_past_size", lambda: tf.TensorArray(tf.float32, size=2).write(2, 1.0))
report("write_python_int", tf.TensorArray(tf.float32, size=2).write(0, 1).read(0))
expect_error("write_int_tensor",
             lambda: tf.TensorArray(tf.float32, size=2).write(0, tf.constant(1)).read(0))
report("read_twice", [tf.TensorArray(tf.float32, size=1).write(0, [2.0]).read(0),
                      tf.TensorArray(tf.float32, size=1, clear_after_read=False)
                      .write(0, [2.0]).read(0)])
expect_error("read_past_size", lambda: tf.TensorArray(tf.float32, size=2).read(5))
expect_error("write_wrong_shape",
             lambda: tf.TensorArray(tf.float32, size=2).write(0, [1.0, 2.0]).write(1, [1.0]))
