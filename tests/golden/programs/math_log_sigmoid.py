# tf.math.log_sigmoid: values (stable in both tails), first and second derivatives, dtypes, and
# the inputs TensorFlow refuses


def first_and_second(name, x):
    x = tf.constant(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.math.log_sigmoid(x)
        g = inner.gradient(y, x)
    report(name, y)
    report(name + ".grad", g)
    report(name + ".grad2", outer.gradient(g, x))


first_and_second("values", [-3.0, -1.0, -0.1, 0.0, 0.1, 1.0, 3.0, 7.0])
first_and_second("tails", [-100.0, -50.0, -20.0, 20.0, 50.0, 100.0])
first_and_second("float64", np.array([-30.0, -1.0, 0.5, 30.0]))
first_and_second("matrix", [[-2.0, 0.5], [4.0, -0.25]])

v = tf.Variable([[1.0, -2.0, 3.0]])
with tf.GradientTape() as tape:
    loss = -tf.reduce_mean(tf.math.log_sigmoid(v * tf.constant([[2.0], [-1.0]])))
report("variable_broadcast.loss", loss)
report("variable_broadcast.grad", tape.gradient(loss, v))

report("python_float", tf.math.log_sigmoid(2.0))
report("list_of_floats", tf.math.log_sigmoid([0.0, -1.0]))
report("float16", tf.math.log_sigmoid(tf.constant([-1.0, 2.0], tf.float16)))
report("float64.dtype", tf.math.log_sigmoid(tf.constant(1.0, tf.float64)).dtype.name)
report("nonfinite", tf.math.log_sigmoid([float("nan"), float("inf"), -float("inf")]))
expect_error("int32", lambda: tf.math.log_sigmoid(tf.constant([1, 2])))
expect_error("python_int", lambda: tf.math.log_sigmoid(3))
expect_error("bool", lambda: tf.math.log_sigmoid(tf.constant([True, False])))
