# tf.print: how TensorFlow writes tensors (digits, summarized axes, bools, strings) and Python
# values beside them, sep/end/summarize, and the output streams it accepts
import os
import tempfile

path = os.path.join(tempfile.mkdtemp(), "printed.txt")


def printed(name, *inputs, **kwargs):
    open(path, "w").close()
    tf.print(*inputs, output_stream="file://" + path, **kwargs)
    with open(path) as f:
        report(name, f.read())


printed("floats", tf.constant([1.5, 2.0, 0.1, 1e-8, 1e8, 123456789.0, 1 / 3]))
printed("float64", tf.constant([0.1, 1 / 3], tf.float64))
printed("float16", tf.constant([0.1, 2.5], tf.float16))
printed("nonfinite", tf.constant([np.nan, np.inf, -np.inf]))
printed("ints", tf.range(10))
printed("int64", tf.constant([3, -4], tf.int64))
printed("matrix", tf.reshape(tf.range(64), [8, 8]))
printed("rank3", tf.reshape(tf.range(8), [2, 2, 2]))
printed("rank3_summarized", tf.reshape(tf.range(7 * 7 * 2), [7, 7, 2]))
printed("bools", tf.constant([True, False]))
printed("strings", tf.constant(["ab", "c"]))
printed("string_scalar", tf.constant("just text"))
printed("scalar", tf.constant(3.0))
printed("variable", tf.Variable([[1.25, -2.0], [3.0, 4.0]]))
printed("empty", tf.zeros([2, 0]))
printed("summarize_all", tf.range(9), summarize=-1)
printed("summarize_2", tf.range(9), summarize=2)
printed("summarize_big", tf.range(9), summarize=100)
printed("mixed", "loss:", tf.constant(0.25), "step", 3, 1.5, None, True)
printed("structures", [1, tf.constant([1, 2])], {"b": tf.constant(2.0), "a": "x"},
        (tf.constant(1),))
printed("numpy_array", np.array([1.5, 2.0]))
printed("sep_end", "a", tf.constant([1, 2]), sep="-", end="!\n")
printed("no_inputs")
with tf.GradientTape() as tape:
    x = tf.constant(2.0)
    tape.watch(x)
    tf.print("inside a tape", x * x, output_stream="file://" + path)
    y = x * x
report("gradient_unchanged", tape.gradient(y, x))
expect_error("bad_stream", lambda: tf.print("x", output_stream="stdout"))
