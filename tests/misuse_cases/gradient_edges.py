"""custom_gradient contracts and gradients at the edges of the domain."""
from __future__ import annotations

import numpy as np

from .case_table import INF, NAN, T, family, grad_of, raises, value


# =============================================================================================
family("custom_gradient")


@raises("ValueError", "custom_gradient", "2", "1", differs=None)
def custom_gradient_too_many_gradients(tf):
    @tf.custom_gradient
    def f(x):
        def grad(g):
            return g, g
        return x * 2.0, grad
    return grad_of(tf, f, 1.0)


@raises("ValueError", "custom_gradient", "1", "2")
def custom_gradient_too_few_gradients(tf):
    @tf.custom_gradient
    def f(x, y):
        def grad(g):
            return g
        return x * y, grad
    return grad_of(tf, f, 1.0, 2.0)


@raises(None, "custom_gradient", "(3,)", "(2,)", differs=("InvalidArgumentError", "TensorFlow "
        "returns the wrong-shaped gradient unchanged (a silent wrong answer); tapeviz refuses "
        "it, naming the function, both shapes and the fix"))
def custom_gradient_wrong_shape(tf):
    @tf.custom_gradient
    def f(x):
        def grad(g):
            return tf.ones(3)
        return tf.reduce_sum(x), grad
    return grad_of(tf, f, [1.0, 2.0])


@raises("ValueError", "custom_gradient", "2", "1", "None")
def custom_gradient_forgets_the_none_for_a_number(tf):
    @tf.custom_gradient
    def f(x, norm):
        def grad(g):
            return tf.clip_by_norm(g, norm)
        return tf.identity(x), grad
    x = tf.constant([3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x, 1.0)
    return tape.gradient(y, x)


@raises("ValueError", "custom_gradient", "function", "keyword argument")
def custom_gradient_callable_as_positional_argument(tf):
    @tf.custom_gradient
    def f(x, fn):
        def grad(g):
            return fn(g), None
        return tf.identity(x), grad
    return f(tf.constant(1.0), lambda g: -g)


@raises("TypeError", "custom_gradient", "variables", "Fix")
def custom_gradient_uses_a_variable_without_variables_argument(tf):
    w = tf.Variable(3.0)

    @tf.custom_gradient
    def f(x):
        def grad(g):
            return g * w
        return x * w, grad
    return f(tf.constant(2.0))


@raises("ValueError", "custom_gradient", "variable", "1")
def custom_gradient_returns_no_variable_gradients(tf):
    w = tf.Variable(3.0)

    @tf.custom_gradient
    def f(x):
        def grad(g, variables=None):
            return g * w, []
        return x * w, grad
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, [x, w])


@raises("ValueError", "custom_gradient", "0", "1")
def custom_gradient_returns_an_empty_list(tf):
    # TensorFlow's backprop_test.py, testCustomGradientEmptyError
    @tf.custom_gradient
    def identity(x):
        def grad(_):
            return []
        return x, grad
    x = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = identity(x)
    return tape.gradient(y, [x])


@value([None])
def custom_gradient_returns_none(tf):
    @tf.custom_gradient
    def f(x):
        def grad(g):
            return None
        return x * 2.0, grad
    return grad_of(tf, f, 1.0)


@raises("TypeError", "custom_gradient", "tuple", differs=None)
def custom_gradient_forgets_grad_fn(tf):
    @tf.custom_gradient
    def f(x):
        return x * 2.0
    return f(tf.constant(1.0))


# =============================================================================================
family("gradients at the edges")


@value([T((3,), "float32", [0.0, 0.0, 0.0]), T((), "float32", 3.0), T((), "float32", 0.0)])
def clip_gradient_with_min_above_max(tf):
    x, lo, hi = tf.constant([0.0, 5.0, 10.0]), tf.constant(2.0), tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch([x, lo, hi])
        y = tf.clip_by_value(x, lo, hi)
    return tape.gradient(y, [x, lo, hi])


@value([T((4,), "float32", [0.0, 1.0, 1.0, 0.0]), T((), "float32", 1.0),
        T((), "float32", 1.0)])
def clip_gradient_at_the_bounds(tf):
    x, lo, hi = tf.constant([0.0, 1.0, 2.0, 3.0]), tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([x, lo, hi])
        y = tf.clip_by_value(x, lo, hi)
    return tape.gradient(y, [x, lo, hi])


