# A float tensor and a Python number that its dtype cannot hold: TensorFlow converts the
# number to the tensor's dtype, so `x + 10**40` of a float32 `x` is inf (as `x * 10**40`),
# and an int too large for int64 is no error there. Also the reflected and in-place forms,
# float16 and float64, and the gradient through an addition of an overflowing number.
x = tf.constant([1.0, -2.0])
report("float32", [x + 10**40, x * 10**40, x + 2**70, x * 2**70, x - 2**70, x + 1e300,
                   10**40 + x, 2**70 - x, tf.add(x, 2**70), tf.add(x, 1e300)])
h = tf.constant([1.0, 2.0], tf.float16)
report("float16", [h + 70000, h + 1e10, h * 70000.0, h + 0.1])
d = tf.constant([1.0, 2.0], tf.float64)
report("float64", [d + 2**70, d + 10**40, d + 1e300])
v = tf.Variable([1.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    big = tf.reduce_sum(v + 10**40)
    small = tf.reduce_sum((v + 2**70) * 0.0 + v * v)
report("grads", [big, small, tape.gradient(big, v), tape.gradient(small, v)])
