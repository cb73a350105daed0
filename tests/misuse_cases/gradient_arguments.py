"""What is passed to tape.gradient, watch and the jacobians."""
from __future__ import annotations

import numpy as np

from .case_table import T, family, raises, value


# =============================================================================================
family("gradient arguments")


_NON_TENSOR_SOURCE = ("ValueError", "TensorFlow fails inside its own code (AttributeError "
                      "'... has no attribute _id', or TypeError 'Cannot convert ... to a "
                      "TensorFlow DType'); tapeviz raises ValueError for every non-tensor "
                      "source, as watch() does, naming the object and the fix")


def _tape_y(tf):
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x * x
    return tape, x, y


@raises("AttributeError", "sources", "float", differs=_NON_TENSOR_SOURCE)
def source_is_python_float(tf):
    tape, x, y = _tape_y(tf)
    return tape.gradient(y, 2.0)


@raises("AttributeError", "sources", "float", differs=_NON_TENSOR_SOURCE)
def source_is_list_of_floats(tf):
    tape, x, y = _tape_y(tf)
    return tape.gradient(y, [[1.0, 2.0]])


@raises("AttributeError", "sources", "ndarray", differs=_NON_TENSOR_SOURCE)
def source_is_numpy_array(tf):
    tape, x, y = _tape_y(tf)
    return tape.gradient(y, np.ones(2))


@raises("TypeError", "sources", "str", differs=_NON_TENSOR_SOURCE)
def source_is_string(tf):
    tape, x, y = _tape_y(tf)
    return tape.gradient(y, "x")


@raises("TypeError", "sources", "NoneType", differs=_NON_TENSOR_SOURCE)
def source_is_none(tf):
    tape, x, y = _tape_y(tf)
    return tape.gradient(y, None)


@raises("AttributeError", "sources", "float32", differs=_NON_TENSOR_SOURCE)
def source_is_numpy_of_variable(tf):
    tape, x, y = _tape_y(tf)
    return tape.gradient(y, x.numpy())


@value([None])
def gradient_of_string_target(tf):
    x = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = tf.constant("loss")
    return [tape.gradient(y, x)]


@raises("TypeError", "target", "str", "Fix:")
def gradient_of_python_string(tf):
    tape, x, y = _tape_y(tf)
    return tape.gradient("loss", x)


@raises("AttributeError", "target", "float", "float()", "nothing to differentiate",
        "Fix: keep the computation in tapeviz ops", "y = x * 2",
        differs=("TypeError", "TensorFlow fails inside "
        "its backprop code with AttributeError; tapeviz rejects a Python float target with a "
        "TypeError naming the argument and the fix"))
def gradient_of_python_float(tf):
    tape, x, y = _tape_y(tf)
    return tape.gradient(float(y), x)


@raises("AttributeError", "target", "float32", "shape ()", "NumPy value", ".numpy()",
        "nothing to differentiate", "Fix: keep the computation in tapeviz ops", "y = x * 2",
        differs=("TypeError", "TensorFlow fails inside its backprop code (the target has no "
                 "`_id`: AttributeError); tapeviz rejects a NumPy target with a TypeError that "
                 "says the computation left the tape through .numpy()"))
def gradient_of_numpy_target(tf):
    x = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = x.numpy() * 2
    return tape.gradient(y, x)


@raises("AttributeError", "target", "ndarray", "shape (2,)", "float32", "NumPy value",
        "Fix: keep the computation in tapeviz ops",
        differs=("TypeError", "TensorFlow fails inside its backprop code (the target has no "
                 "`_id`: AttributeError); tapeviz rejects a NumPy target with a TypeError that "
                 "says the computation left the tape through NumPy"))
def gradient_of_numpy_array_target(tf):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = np.square(x.numpy())
    return tape.gradient(y, x)


@raises("TypeError", "target", "None")
def gradient_of_none(tf):
    tape, x, y = _tape_y(tf)
    return tape.gradient(None, x)


@raises("ValueError", "watch", "int")
def watch_python_list_of_ints(tf):
    with tf.GradientTape() as tape:
        tape.watch([1, 2, 3])


@raises("ValueError", "watch", "float")
def watch_python_float(tf):
    with tf.GradientTape() as tape:
        tape.watch(3.0)


@raises("ValueError", "watch", "ndarray")
def watch_numpy_array(tf):
    with tf.GradientTape() as tape:
        tape.watch(np.ones(3))


@value([None])
def watch_int_tensor_gives_none(tf):
    x = tf.constant([1, 2, 3])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * x)
    return [tape.gradient(y, x)]


@value([None])
def source_not_in_target_graph(tf):
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = a * 3.0
    return [tape.gradient(y, b)]


