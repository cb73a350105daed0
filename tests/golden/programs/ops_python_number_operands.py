# A Python number or list beside a tensor takes the tensor's dtype, whichever side it is on
# (tf.maximum(0, x) of a float x is float: the ReLU people write by hand); tf.add converts its
# first argument alone and tf.truediv refuses what tf.divide converts; floats are never
# turned into an int dtype
x = tf.constant([1.5, -2.0])
i = tf.constant([1, 2])
v = tf.Variable([0.5, -0.5])
PAIRS = [("zero_x", lambda: 0, lambda: x), ("x_zero", lambda: x, lambda: 0),
         ("two_i", lambda: 2, lambda: i), ("list_x", lambda: [1, 2], lambda: x),
         ("float_i", lambda: 2.0, lambda: i), ("i_float", lambda: i, lambda: 2.0),
         ("zero_variable", lambda: 0, lambda: v)]
for fname in ["maximum", "minimum", "add", "multiply", "subtract", "pow", "divide",
              "squared_difference", "equal", "less", "not_equal", "greater_equal", "truediv",
              "floordiv", "floormod"]:
    f = getattr(tf.math, fname)
    for pname, a, b in PAIRS:
        expect_or_report = "%s.%s" % (fname, pname)
        try:
            report(expect_or_report, f(a(), b()))
        except Exception as exc:      # the class is the answer
            report(expect_or_report + ".raises", type(exc).__name__)
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.maximum(0, v * 3.0) + tf.minimum(1, v))
report("hand_relu.grad", tape.gradient(y, v))
report("operators", [0 + x, x + 0, 1 - x, 2 * x, 1 / x, x / 2, 2 ** x, -1 < x])
for name, f in [("radd_float_int", lambda: 2.0 + i), ("add_int_float", lambda: i + 2.0),
                ("mul_int_float", lambda: i * 2.5)]:
    expect_error(name, f)