@value([None])
def gradient_of_int_target(tf):
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.cast(x, tf.int32) * 3
    return [tape.gradient(y, x)]


@value([None])
def gradient_wrt_int_variable(tf):
    v = tf.Variable([1, 2])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = v * 2
    return [tape.gradient(y, v)]


@value([T((), "float32", 0.0)])
def gradient_through_stop_gradient_zero(tf):
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.stop_gradient(x) * x * 0.0
    return [tape.gradient(y, x)]


@value([None])
def gradient_through_stop_gradient_only(tf):
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.stop_gradient(x) * 3.0
    return [tape.gradient(y, x)]


@value([None])
def gradient_of_value_made_through_numpy(tf):
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.constant(np.square(x.numpy()))
    return [tape.gradient(y, x)]


@value([None])
def gradient_of_value_read_outside_recording(tf):
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        with tape.stop_recording():
            y = x * x
    return [tape.gradient(y, x)]


@value([T((), "float32", 1.0)])
def gradient_of_assigned_variable(tf):
    v = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        v.assign(v * 2.0)
        y = tf.identity(v)
    return [tape.gradient(y, v)]


@value([T((2, 3), "float32", [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),
        T((2, 3), "float32", [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])])
def gradients_of_spectral_norm_at_zero_matrix(tf):
    x = tf.zeros((2, 3))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.norm(x, ord=2, axis=[0, 1])
        g = inner.gradient(y, x)
        h = tf.reduce_sum(g * tf.reshape(tf.range(6, dtype=tf.float32), (2, 3)))
    return [g, outer.gradient(h, x)]


# Two divergences of tests/differential/divergences.py that the random programs reach too
# rarely to keep in that list (see docs/tensorflow-differences.md).
@value([T((2,), "float64", [1.0, -1.0])], tf_value=[T((2,), "float64", [NAN, NAN])],
       why="TensorFlow's float64 erf is NaN at ±inf; the limit is ±1 (its float32 erf gives it)")
def erf_of_infinite_float64(tf):
    return [tf.math.erf(tf.constant([INF, -INF], tf.float64))]


@value([T((3,), "float32", [-0.4025575, 0.0242785, 0.3782789])],
       tf_value=[T((3,), "float32", [NAN, 0.0242785, 0.3782789])],
       why="the logits' second derivative is (diag(p) - p pᵀ) w, p = softmax(logits), "
           "whatever the labels; TensorFlow multiplies the loss's zero upstream gradient by "
           "softmax(logits) - labels, 0·inf = NaN at the infinite label")
def softmax_xent_second_derivative_with_infinite_label(tf):
    logits = tf.constant([0.5, -0.3, 0.2])
    labels = tf.constant([INF, 0.0, 0.0])
    with tf.GradientTape() as outer:
        outer.watch(logits)
        with tf.GradientTape() as inner:
            inner.watch(logits)
            loss = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        g = inner.gradient(loss, logits)
        h = tf.reduce_sum(g * tf.constant([1.0, 2.0, 3.0]))
    return [outer.gradient(h, logits)]


@raises("InvalidArgumentError", "MatrixInverse", "invertible")
def gradient_of_det_at_singular_matrix(tf):
    x = tf.constant([[1.0, 2.0], [2.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.linalg.det(x)
    return tape.gradient(y, x)


@value([T((3, 3), "float64", [[0.0, 2.0, 3.0], [2.0, 0.0, 0.0], [3.0, 0.0, 0.0]])],
       tf_value=[T((3, 3), "float64", [[0.0, 2.0, 3.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])],
       why="TensorFlow's Hessian of x0·x1·x2 at x0 = 0 is not even symmetric (rows 1 and 2 "
           "are 0); finite differences give tapeviz's [[0, 2, 3], [2, 0, 0], [3, 0, 0]]")
def second_derivative_of_prod_at_zero(tf):
    x = tf.constant([0.0, 3.0, 2.0], dtype=tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_prod(x)
        g = inner.gradient(y, x)
    return [outer.jacobian(g, x)]


@value([T((2,), "float32", [2.0, 4.0])])
def persistent_tape_second_gradient(tf):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        y = tf.reduce_sum(x * x)
    tape.gradient(y, x)
    return [tape.gradient(y, x)]
