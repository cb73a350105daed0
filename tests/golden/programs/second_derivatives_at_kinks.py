# second derivatives of piecewise activations, from the differential tester's minimal programs:
# elu's at exactly 0 is its right-hand one (0); through leaky_relu and relu6 they are zeros,
# not None


def second(name, f, x, *args):
    x = tf.constant(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x, *args)
        g = inner.gradient(y, x)
    report(name + ".grad", g)
    report(name + ".grad2", outer.gradient(g, x))


second("elu", tf.nn.elu, [-1.0, 0.0, 2.0])
second("elu_float64", tf.nn.elu, np.array([0.0, -0.5]))
second("leaky_relu", tf.nn.leaky_relu, [-1.0, 0.0, 2.0])
second("leaky_relu_alpha", tf.nn.leaky_relu, [-1.5, 0.5], 0.1)
second("relu6", tf.nn.relu6, [-1.0, 0.0, 3.0, 6.0, 7.0])
second("relu", tf.nn.relu, [-1.0, 0.0, 2.0])

# a second derivative that only meets the activation's gradient: zeros for the features
x = tf.constant([[-1.0, 0.5], [0.0, 2.0]])
with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = tf.reduce_sum(tf.nn.leaky_relu(x, 0.2) * tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    g = inner.gradient(y, x)
report("leaky_relu_weighted.grad2", outer.gradient(g, x))

# jacobian of an elu: the diagonal is elu', a second derivative by jacobian of the gradient
x = tf.constant([0.0, -1.0, 1.0])
with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = tf.reduce_sum(tf.nn.elu(x))
    g = inner.gradient(y, x)
report("elu.hessian", outer.jacobian(g, x))
