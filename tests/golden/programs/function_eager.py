# @tf.function as TensorFlow runs it under tf.config.run_functions_eagerly(True): values,
# gradients through it, methods, input_signature
tf.config.run_functions_eagerly(True)
report("functions_run_eagerly", tf.config.functions_run_eagerly())


@tf.function
def square_sum(x):
    return tf.reduce_sum(x * x)


x = tf.Variable([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    y = square_sum(x)
report("value", y)
report("gradient", tape.gradient(y, x))


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)], reduce_retracing=True)
def double(v):
    return v * 2.0


report("input_signature", double(tf.constant([1.0, 2.0])))


class Scale(tf.Module):
    def __init__(self):
        super().__init__()
        self.s = tf.Variable(3.0)

    @tf.function
    def __call__(self, v):
        return self.s * v


m = Scale()
with tf.GradientTape() as tape:
    out = m(tf.constant(2.0))
report("method", out)
report("method_gradient", tape.gradient(out, m.s))


@tf.function(jit_compile=True)
def step(w, g):
    w.assign_sub(0.1 * g)
    return w


w = tf.Variable([1.0, 1.0])
step(w, tf.constant([1.0, 2.0]))
report("assign_inside", w)
tf.config.run_functions_eagerly(False)
report("functions_run_eagerly_off", tf.config.functions_run_eagerly())
