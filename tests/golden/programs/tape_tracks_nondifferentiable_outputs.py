# TensorFlow's tape watches the float outputs of every op it records, a non-differentiable
# one's too (Round, Floor, Ceil, FloorDiv): a gradient with respect to such an output exists,
# while through it the gradient is None. StopGradient's output alone is not watched.
x = tf.Variable([0.3, -1.7, 2.5])
with tf.GradientTape(persistent=True) as tape:
    outs = {"round": tf.round(x), "floor": tf.floor(x), "ceil": tf.math.ceil(x),
            "floordiv": x // 2.0, "stop_gradient": tf.stop_gradient(x)}
    targets = {k: tf.reduce_sum((v - 0.1) * 2.0) for k, v in outs.items()}
for name in outs:
    report(f"wrt_output.{name}", tape.gradient(targets[name], outs[name]))
    report(f"wrt_x.{name}", tape.gradient(targets[name], x))
with tf.GradientTape() as tape:
    r = tf.round(x * 3.0)
    y = tf.reduce_sum(tf.square(r) + x)
report("mixed", tape.gradient(y, [x, r]))