@value([T((2,), "float32", [0.0, 0.0])])
def source_not_in_graph_zero(tf):
    a, b = tf.Variable(1.0), tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = a * 3.0
    return [tape.gradient(y, b, unconnected_gradients="zero")]


@value([None])
def unwatched_constant_source(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    return [tape.gradient(y, x)]


@value([None])
def target_computed_outside_tape(tf):
    x = tf.Variable(3.0)
    y = x * x
    with tf.GradientTape() as tape:
        z = y + 1.0
    return [tape.gradient(z, x)]


@raises("ValueError", "unconnected_gradients", "zeros")
def unconnected_gradients_unknown(tf):
    tape, x, y = _tape_y(tf)
    return tape.gradient(y, x, unconnected_gradients="zeros")


@raises("RuntimeError", "persistent", "gradient")
def non_persistent_tape_reused(tf):
    tape, x, y = _tape_y(tf)
    tape.gradient(y, x)
    return tape.gradient(y, x)


@raises("RuntimeError", "persistent", "jacobian")
def non_persistent_jacobian_after_gradient(tf):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = x * x
    tape.gradient(y, x)
    return tape.jacobian(y, x)


@raises("InvalidArgumentError", "output_gradients", "(3,)", "(2,)",
        differs=None)
def output_gradients_wrong_shape(tf):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = x * x
    return tape.gradient(y, x, output_gradients=tf.ones(3))


@raises("InvalidArgumentError", "MatMul", "float32", "float64")
def output_gradients_of_another_dtype_through_matmul(tf):
    x = tf.constant([[1.0, 2.0]])
    w = tf.Variable([[1.0], [2.0]])
    with tf.GradientTape() as tape:
        y = tf.matmul(x, w)
    return tape.gradient(y, w, output_gradients=tf.ones((1, 1), tf.float64))


@raises("RuntimeError", "stop_recording")
def stop_recording_outside_with(tf):
    tape = tf.GradientTape()
    with tape.stop_recording():
        pass


@value([T((), "float32", 6.0), T((), "float32", 1.0)])
def sources_as_dict_give_dict_order(tf):
    a, b = tf.Variable(3.0), tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = a * a + b
    g = tape.gradient(y, {"a": a, "b": b})
    return [g["a"], g["b"]]


@value([T((), "float32", 4.0)])
def target_is_list_sums(tf):
    x = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y1, y2 = x * 3.0, x * 1.0
    return [tape.gradient([y1, y2], x)]


@value([T((2,), "float32", [2.0, 4.0])])
def gradient_inside_with_block(tf):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(x * x)
        g = tape.gradient(y, x)
    return [g]


# =============================================================================================
family("jacobians")


@raises("ValueError", "batch_jacobian", "(3, 2)", "(2, 2)", differs=None)
def batch_jacobian_batch_sizes_differ(tf):
    x = tf.constant(np.ones((2, 2), np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.concat([x, x[:1]], axis=0)
    return tape.batch_jacobian(y, x)


@raises("IndexError", "batch_jacobian", "()", differs=("ValueError", "TensorFlow fails "
        "inside its own code (IndexError: list index out of range); tapeviz says the target "
        "needs a batch axis"))
def batch_jacobian_scalar_target(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x)
    return tape.batch_jacobian(y, x)


@raises("RuntimeError", "persistent=True", "jacobian", "experimental_use_pfor")
def jacobian_without_pfor_on_a_one_shot_tape(tf):
    # TensorFlow's backprop_test.py, JacobianTest.testPersistentTape
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.jacobian(y, x, experimental_use_pfor=False)


@raises("RuntimeError", "persistent=True", "batch_jacobian", "experimental_use_pfor")
def batch_jacobian_without_pfor_on_a_one_shot_tape(tf):
    # TensorFlow's backprop_test.py, BatchJacobianTest.testPersistentTape
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.batch_jacobian(y, x, experimental_use_pfor=False)


@raises("AttributeError", "sources", "float", differs=_NON_TENSOR_SOURCE)
def jacobian_of_python_list_source(tf):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = x * x
    return tape.jacobian(y, [[1.0, 2.0]])


@value([None])
def jacobian_unconnected_source(tf):
    a, b = tf.Variable([1.0, 2.0]), tf.Variable([3.0])
    with tf.GradientTape() as tape:
        y = a * 2.0
    return [tape.jacobian(y, b)]


@value([T((2, 1), "float32", [[0.0], [0.0]])])
def jacobian_unconnected_zero(tf):
    a, b = tf.Variable([1.0, 2.0]), tf.Variable([3.0])
    with tf.GradientTape() as tape:
        y = a * 2.0
    return [tape.jacobian(y, b, unconnected_gradients="zero")]
