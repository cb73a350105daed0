# zeros_like, ones_like and random.shuffle run recorded ops in TensorFlow's eager mode
# (ZerosLike, OnesLike, RandomShuffle): a tape that watches their input watches their output,
# so a gradient with respect to it exists, while none flows through to the input. zeros and
# fill make constants: nothing is recorded. Another dtype makes zeros_like a constant too.
x = tf.Variable([0.3, -1.7, 2.5])
w = tf.Variable([1.0, 2.0, 3.0])
c = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    outs = {"zeros_like": tf.zeros_like(x), "ones_like": tf.ones_like(x * 2.0),
            "ones_like_of_a_product": tf.ones_like(x * w),
            "shuffle": tf.random.shuffle(x * w, seed=4), "zeros": tf.zeros([3]),
            "fill": tf.fill([3], 2.0),
            "zeros_like_float64": tf.zeros_like(x, dtype=tf.float64)}
    targets = {k: tf.reduce_sum(tf.cast(v, tf.float32) * c) for k, v in outs.items()}
for name in outs:
    report(f"wrt_output.{name}", tape.gradient(targets[name], outs[name]))
    report(f"wrt_x.{name}", tape.gradient(targets[name], x))
    report(f"wrt_w.{name}", tape.gradient(targets[name], w))
report("values.zeros_like", outs["zeros_like"])
report("values.ones_like", outs["ones_like"])
with tf.GradientTape() as tape:
    z = tf.zeros_like(w)
    y = tf.reduce_sum((z + 1.0) * w)
report("zeros_like_then_used", tape.gradient(y, [w, z]))
