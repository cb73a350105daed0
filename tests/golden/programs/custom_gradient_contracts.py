# tf.custom_gradient as TensorFlow's eager mode defines it: one gradient per positional
# argument (None for a Python number), one upstream gradient per output, variables=


# TensorFlow's eager guide: clip the gradient by a norm given as a Python float
@tf.custom_gradient
def clip_gradient_by_norm(x, norm):
    y = tf.identity(x)

    def grad_fn(dresult):
        return [tf.clip_by_norm(dresult, norm), None]

    return y, grad_fn


x = tf.constant([3.0, 4.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = clip_gradient_by_norm(x, 1.0) * 2.0
report("clip_by_norm.value", y)
report("clip_by_norm.grad", tape.gradient(y, x))


# a gradient-reversal layer (domain adaptation) with its weight as a Python float
@tf.custom_gradient
def reverse_gradient(x, weight):
    def grad(dy):
        return -weight * dy, None
    return tf.identity(x), grad


w = tf.Variable([[1.0, -2.0], [0.5, 1.0]])
features = tf.constant([[1.0, 2.0]])
with tf.GradientTape() as tape:
    h = tf.matmul(features, w)
    loss = tf.reduce_sum(reverse_gradient(h, 0.3) ** 2)
report("gradient_reversal.loss", loss)
report("gradient_reversal.grad", tape.gradient(loss, w))


# a callable passed as a keyword argument gets no gradient and needs none
@tf.custom_gradient
def scale_gradient(x, fn=None):
    def grad(dy):
        return fn(dy)
    return tf.identity(x), grad


with tf.GradientTape() as tape:
    tape.watch(x)
    y = scale_gradient(x, fn=lambda g: -2.0 * g)
report("keyword_callable.grad", tape.gradient(y, x))


# several outputs: one upstream gradient per output
@tf.custom_gradient
def two_outputs(x):
    def grad(dy1, dy2):
        return dy1 * 2.0 + dy2 * 3.0
    return (x * 2.0, x * 3.0), grad


s = tf.constant(1.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(s)
    a, b = two_outputs(s)
    total = a + 10.0 * b
report("two_outputs.values", [a, b])
report("two_outputs.grad", tape.gradient(total, s))
report("two_outputs.only_first_used", tape.gradient(a, s))
report("two_outputs.only_second_used", tape.gradient(b, s))


@tf.custom_gradient
def dict_outputs(x):
    def grad(d_a, d_b):     # in the flattened order of the dict: sorted keys
        return d_a + 10.0 * d_b
    return {"b": x * 2.0, "a": x * 3.0}, grad


with tf.GradientTape() as tape:
    tape.watch(s)
    d = dict_outputs(s)
    y = d["a"] + 100.0 * d["b"]
report("dict_outputs.grad", tape.gradient(y, s))


# a list argument counts as its elements
@tf.custom_gradient
def sum_of_list(xs):
    def grad(dy):
        return [dy * 2.0, dy * 3.0]
    return xs[0] + xs[1], grad


p, q = tf.constant(1.0), tf.constant(2.0)
with tf.GradientTape() as tape:
    tape.watch([p, q])
    y = sum_of_list([p, q])
report("list_argument.grads", tape.gradient(y, [p, q]))


# a Variable argument: f sees the variable, the gradient reaches it
@tf.custom_gradient
def times_two(v):
    def grad(dy):
        return dy * 7.0
    return v * 2.0, grad


v = tf.Variable(1.5)
with tf.GradientTape() as tape:
    y = times_two(v)
report("variable_argument.value", y)
report("variable_argument.grad", tape.gradient(y, v))


# grad_fn returning None for every input
@tf.custom_gradient
def blocks_gradient(x):
    def grad(dy):
        return None
    return x * 1.0, grad


with tf.GradientTape() as tape:
    tape.watch(s)
    y = blocks_gradient(s)
report("none_gradient", tape.gradient(y, s))
report("numpy_input", blocks_gradient(np.ones((2,), np.float32)))
report("int_input", blocks_gradient(3))
