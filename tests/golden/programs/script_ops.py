# tf.numpy_function and tf.py_function run eagerly (as the actor-critic tutorial's env_step):
# NumPy or tensor arguments, Tout, the decorator form, gradients (None through NumPy)
x = tf.constant([1.0, 2.0])
y = tf.constant(3.0)
report("numpy_args_are_arrays", tf.numpy_function(lambda a, b: type(a).__name__, [x, y],
                                                    tf.string))
report("numpy_mul", tf.numpy_function(lambda a, b: a * b, [x, y], tf.float32))
report("numpy_tout_list", tf.numpy_function(lambda a, b: a * b, [x, y], [tf.float32]))
report("numpy_two_outputs", tf.numpy_function(lambda a: (a, a * 2), [x],
                                              [tf.float32, tf.float32]))
report("numpy_result_dtype_kept", tf.numpy_function(lambda a: a.astype(np.float64), [x],
                                                    tf.float32))
report("numpy_python_float", tf.numpy_function(lambda a: 2.0, [x], tf.float64))
report("numpy_python_int", tf.numpy_function(lambda a: 2, [x], tf.int64))
report("numpy_none", tf.numpy_function(lambda a: None, [x], []))
report("numpy_python_inputs", tf.numpy_function(lambda a, b: a + b, [1, 2], tf.int32))
report("numpy_list_input", tf.numpy_function(lambda a: a, [[1.0, 2.0]], tf.float32))
report("numpy_bool", tf.numpy_function(lambda a: a > 1, [x], tf.bool))
report("numpy_list_result", tf.numpy_function(lambda a: a.tolist(), [x], tf.float32))
report("numpy_stateful_false", tf.numpy_function(lambda a: a + 1, [x], tf.float32,
                                                 stateful=False))


@tf.numpy_function(Tout=tf.int64)
def count(a):
    return np.array(len(a), np.int64)


report("numpy_decorator", count(x))
report("numpy_decorator_name", count.__name__)


def boom(a):
    raise ValueError("boom")


expect_error("numpy_raises", lambda: tf.numpy_function(boom, [x], tf.float32))
expect_error("numpy_no_tout", lambda: tf.numpy_function(lambda a: a, [x]))
expect_error("numpy_no_inp", lambda: tf.numpy_function(lambda a: a, Tout=tf.float32))

report("py_args_are_tensors", tf.py_function(lambda a, b: str(a.dtype.name), [x, y],
                                              tf.string))
report("py_mul", tf.py_function(lambda a, b: a * b, [x, y], tf.float32))
report("py_tout_list", tf.py_function(lambda a, b: a * b, [x, y], [tf.float32]))
report("py_numpy_result", tf.py_function(lambda a: a.numpy() * 2, [x], tf.float32))
report("py_python_float_to_float64", tf.py_function(lambda a: 2.0, [x], tf.float64))
report("py_two_outputs", tf.py_function(lambda a: (a, a + 1.0), [x], [tf.float32, tf.float32]))


@tf.py_function(Tout=tf.float32)
def double(a):
    return a * 2.0


report("py_decorator", double(x))
expect_error("py_wrong_dtype", lambda: tf.py_function(lambda a: tf.cast(a, tf.float64), [x],
                                                      tf.float32))
expect_error("py_raises", lambda: tf.py_function(boom, [x], tf.float32))
expect_error("py_no_tout", lambda: tf.py_function(lambda a: a, [x]))

with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    through_numpy = tf.numpy_function(lambda a: a * a, [x], tf.float32)
    through_python = tf.py_function(lambda a: a * a, [x], tf.float32)
    both = tf.py_function(lambda a: (a * a, 3.0 * a), [x], [tf.float32, tf.float32])
    total = tf.reduce_sum(through_numpy)
report("numpy_gradient_is_none", tape.gradient(total, x))
report("py_gradient", tape.gradient(through_python, x))
report("py_gradient_two_outputs", tape.gradient(both, x))
v = tf.Variable([1.0, -2.0])
with tf.GradientTape() as tape:
    out = tf.py_function(lambda a: tf.reduce_sum(a * v), [tf.constant([2.0, 5.0])], tf.float32)
report("py_gradient_variable", tape.gradient(out, v))
