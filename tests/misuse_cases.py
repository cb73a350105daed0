"""The misuse corpus as data: programs that misuse the API, and what TensorFlow does with them.

Every case is a function of the framework module, so the very same code runs with
`tapeviz` (tests/test_misuse.py) and with real TensorFlow (the oracle below). Each case
records TensorFlow's outcome:

* `raises("InvalidArgumentError", "MatMul", "(2, 3)", ...)`: TensorFlow raises that class;
  tapeviz must raise the same class (`tv.errors.X` for TensorFlow's `tf.errors.X`, the builtin
  otherwise) with a message that contains every listed fragment (the op or API function, the
  shapes, the dtypes) and says how to fix it;
* `value(T(shape, dtype, values), ...)`: TensorFlow does not raise (NaN inputs, empty arrays,
  0-d versus 1-element arrays...); tapeviz must return TensorFlow's value.

A case where tapeviz deliberately differs from TensorFlow says so with `differs=` (the class
tapeviz raises and why).

Check the table against real TensorFlow (never a dependency of the project):

    python tests/misuse_cases.py     # in a virtual environment with tensorflow-cpu: prints
                                     # every case where TensorFlow disagrees
"""
from __future__ import annotations

import math
import re

import numpy as np

NAN, INF = float("nan"), float("inf")
FIX = re.compile(r"\b(fix|use|cast|reshape|pass|must|should)\b", re.IGNORECASE)


class Case:
    def __init__(self, fn, family, tf_raises=None, must=(), expect=None, differs=None):
        self.fn = fn
        self.id = fn.__name__.replace("_", "-")
        self.family = family
        self.tf_raises = tf_raises          # TensorFlow's exception class name, or None
        self.must = tuple(must)             # fragments the message must contain
        self.expect = expect                # TensorFlow's value (when it does not raise)
        self.differs = differs              # (tapeviz class name, why) when tapeviz differs

    def __repr__(self):
        return f"<Case {self.id}>"


CASES: list[Case] = []
_FAMILY = ["?"]


def family(name):
    _FAMILY[0] = name


def raises(tf_class, *must, differs=None):
    def deco(fn):
        CASES.append(Case(fn, _FAMILY[0], tf_class, must, differs=differs))
        return fn
    return deco


def value(expect, tf_value=None, why=None):
    """TensorFlow does not raise; tapeviz returns `expect`. When TensorFlow's value is wrong
    (`tf_value`, with `why`), `expect` is the right one and the oracle checks TF's."""
    def deco(fn):
        case = Case(fn, _FAMILY[0], None, expect=expect)
        case.tf_value, case.why = tf_value, why
        CASES.append(case)
        return fn
    return deco


def T(shape, dtype, values):
    """A tensor outcome: shape, dtype name and values (nested lists)."""
    return ("T", tuple(shape), dtype, values)


def summarize(x):
    """A framework-independent picture of a result (tensors, None, lists, numbers)."""
    if x is None:
        return None
    if isinstance(x, (list, tuple)):
        return [summarize(v) for v in x]
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        a = np.asarray(x.numpy())
        values = a.tolist()
        if a.dtype.kind == "O":
            values = np.vectorize(lambda b: b.decode() if isinstance(b, bytes) else b,
                                  otypes=[object])(a).tolist() if a.ndim else \
                (a.item().decode() if isinstance(a.item(), bytes) else a.item())
        return T(a.shape, x.dtype.name, values)
    if isinstance(x, (bool, int, float, str)):
        return x
    return repr(x)


def same(actual, expected, rtol=1e-6) -> bool:
    if isinstance(expected, tuple) and expected and expected[0] == "T":
        return (isinstance(actual, tuple) and actual[:3] == expected[:3]
                and same(actual[3], expected[3], rtol))
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(actual) == len(expected)
                and all(same(a, e, rtol) for a, e in zip(actual, expected)))
    if isinstance(expected, float) and isinstance(actual, (int, float)):
        if math.isnan(expected):
            return math.isnan(actual)
        return math.isclose(actual, expected, rel_tol=rtol, abs_tol=rtol)
    return actual == expected


# ---------------------------------------------------------------------------------------------
# helpers shared by cases (work with either framework)


def grad_of(tf, fn, *xs):
    """d fn(*xs) / d xs, the xs watched constants."""
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = fn(*xs)
    return tape.gradient(y, xs)


# =============================================================================================
family("wrong shapes")


@raises("InvalidArgumentError", "AddV2", "(2, 3)", "(3, 2)", "float32")
def add_incompatible_shapes(tf):
    return tf.add(tf.ones((2, 3)), tf.ones((3, 2)))


@raises("InvalidArgumentError", "AddV2", "(4,)", "(3,)")
def plus_operator_incompatible_vectors(tf):
    return tf.constant([1.0, 2.0, 3.0, 4.0]) + tf.constant([1.0, 2.0, 3.0])


@raises("InvalidArgumentError", "Sub", "(2, 3)", "(2, 2)")
def subtract_incompatible(tf):
    return tf.ones((2, 3)) - tf.ones((2, 2))


@raises("InvalidArgumentError", "Mul", "(5,)", "(2,)")
def multiply_incompatible(tf):
    return tf.multiply(tf.ones(5), tf.ones(2))


@raises("InvalidArgumentError", "RealDiv", "(3, 1, 2)", "(4, 3)")
def divide_incompatible(tf):
    return tf.ones((3, 1, 2)) / tf.ones((4, 3))


@raises("InvalidArgumentError", "Pow", "(2,)", "(3,)")
def pow_incompatible(tf):
    return tf.pow(tf.ones(2), tf.ones(3))


@raises("InvalidArgumentError", "Maximum", "(2, 2)", "(3,)")
def maximum_incompatible(tf):
    return tf.maximum(tf.ones((2, 2)), tf.ones(3))


@raises("InvalidArgumentError", "Minimum", "(2,)", "(3,)")
def minimum_incompatible(tf):
    return tf.minimum(tf.ones(2), tf.ones(3))


@raises("InvalidArgumentError", "SquaredDifference", "(2,)", "(3,)")
def squared_difference_incompatible(tf):
    return tf.math.squared_difference(tf.ones(2), tf.ones(3))


@raises("InvalidArgumentError", "SelectV2", "(2,)", "(3,)")
def where_incompatible_branches(tf):
    return tf.where(tf.constant([True, False]), tf.ones(2), tf.ones(3))


@raises("InvalidArgumentError", "Equal", "(2,)", "(3,)")
def equal_incompatible(tf):
    return tf.equal(tf.ones(2), tf.ones(3))


@raises("InvalidArgumentError", "Less", "(2,)", "(3,)")
def less_operator_incompatible(tf):
    return tf.ones(2) < tf.ones(3)


@raises("InvalidArgumentError", "Mul", "(3,)", "(2,)")
def variable_times_incompatible_tensor(tf):
    v = tf.Variable([1.0, 2.0, 3.0])
    return v * tf.constant([1.0, 2.0])


@raises("InvalidArgumentError", "ConcatV2", "(2, 3)", "(2, 4)", "float32", "on axis 1",
        "Fix: concatenate along axis 1", "every axis but 0 matches")
def concat_mismatched_other_axis(tf):
    return tf.concat([tf.ones((2, 3)), tf.ones((2, 4))], axis=0)


@raises("InvalidArgumentError", "ConcatV2", "(2, 3)", "(3, 4)", "int32", "on axis 1",
        "Fix: reshape/slice the inputs so that every axis but 0 matches")
def concat_mismatched_on_both_axes(tf):
    # both axes differ: concatenating along axis 1 would fail too, so that is not suggested
    return tf.concat([tf.ones((2, 3), tf.int32), tf.ones((3, 4), tf.int32)], axis=0)


@raises("InvalidArgumentError", "ConcatV2", "(2, 3)", "(2,)", "float32", "rank 1", "rank 2",
        "Fix: give every input the same rank")
def concat_of_different_ranks(tf):
    return tf.concat([tf.ones((2, 3)), tf.ones(2)], axis=0)


@raises("InvalidArgumentError", "Pack", "[2]", "[3]")
def stack_different_shapes(tf):
    return tf.stack([tf.ones(2), tf.ones(3)])


@raises("InvalidArgumentError", "Split", "3", "2")
def split_uneven(tf):
    return tf.split(tf.ones(3), 2)


@raises("InvalidArgumentError", "SplitV", "[1, 1]", "3")
def split_sizes_do_not_sum(tf):
    return tf.split(tf.ones(3), [1, 1])


@raises("InvalidArgumentError", "Tile", "2", "(2, 2)")
def tile_wrong_multiples_length(tf):
    return tf.tile(tf.ones((2, 2)), [2])


@raises("InvalidArgumentError", "BroadcastTo", "(3,)", "(2,)")
def broadcast_to_incompatible(tf):
    return tf.broadcast_to(tf.ones(3), [2])


@raises("InvalidArgumentError", "ClipByValue", "(2,)", "(3,)")
def clip_by_value_bounds_incompatible(tf):
    return tf.clip_by_value(tf.ones(2), tf.zeros(3), 1.0)


# =============================================================================================
family("matmul")


@raises("InvalidArgumentError", "MatMul", "[2, 3]", "float32")
def matmul_inner_dimensions_differ(tf):
    return tf.matmul(tf.ones((2, 3)), tf.ones((2, 3)))


@raises("InvalidArgumentError", "MatMul", "(3,)", "float32")
def matmul_of_vectors(tf):
    return tf.matmul(tf.constant([1.0, 2.0, 3.0]), tf.constant([1.0, 2.0, 3.0]))


@raises("InvalidArgumentError", "MatMul", "(3,)", "(3, 2)")
def matmul_vector_and_matrix(tf):
    return tf.matmul(tf.constant([1.0, 2.0, 3.0]), tf.ones((3, 2)))


@raises("InvalidArgumentError", "MatMul", "(3,)")
def at_operator_on_vectors(tf):
    v = tf.constant([1.0, 2.0, 3.0])
    return v @ v


@raises("InvalidArgumentError", "MatMul", "()")
def matmul_of_scalars(tf):
    return tf.matmul(tf.constant(2.0), tf.constant(3.0))


@raises("InvalidArgumentError", "MatMul", "[2, 2, 3]", "[3, 3, 4]")
def matmul_batch_dims_differ(tf):
    return tf.matmul(tf.ones((2, 2, 3)), tf.ones((3, 3, 4)))


@raises("InvalidArgumentError", "MatMul", "[2, 3]", "[2, 3]")
def matmul_transpose_b_wrong(tf):
    return tf.matmul(tf.ones((2, 3)), tf.ones((2, 3)), transpose_a=True, transpose_b=True)


@raises("InvalidArgumentError", "MatMul", "float32", "float64")
def matmul_float32_float64(tf):
    return tf.matmul(tf.ones((2, 2)), tf.ones((2, 2), dtype=tf.float64))


@raises("InvalidArgumentError", "MatMul", "int32", "float32")
def matmul_int_float(tf):
    return tf.matmul(tf.constant([[1, 2]]), tf.ones((2, 1)))


# =============================================================================================
family("dtype mixes")


@raises("InvalidArgumentError", "AddV2", "float32", "float64")
def add_float32_float64(tf):
    return tf.constant(1.0) + tf.constant(1.0, dtype=tf.float64)


@raises("InvalidArgumentError", "AddV2", "float32", "int32")
def add_float_tensor_int_tensor(tf):
    return tf.constant([1.0, 2.0]) + tf.constant([1, 2])


@raises("InvalidArgumentError", "Mul", "float16", "float32")
def multiply_half_float(tf):
    return tf.ones(2, dtype=tf.float16) * tf.ones(2)


@raises("TypeError", "2.5", "int32")
def int_tensor_times_python_float(tf):
    return tf.constant([1, 2]) * 2.5


@raises("InvalidArgumentError", "ConcatV2", "float32", "int32")
def concat_mixed_dtypes(tf):
    return tf.concat([tf.ones(2), tf.constant([1, 2])], 0)


@raises("InvalidArgumentError", "Pack", "float32", "float64")
def stack_mixed_dtypes(tf):
    return tf.stack([tf.ones(2), tf.ones(2, dtype=tf.float64)])


@raises("InvalidArgumentError", "SelectV2", "float32", "int32")
def where_mixed_branches(tf):
    return tf.where(tf.constant([True]), tf.ones(1), tf.constant([1]))


@raises("InvalidArgumentError", "Maximum", "float64", "float32")
def maximum_mixed(tf):
    return tf.maximum(tf.ones(2, dtype=tf.float64), tf.ones(2))


@raises("InvalidArgumentError", "Pow", "int32", "float32")
def pow_int_base_float_exponent(tf):
    return tf.pow(tf.constant(2), tf.constant(0.5))


@raises("InvalidArgumentError", "Sqrt", "int32")
def sqrt_of_int(tf):
    return tf.sqrt(tf.constant(4))


@raises("InvalidArgumentError", "Exp", "int32")
def exp_of_int(tf):
    return tf.exp(tf.constant([1, 2]))


@raises("InvalidArgumentError", "Log", "int32")
def log_of_int(tf):
    return tf.math.log(tf.constant(3))


@raises("InvalidArgumentError", "Sigmoid", "int32")
def sigmoid_of_int(tf):
    return tf.sigmoid(tf.constant([1]))


@raises("InvalidArgumentError", "Tanh", "bool")
def tanh_of_bool(tf):
    return tf.tanh(tf.constant(True))


@raises("InvalidArgumentError", "Softmax", "int32")
def softmax_of_int(tf):
    return tf.nn.softmax(tf.constant([1, 2, 3]))


@raises("UnimplementedError", "Cast", "string", "float32")
def cast_string_to_float(tf):
    return tf.cast(tf.constant("1.5"), tf.float32)


@raises("InvalidArgumentError", "AddV2", "string", "float32")
def add_string_and_float(tf):
    return tf.constant("a") + tf.constant(1.0)


@raises("ValueError", "assign", "float64", "float32", "shape ()",
        "Fix: tv.cast(value, tv.float32)")
def variable_assign_other_dtype(tf):
    v = tf.Variable(1.0)
    return v.assign(tf.constant(2.0, dtype=tf.float64))


@raises("ValueError", "int32", "float32")
def variable_assign_add_int(tf):
    v = tf.Variable([1.0])
    return v.assign_add(tf.constant([1]))


@raises("ValueError", "float64", "float32")
def convert_to_tensor_dtype_conflict(tf):
    return tf.convert_to_tensor(tf.constant(1.0), dtype=tf.float64)


@raises("TypeError", "2.5", "int32")
def constant_float_as_int(tf):
    return tf.constant(2.5, dtype=tf.int32)


@raises("TypeError", "abc", "float32")
def constant_string_as_float(tf):
    return tf.constant("abc", dtype=tf.float32)


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


# =============================================================================================
family("variables")


@raises("ValueError", "assign", "(3,)", "(2,)")
def assign_wrong_shape(tf):
    v = tf.Variable([1.0, 2.0])
    return v.assign([1.0, 2.0, 3.0])


@raises("ValueError", "assign", "(2, 1)", "(2,)")
def assign_column_to_vector(tf):
    v = tf.Variable([1.0, 2.0])
    return v.assign(tf.ones((2, 1)))


@raises("TypeError", "assign_add", "int32", "shape ()", "0.5", "float",
        "fixed when it is created", "Python int", "Fix: create the variable as a float",
        "tv.Variable(1.0)", "add an integer")
def assign_add_float_to_int_variable(tf):
    v = tf.Variable(1)
    return v.assign_add(0.5)


@raises("ValueError", "assign_sub", "int32", "float32", "(2,)", "fixed when it is created",
        "Fix: create the variable as a float", "subtract an integer", "tv.cast(value, tv.int32)")
def assign_sub_float_tensor_from_int_variable(tf):
    v = tf.Variable([1, 2])
    return v.assign_sub(tf.constant([0.5, 0.5]))


@raises("InvalidArgumentError", "assign_add", "(3,)", "(2,)")
def assign_add_wrong_shape(tf):
    v = tf.Variable([1.0, 2.0])
    return v.assign_add([1.0, 2.0, 3.0])


@raises("InvalidArgumentError", "assign_sub", "(2, 2)", "(2,)")
def assign_sub_wrong_shape(tf):
    v = tf.Variable([1.0, 2.0])
    return v.assign_sub(tf.ones((2, 2)))


@raises("TypeError", "assign", "string", "float32")
def assign_string(tf):
    v = tf.Variable(1.0)
    return v.assign("two")


@raises("ValueError", "initial_value")
def variable_of_none(tf):
    return tf.Variable(None)


@raises("ValueError", "Variable", "[[1.0, 2.0], [3.0]]")
def variable_of_ragged_list(tf):
    return tf.Variable([[1.0, 2.0], [3.0]])


@raises("TypeError", "floaty")
def variable_unknown_dtype(tf):
    return tf.Variable(1.0, dtype="floaty")


# =============================================================================================
family("NaN and Inf inputs")


@value(T((), "float32", NAN))
def nan_input_reduce_sum(tf):
    return tf.reduce_sum(tf.constant([NAN, 1.0]))


@value(T((), "float32", NAN))
def sqrt_of_negative_is_nan(tf):
    return tf.sqrt(tf.constant(-1.0))


@value(T((), "float32", -INF))
def log_of_zero_is_minus_inf(tf):
    return tf.math.log(tf.constant(0.0))


@value([T((2,), "float32", [NAN, 2.0])])
def gradient_through_nan_input(tf):
    return grad_of(tf, lambda x: tf.reduce_sum(x * x), np.array([NAN, 1.0], np.float32))


@value([T((), "float32", INF)])
def gradient_of_log_at_zero(tf):
    return grad_of(tf, tf.math.log, np.float32(0.0))


@value([T((), "float32", NAN)])
def gradient_of_sqrt_at_zero_through_pow(tf):
    return grad_of(tf, lambda x: x ** 0.5 * 0.0 + tf.sqrt(x), np.float32(0.0))


@value(T((), "float32", NAN))
def zero_over_zero(tf):
    return tf.constant(0.0) / tf.constant(0.0)


@value(T((2,), "float32", [NAN, 2.0]))
def maximum_with_nan(tf):
    return tf.maximum(tf.constant([NAN, 1.0]), tf.constant([1.0, 2.0]))


@value(T((), "float32", NAN))
def reduce_max_with_nan(tf):
    return tf.reduce_max(tf.constant([1.0, NAN, 3.0]))


@value(T((2,), "float32", [1.0, 0.0]))
def sigmoid_of_infinities(tf):
    return tf.sigmoid(tf.constant([INF, -INF]))


@value(T((2,), "float32", [NAN, NAN]))
def softmax_with_inf(tf):
    return tf.nn.softmax(tf.constant([INF, INF]))


# =============================================================================================
family("empty arrays")


@value(T((), "float32", 0.0))
def reduce_sum_of_empty(tf):
    return tf.reduce_sum(tf.zeros((0,)))


@value(T((), "float32", NAN))
def reduce_mean_of_empty(tf):
    return tf.reduce_mean(tf.zeros((0,)))


@value(T((), "float32", -INF))
def reduce_max_of_empty(tf):
    return tf.reduce_max(tf.zeros((0,)))


@value(T((), "float32", 1.0))
def reduce_prod_of_empty(tf):
    return tf.reduce_prod(tf.zeros((0,)))


@value(T((0, 2), "float32", []))
def matmul_with_empty_rows(tf):
    return tf.matmul(tf.zeros((0, 3)), tf.ones((3, 2)))


@value(T((2, 2), "float32", [[0.0, 0.0], [0.0, 0.0]]))
def matmul_with_empty_inner_dimension(tf):
    return tf.matmul(tf.zeros((2, 0)), tf.ones((0, 2)))


@value([T((0, 3), "float32", [])])
def gradient_of_empty_source(tf):
    return grad_of(tf, lambda x: tf.reduce_sum(x * x), np.zeros((0, 3), np.float32))


@value(T((3,), "float32", [1.0, 2.0, 3.0]))
def concat_with_empty(tf):
    return tf.concat([tf.zeros((0,)), tf.constant([1.0, 2.0, 3.0])], axis=0)


@value(T((0,), "float32", []))
def empty_constant(tf):
    return tf.constant([], dtype=tf.float32)


@value(T((0,), "float32", []))
def empty_list_is_float32(tf):
    return tf.constant([])


@raises("InvalidArgumentError", "ArgMax", "(0,)")
def argmax_of_empty(tf):
    return tf.argmax(tf.zeros((0,)))


@raises("InvalidArgumentError", "GatherV2", "[0]", "(0,)")
def gather_from_empty(tf):
    return tf.gather(tf.zeros((0,)), [0])


# =============================================================================================
family("0-d versus 1-element")


@value(T((1,), "float32", [3.0]))
def scalar_plus_one_element(tf):
    return tf.constant(1.0) + tf.constant([2.0])


@value([T((), "float32", 2.0)])
def gradient_of_scalar_through_one_element(tf):
    return grad_of(tf, lambda x: x * tf.constant([2.0]), np.float32(1.0))


@value([T((1,), "float32", [2.0])])
def gradient_of_one_element_through_scalar(tf):
    return grad_of(tf, lambda x: tf.reduce_sum(x * tf.constant(2.0)), np.float32([1.0]))


@value(T((1, 1), "float32", [[5.0]]))
def reshape_scalar_to_1x1(tf):
    return tf.reshape(tf.constant(5.0), [1, 1])


@value(T((), "float32", 5.0))
def squeeze_one_element(tf):
    return tf.squeeze(tf.constant([5.0]))


@value(T((1,), "float32", [2.0]))
def one_element_times_scalar_variable(tf):
    return tf.Variable(2.0) * tf.constant([1.0])


@raises("TypeError", "float", "(1,)")
def float_of_one_element_tensor(tf):
    return float(tf.constant([4.0]))


@raises("ValueError", "bool", "(2,)", differs=None)
def bool_of_vector(tf):
    return bool(tf.constant([1.0, 2.0]))


@raises("TypeError", "len", "Scalar")
def len_of_scalar(tf):
    return len(tf.constant(1.0))


@raises("TypeError", "iterate", "scalar")
def iterate_scalar(tf):
    return list(tf.constant(1.0))


# =============================================================================================
family("huge ranks")


@value(T((1,) * 40, "float32", [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[0.0]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]))
def rank_40_zeros(tf):
    return tf.zeros([1] * 40)


@value([T((1,) * 30, "float32", [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[2.0]]]]]]]]]]]]]]]]]]]]]]]]]]]]]])])
def gradient_in_rank_30(tf):
    return grad_of(tf, lambda x: tf.reduce_sum(x * x), np.ones([1] * 30, np.float32))


@raises(None, "Reshape", "70", "64",
        differs=("InvalidArgumentError", "NumPy arrays have at most 64 dimensions, so tapeviz "
                 "cannot make the rank-70 tensor TensorFlow makes; it says so, naming the op, "
                 "the rank and the limit (TensorFlow raises InvalidArgumentError too when such "
                 "a tensor meets NumPy)"))
def reshape_to_rank_70(tf):
    return tf.reshape(tf.constant([1.0]), [1] * 70)


@raises(None, "zeros", "70", "64", differs=("InvalidArgumentError", "NumPy arrays have at "
        "most 64 dimensions: tapeviz cannot make the rank-70 tensor TensorFlow makes"))
def zeros_of_rank_70(tf):
    return tf.zeros([1] * 70)


# =============================================================================================
family("bad axis")


@raises("InvalidArgumentError", "Sum", "5", "2")
def reduce_sum_axis_out_of_range(tf):
    return tf.reduce_sum(tf.ones((2, 3)), axis=5)


@raises("InvalidArgumentError", "Mean", "-3", "2")
def reduce_mean_negative_axis_out_of_range(tf):
    return tf.reduce_mean(tf.ones((2, 3)), axis=-3)


@raises("InvalidArgumentError", "Max", "2", "1")
def reduce_max_axis_list_out_of_range(tf):
    return tf.reduce_max(tf.ones(3), axis=[0, 2])


@raises("InvalidArgumentError", "ConcatV2", "2", "(2, 2)")
def concat_axis_out_of_range(tf):
    return tf.concat([tf.ones((2, 2)), tf.ones((2, 2))], axis=2)


@raises("InvalidArgumentError", "ExpandDims", "3", "(2,)")
def expand_dims_axis_out_of_range(tf):
    return tf.expand_dims(tf.ones(2), 3)


@raises("InvalidArgumentError", "Squeeze", "0", "(2, 1)")
def squeeze_non_unit_axis(tf):
    return tf.squeeze(tf.ones((2, 1)), axis=0)


@raises("InvalidArgumentError", "ArgMax", "2", "(2, 3)")
def argmax_axis_out_of_range(tf):
    return tf.argmax(tf.ones((2, 3)), axis=2)


@raises("InvalidArgumentError", "Softmax", "2", "(2, 3)")
def softmax_axis_out_of_range(tf):
    return tf.nn.softmax(tf.ones((2, 3)), axis=2)


@raises("ValueError", "unstack", "2", "(2, 3)")
def unstack_axis_out_of_range(tf):
    return tf.unstack(tf.ones((2, 3)), axis=2)


@raises("InvalidArgumentError", "Split", "3", "(2, 3)")
def split_axis_out_of_range(tf):
    return tf.split(tf.ones((2, 3)), 2, axis=3)


@raises("InvalidArgumentError", "GatherV2", "2", "(2, 3)")
def gather_axis_out_of_range(tf):
    return tf.gather(tf.ones((2, 3)), [0], axis=2)


@raises("InvalidArgumentError", "Cumsum", "1", "(3,)")
def cumsum_axis_out_of_range(tf):
    return tf.cumsum(tf.ones(3), axis=1)


@raises("TypeError", "axis", "1.5")
def reduce_sum_float_axis(tf):
    return tf.reduce_sum(tf.ones((2, 3)), axis=1.5)


@raises("InvalidArgumentError", "Sum", "0", "()")
def reduce_sum_axis_of_scalar(tf):
    return tf.reduce_sum(tf.constant(1.0), axis=0)


@raises("ValueError", "stack", "3", "(2,)")
def stack_axis_out_of_range(tf):
    return tf.stack([tf.ones(2), tf.ones(2)], axis=3)


# =============================================================================================
family("bad perm")


@raises("InvalidArgumentError", "Transpose", "[1, 0, 2]", "(2, 3)")
def transpose_perm_too_long(tf):
    return tf.transpose(tf.ones((2, 3)), perm=[1, 0, 2])


@raises("InvalidArgumentError", "Transpose", "[0, 0]", "(2, 3)")
def transpose_perm_repeats_axis(tf):
    return tf.transpose(tf.ones((2, 3)), perm=[0, 0])


@raises("InvalidArgumentError", "Transpose", "[0, 2]", "(2, 3)")
def transpose_perm_out_of_range(tf):
    return tf.transpose(tf.ones((2, 3)), perm=[0, 2])


@raises("InvalidArgumentError", "Transpose", "[0]", "(2, 3)")
def transpose_perm_too_short(tf):
    return tf.transpose(tf.ones((2, 3)), perm=[0])


# =============================================================================================
family("bad reshape")


@raises("InvalidArgumentError", "Reshape", "6", "[4, 2]")
def reshape_element_count_differs(tf):
    return tf.reshape(tf.ones((2, 3)), [4, 2])


@raises("InvalidArgumentError", "Reshape", "[-1, -1]")
def reshape_two_minus_ones(tf):
    return tf.reshape(tf.ones((2, 3)), [-1, -1])


@raises("InvalidArgumentError", "Reshape", "[-1, 4]", "6")
def reshape_minus_one_does_not_divide(tf):
    return tf.reshape(tf.ones((2, 3)), [-1, 4])


@raises("InvalidArgumentError", "Reshape", "-2")
def reshape_negative_dimension(tf):
    return tf.reshape(tf.ones((2, 3)), [-2, -3])


@raises("InvalidArgumentError", "Reshape", "1.5")
def reshape_float_dimension(tf):
    return tf.reshape(tf.ones((2, 3)), [1.5, 4])


@raises("InvalidArgumentError", "Reshape", "[0, -1]")
def reshape_zero_and_minus_one(tf):
    return tf.reshape(tf.ones((2, 3)), [0, -1])


# =============================================================================================
family("indexing")


@raises("InvalidArgumentError", "GatherV2", "[5]", "(3,)")
def gather_index_out_of_range(tf):
    return tf.gather(tf.constant([1.0, 2.0, 3.0]), [5])


@raises("InvalidArgumentError", "GatherV2", "[-1]", "(3,)")
def gather_negative_index(tf):
    return tf.gather(tf.constant([1.0, 2.0, 3.0]), [-1])


@raises("InvalidArgumentError", "GatherV2", "float32")
def gather_float_indices(tf):
    return tf.gather(tf.constant([1.0, 2.0, 3.0]), tf.constant([0.0, 1.0]))


@raises("InvalidArgumentError", "GatherNd", "[2, 0]", "(2, 2)")
def gather_nd_out_of_range(tf):
    return tf.gather_nd(tf.ones((2, 2)), [[2, 0]])


@raises("InvalidArgumentError", "StridedSlice", "5", "(3,)")
def getitem_out_of_range(tf):
    return tf.constant([1.0, 2.0, 3.0])[5]


@raises("InvalidArgumentError", "StridedSlice", "(3,)")
def getitem_too_many_indices(tf):
    return tf.constant([1.0, 2.0, 3.0])[0, 1]


@raises("TypeError", "StridedSlice", "1.5", "indices")
def getitem_float_index(tf):
    return tf.constant([1.0, 2.0, 3.0])[1.5]


@value([T((3,), "float32", [0.0, 2.0, 0.0])])
def gradient_through_getitem(tf):
    return grad_of(tf, lambda x: x[1] * 2.0, np.float32([1.0, 2.0, 3.0]))


@value(T((2, 3), "float32", [[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]))
def one_hot_out_of_range_index_is_zeros(tf):
    return tf.one_hot([1, 7], 3)


# =============================================================================================
family("dtype names")


@raises("TypeError", "float33")
def constant_unknown_dtype_name(tf):
    return tf.constant(1.0, dtype="float33")


@raises("TypeError", "complex1024")
def cast_unknown_dtype_name(tf):
    return tf.cast(tf.constant(1.0), "complex1024")


_NO_COMPLEX = ("TypeError", "tapeviz tensors are NumPy arrays of real numbers, ints, bools and "
               "strings: complex64/128 and bfloat16 exist as dtype names (comparisons, "
               "as_dtype, is_complex), and making a tensor of one is refused with the fix")


@raises(None, "complex64", "float32", differs=_NO_COMPLEX)
def constant_of_complex64(tf):
    return tf.constant([1.0, 2.0], tf.complex64)


@raises(None, "bfloat16", "float32", differs=_NO_COMPLEX)
def cast_to_bfloat16(tf):
    return tf.cast(tf.constant([1.0, 2.0]), tf.bfloat16)


@raises("TypeError", "fp32")
def as_dtype_unknown_name(tf):
    return tf.as_dtype("fp32")


@raises("TypeError", "int")
def zeros_dtype_python_name_string(tf):
    return tf.zeros(3, dtype="int")


@value(T((3,), "float32", [1.0, 1.0, 1.0]))
def ones_dtype_name_float_is_float32(tf):
    return tf.ones(3, dtype="float")


# =============================================================================================
family("constants")


@raises("ValueError", "[[1, 2], [3]]")
def constant_of_ragged_list(tf):
    return tf.constant([[1, 2], [3]])


@raises("ValueError", "[[1.0], [2.0, 3.0]]")
def constant_of_ragged_float_list(tf):
    return tf.constant([[1.0], [2.0, 3.0]])


@raises("ValueError", "[1, 'a']", differs=None)
def constant_of_mixed_list(tf):
    return tf.constant([1, "a"])


@raises("ValueError", "None")
def constant_of_none(tf):
    return tf.constant(None)


@raises("ValueError", "[1.0, None]")
def constant_with_none_inside(tf):
    return tf.constant([1.0, None])


@raises("TypeError", "6", "(4,)")
def constant_shape_mismatch(tf):
    return tf.constant([1, 2, 3, 4, 5, 6], shape=(4,))


@raises("ValueError", "dict")
def constant_of_dict(tf):
    return tf.constant({"a": 1.0})


@raises("ValueError", "int64", "2**70")
def constant_of_huge_int(tf):
    return tf.constant(2**70)


@raises("ValueError", "[[1, 2], [3]]")
def convert_ragged_list(tf):
    return tf.convert_to_tensor([[1, 2], [3]])


# =============================================================================================
family("other ops")


@raises("InvalidArgumentError", "Range", "0")
def range_with_zero_delta(tf):
    return tf.range(0, 10, 0)


@raises("InvalidArgumentError", "MatrixInverse", "(2, 3)")
def inverse_of_non_square(tf):
    return tf.linalg.inv(tf.ones((2, 3)))


@raises("InvalidArgumentError", "MatrixInverse", "invertible")
def inverse_of_singular(tf):
    return tf.linalg.inv(tf.ones((2, 2)))


@raises("InvalidArgumentError", "MatrixSolve", "invertible", "(2, 2)", "regularise")
def solve_with_singular_matrix(tf):
    return tf.linalg.solve(tf.ones((2, 2)), tf.ones((2, 1)))


# Rank-deficient matrices whose float32 LU (TensorFlow's order of operations) ends on a pivot
# of exactly 0; LAPACK's order of rounding leaves a tiny nonzero pivot on these.
@raises("InvalidArgumentError", "MatrixSolve", "invertible", "float32")
def solve_with_float32_matrix_singular_after_rounding(tf):
    a = tf.constant([[0.4, 0.4, 0.4], [-2.4, 1.2, 0.3], [-0.08, -0.44, -0.35]])
    return tf.linalg.solve(a, tf.ones((3, 1)))


@raises("InvalidArgumentError", "MatrixSolve", "invertible", "adjoint")
def solve_adjoint_with_float32_matrix_singular_after_rounding(tf):
    a = tf.constant([[0.06, -0.36, -0.06], [-0.5, 0.4, 1.3], [-0.1, 0.6, 0.1]])
    return tf.linalg.solve(a, tf.ones((3, 1)), adjoint=True)


@raises("InvalidArgumentError", "MatrixDeterminant", "(3,)")
def det_of_vector(tf):
    return tf.linalg.det(tf.ones(3))


@raises("InvalidArgumentError", "SparseSoftmaxCrossEntropyWithLogits", "5", "[0, 3)")
def sparse_xent_label_out_of_range(tf):
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[5], logits=tf.ones((1, 3)))


@raises("InvalidArgumentError", "SoftmaxCrossEntropyWithLogits", "[2, 3]", "[2, 4]")
def softmax_xent_shapes_differ(tf):
    return tf.nn.softmax_cross_entropy_with_logits(labels=tf.ones((2, 4)),
                                                   logits=tf.ones((2, 3)))


@raises("ValueError", "sigmoid_cross_entropy_with_logits", "(2,)", "(3,)")
def sigmoid_xent_shapes_differ(tf):
    return tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.ones(2), logits=tf.ones(3))


@raises("ValueError", "rate", "1.5")
def dropout_rate_above_one(tf):
    return tf.nn.dropout(tf.ones(3), rate=1.5)


@raises("ValueError", "dropout", "int32")
def dropout_of_int(tf):
    return tf.nn.dropout(tf.constant([1, 2]), rate=0.5)


@value(T((3,), "float32", [2.0, 2.0, 2.0]))
def clip_by_value_min_above_max(tf):
    return tf.clip_by_value(tf.constant([0.0, 5.0, 10.0]), 2.0, 1.0)


@raises("InvalidArgumentError", "OneHot", "-1")
def one_hot_negative_depth(tf):
    return tf.one_hot([0], -1)


@raises("InvalidArgumentError", "zeros", "-1", "[-1, 2]")
def zeros_negative_dimension(tf):
    return tf.zeros([-1, 2])


@raises("TypeError", "clip_by_global_norm", "Tensor")
def clip_by_global_norm_of_tensor(tf):
    return tf.clip_by_global_norm(tf.ones(3), 1.0)


@raises("InvalidArgumentError", "StridedSlice", "0")
def slice_with_zero_step(tf):
    return tf.constant([1.0, 2.0])[::0]


# =============================================================================================
family("kernels per dtype")


@raises("InvalidArgumentError", "Sum", "string")
def reduce_sum_of_strings(tf):
    return tf.reduce_sum(tf.constant(["a", "b"]))


@raises("InvalidArgumentError", "Abs", "string")
def abs_of_string(tf):
    return tf.abs(tf.constant("a"))


@raises("InvalidArgumentError", "Neg", "bool")
def negate_bool(tf):
    return -tf.constant(True)


@raises("InvalidArgumentError", "MatMul", "bool")
def matmul_of_bools(tf):
    return tf.matmul(tf.constant([[True]]), tf.constant([[True]]))


@raises("InvalidArgumentError", "L2Loss", "int32")
def l2_loss_of_int(tf):
    return tf.nn.l2_loss(tf.constant([1, 2]))


@raises("InvalidArgumentError", "clip_by_norm", "int32")
def clip_by_norm_of_int(tf):
    return tf.clip_by_norm(tf.constant([1, 2]), 1.0)


@raises("InvalidArgumentError", "ArgMax", "string")
def argmax_of_strings(tf):
    return tf.argmax(tf.constant(["a", "b"]))


@raises("InvalidArgumentError", "SelectV2", "int32", "bool")
def where_with_int_condition(tf):
    return tf.where(tf.constant([1, 0]), tf.ones(2), tf.zeros(2))


@raises("InvalidArgumentError", "LogSumExp", "int32")
def reduce_logsumexp_of_int(tf):
    return tf.reduce_logsumexp(tf.constant([1, 2]))


@raises("InvalidArgumentError", "MatrixInverse", "int32")
def inverse_of_int_matrix(tf):
    return tf.linalg.inv(tf.constant([[1, 0], [0, 1]]))


@raises("TypeError", "reduce_std", "int32")
def reduce_std_of_int(tf):
    return tf.math.reduce_std(tf.constant([1, 2]))


@raises("InvalidArgumentError", "LogicalAnd", "float32", "bool")
def logical_and_of_floats(tf):
    return tf.logical_and(tf.ones(1), tf.zeros(1))


@raises("InvalidArgumentError", "AddV2", "bool")
def add_bools(tf):
    return tf.constant([True]) + tf.constant([False])


@raises("InvalidArgumentError", "FloorDiv", "int32", "0")
def integer_floordiv_by_zero(tf):
    return tf.constant([1]) // tf.constant([0])


@raises("InvalidArgumentError", "Pow", "int32")
def integer_to_negative_power(tf):
    return tf.pow(tf.constant([2]), tf.constant([-1]))


# =============================================================================================
family("conversions beside a tensor")


@value(T((2,), "float32", [2.0, 2.0]))
def float32_tensor_plus_float64_array(tf):
    return tf.ones(2) + np.ones(2)


@value(T((2,), "float32", [2.5, 3.5]))
def float32_tensor_plus_numpy_float64_scalar(tf):
    return tf.constant([1.0, 2.0]) + np.float64(1.5)


@value(T((2,), "float32", [2.0, 3.0]))
def float32_tensor_plus_python_int_list(tf):
    return tf.ones(2) + [1, 2]


@value(T((1,), "int32", [2]))
def int_tensor_plus_true(tf):
    return tf.constant([1]) + True


@raises("TypeError", "2.0", "int32")
def int_tensor_times_integral_python_float(tf):
    return tf.constant([1, 2]) * 2.0


@raises("InvalidArgumentError", "AddV2", "int32", "float")
def int_tensor_plus_float_list(tf):
    return tf.constant([1]) + [1.5]


@raises("InvalidArgumentError", "AddV2", "int32", "float32")
def add_function_python_list_and_float_tensor(tf):
    return tf.add([1, 2], tf.ones(2))


@raises("InvalidArgumentError", "AddV2", "string")
def float_tensor_plus_python_string(tf):
    return tf.ones(2) + "a"


@raises("TypeError", "ClipByValue", "int32")
def clip_int_tensor_with_float_bounds(tf):
    return tf.clip_by_value(tf.constant([1, 5]), 0.5, 2.5)


# =============================================================================================
family("more shapes and axes")


@value(T((), "float32", INF))
def reduce_min_of_empty(tf):
    return tf.reduce_min(tf.zeros((0,)))


@value(T((), "int32", -2147483648))
def reduce_max_of_empty_int(tf):
    return tf.reduce_max(tf.zeros((0,), tf.int32))


@value(T((2,), "float32", [-INF, -INF]))
def reduce_max_over_empty_axis(tf):
    return tf.reduce_max(tf.zeros((2, 0)), axis=1)


@value(T((0,), "float32", []))
def stack_of_nothing(tf):
    return tf.stack([])


@value(T((0,), "float32", []))
def linspace_of_zero_points(tf):
    return tf.linspace(0.0, 1.0, 0)


@value(T((1, 0), "float32", [[]]))
def one_hot_depth_zero(tf):
    return tf.one_hot([0], 0)


@raises("InvalidArgumentError", "Split", "0")
def split_into_zero_parts(tf):
    return tf.split(tf.ones(4), 0)


@raises("InvalidArgumentError", "Tile", "-1")
def tile_negative_multiple(tf):
    return tf.tile(tf.ones(2), [-1])


@raises("TypeError", "ExpandDims", "0.5")
def expand_dims_float_axis(tf):
    return tf.expand_dims(tf.ones(2), 0.5)


@raises("InvalidArgumentError", "ConcatV2")
def concat_of_nothing(tf):
    return tf.concat([], 0)


@raises("InvalidArgumentError", "Squeeze", "5", "(1, 2)")
def squeeze_axis_out_of_range(tf):
    return tf.squeeze(tf.ones((1, 2)), axis=5)


@raises("InvalidArgumentError", "eye", "-1")
def eye_negative_size(tf):
    return tf.eye(-1)


@raises("InvalidArgumentError", "normal", "-1")
def random_normal_negative_dimension(tf):
    return tf.random.normal([-1])


@raises("TypeError", "zeros", "1.5")
def zeros_float_dimension(tf):
    return tf.zeros([1.5])


@raises("InvalidArgumentError", "Transpose", "[0]", "()")
def transpose_scalar_with_perm(tf):
    return tf.transpose(tf.constant(1.0), perm=[0])


@raises("InvalidArgumentError", "OneHot", "float32")
def one_hot_float_indices(tf):
    return tf.one_hot([0.5], 3)


@raises("InvalidArgumentError", "MatrixDeterminant", "(2, 2, 3)")
def det_of_batch_of_non_square(tf):
    return tf.linalg.det(tf.ones((2, 2, 3)))


@raises("InvalidArgumentError", "MatrixDiagPart", "(3,)")
def trace_of_vector(tf):
    return tf.linalg.trace(tf.ones(3))


@raises("InvalidArgumentError", "MatrixDiagPart", "(3,)")
def diag_part_of_vector(tf):
    return tf.linalg.diag_part(tf.ones(3))


@raises("InvalidArgumentError", "MatMul", "[2, 3]", "[4, 5]")
def tensordot_axes_mismatch(tf):
    return tf.tensordot(tf.ones((2, 3)), tf.ones((4, 5)), 1)


@value(T((), "float32", NAN))
def negative_base_to_fractional_power(tf):
    return tf.pow(tf.constant(-8.0), 1.0 / 3)


@value(T((), "bool", False))
def equality_operator_incompatible_shapes(tf):
    return tf.ones(2) == tf.ones(3)


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


# =============================================================================================
family("arguments of the wrong kind")


@value(T((2, 2), "float32", [[1.0, 1.0], [1.0, 1.0]]))
def concat_of_one_tensor_not_a_list(tf):
    return tf.concat(tf.ones((2, 2)), 0)


@raises("InvalidArgumentError", "GatherNd", "vector", "(2, 2)")
def gather_nd_scalar_indices(tf):
    return tf.gather_nd(tf.ones((2, 2)), 1)


@raises("InvalidArgumentError", "Split", "scalar")
def split_a_scalar(tf):
    return tf.split(tf.constant(1.0), 2)


@raises("TypeError", "type_value", "Tensor")
def cast_to_a_tensor_instead_of_a_dtype(tf):
    return tf.cast(tf.ones((2, 2)), tf.ones((2, 2)))


@raises("InvalidArgumentError", "Fill", "scalar", "(0,)")
def fill_with_a_list(tf):
    return tf.fill((2,), [])


@raises("InvalidArgumentError", "zeros", "vector", "[2, 2, 2]")
def zeros_with_a_matrix_of_dims(tf):
    return tf.zeros(tf.ones((2, 2, 2), tf.int32))


@raises("InvalidArgumentError", "Cumsum", "scalar", "(2, 2)")
def cumsum_with_a_vector_axis(tf):
    return tf.cumsum(tf.ones((2, 2)), axis=tf.constant([0, 1]))


@value(T((2,), "float32", [2.0, 2.0]))
def reduce_sum_with_nested_axis_list(tf):
    return tf.reduce_sum(tf.ones((2, 2)), axis=[[0]])


@value(T((1, 2), "float32", [[1.0, 1.0]]))
def expand_dims_with_one_element_axis_list(tf):
    return tf.expand_dims(tf.ones(2), [0])


@raises("InvalidArgumentError", "perm", "'ab'")
def transpose_with_a_string_perm(tf):
    return tf.transpose(tf.ones((2, 2)), "ab")


@raises("InvalidArgumentError", "shape", "'ab'")
def reshape_to_a_string(tf):
    return tf.reshape(tf.ones((2, 2)), "ab")


@raises("ValueError", "None", "shape")
def reshape_to_none(tf):
    return tf.reshape(tf.ones((2, 2)), None)


@raises("ValueError", "OneHot", "None")
def one_hot_without_depth(tf):
    return tf.one_hot([1], None)


@raises("TypeError", "eye", "num_rows")
def eye_of_a_list(tf):
    return tf.eye([2, 2])


# =============================================================================================
family("tensordot axes")


@raises("ValueError", "tensordot", "(2, 3)", "(3, 2)", "Received 5", "axes <= 2")
def tensordot_axes_larger_than_rank(tf):
    return tf.tensordot(tf.ones((2, 3)), tf.ones((3, 2)), axes=5)


@raises("ValueError", "tensordot", "(2, 3)", "at least 0", "-1")
def tensordot_negative_axes(tf):
    return tf.tensordot(tf.ones((2, 3)), tf.ones((3, 2)), axes=-1)


@raises("ValueError", "tensordot", "1 != 2", "(2, 3)", "(3, 2)")
def tensordot_axis_lists_of_different_lengths(tf):
    return tf.tensordot(tf.ones((2, 3)), tf.ones((3, 2)), axes=[[1], [0, 1]])


@raises("TypeError", "tensordot", "'x'", "(2, 3)")
def tensordot_axes_a_string(tf):
    return tf.tensordot(tf.ones((2, 3)), tf.ones((3, 2)), axes="x")


@raises("IndexError", "tensordot", "axis 2", "(2, 3)", "[-2, 2)")
def tensordot_axis_out_of_range(tf):
    return tf.tensordot(tf.ones((2, 3)), tf.ones((3, 2)), axes=[[2], [0]])


# =============================================================================================
family("random arguments")


@value(T((), "bool", True))
def uniform_min_above_max_flips_the_interval(tf):
    u = tf.random.uniform([100], minval=1.0, maxval=0.0)   # TF: minval + (maxval - minval)·U
    return tf.reduce_all((u >= 0.0) & (u <= 1.0))


@raises("InvalidArgumentError", "RandomUniformInt", "5 >= 1", "[2]", "int32")
def uniform_int_min_above_max(tf):
    return tf.random.uniform([2], minval=5, maxval=1, dtype=tf.int32)


@raises("InvalidArgumentError", "RandomUniformInt", "1 >= 1")
def uniform_int_empty_range(tf):
    return tf.random.uniform([2], minval=1, maxval=1, dtype=tf.int32)


@raises("ValueError", "random.uniform", "string", "float32")
def uniform_of_strings(tf):
    return tf.random.uniform([2], dtype=tf.string)


@raises("ValueError", "random.uniform", "bool", "int64")
def uniform_of_bools(tf):
    return tf.random.uniform([2], dtype=tf.bool)


@raises("InvalidArgumentError", "random.uniform", "-1", "[-1, 2]")
def uniform_negative_dimension(tf):
    return tf.random.uniform([-1, 2])


@raises("InvalidArgumentError", "random.uniform", "[2.5]")
def uniform_float_dimension(tf):
    return tf.random.uniform([2.5])


@raises("TypeError", "random.normal", "int32", "[2]")
def normal_of_ints(tf):
    return tf.random.normal([2], dtype=tf.int32)


@raises("TypeError", "random.normal", "mean", "'x'", "float32")
def normal_string_mean(tf):
    return tf.random.normal([2], mean="x")


@raises("InvalidArgumentError", "random.truncated_normal", "-2", "[-2]")
def truncated_normal_negative_dimension(tf):
    return tf.random.truncated_normal([-2])


@raises("TypeError", "random.truncated_normal", "int32")
def truncated_normal_of_ints(tf):
    return tf.random.truncated_normal([2], dtype=tf.int32)


@raises("TypeError", "seed", "'x'")
def random_normal_string_seed(tf):
    return tf.random.normal([2], seed="x")


# =============================================================================================
family("keras arguments")


@raises("ValueError", "Dense", "units='x'", "str")
def dense_units_a_string(tf):
    return tf.keras.layers.Dense("x")


@raises("ValueError", "Dense", "units=2.5", "float")
def dense_units_a_float(tf):
    return tf.keras.layers.Dense(2.5)


@raises("ValueError", "Dense", "units=None")
def dense_units_none(tf):
    return tf.keras.layers.Dense(None)


@raises("ValueError", "Dense", "string", "(1, 1)")
def dense_on_strings(tf):
    return tf.keras.layers.Dense(2)(tf.constant([["a"]]))


@raises("ValueError", "Dropout", "rate=1.5")
def dropout_layer_rate_above_one(tf):
    return tf.keras.layers.Dropout(1.5)


@raises("ValueError", "Dropout", "rate=-0.1")
def dropout_layer_negative_rate(tf):
    return tf.keras.layers.Dropout(-0.1)


@raises("TypeError", "Dropout", "'x'")
def dropout_layer_rate_a_string(tf):
    return tf.keras.layers.Dropout("x")


@raises("ValueError", "SGD", "learning_rate='x'")
def sgd_learning_rate_a_string(tf):
    return tf.keras.optimizers.SGD(learning_rate="x")


@raises("ValueError", "SGD", "learning_rate=None")
def sgd_learning_rate_none(tf):
    return tf.keras.optimizers.SGD(learning_rate=None)


@raises("ValueError", "Adam", "learning_rate='x'")
def adam_learning_rate_a_string(tf):
    return tf.keras.optimizers.Adam(learning_rate="x")


@raises("ValueError", "SGD", "momentum='x'", "[0, 1]")
def sgd_momentum_a_string(tf):
    return tf.keras.optimizers.SGD(momentum="x")


@raises("ValueError", "Adam", "epsilon=None")
def adam_epsilon_none(tf):
    opt = tf.keras.optimizers.Adam(epsilon=None)     # TF fails at the first update
    v = tf.Variable(1.0)
    return opt.apply_gradients([(tf.constant(1.0), v)])


@raises("InvalidArgumentError", "apply_gradients", "(2,)", "(3,)", "float32")
def apply_gradients_wrong_shape(tf):
    v = tf.Variable([1.0, 2.0])
    return tf.keras.optimizers.SGD(0.1).apply_gradients([(tf.ones(3), v)])


@raises("AttributeError", "minimize", "var_list", "None", differs=(
        "TypeError", "Keras 3 optimizers (TensorFlow 2.16+) have no minimize(); tapeviz keeps "
        "Keras 2's minimize(loss, var_list) and refuses a var_list that is not a list of "
        "variables, naming the argument and the fix"))
def minimize_without_var_list(tf):
    v = tf.Variable(1.0)
    return tf.keras.optimizers.SGD(0.1).minimize(lambda: v * v, var_list=None)


# =============================================================================================
family("perm, casts and variables")


@raises("InvalidArgumentError", "Transpose", "5", "[5, 0]", "(2, 3)")
def transpose_perm_entry_out_of_range(tf):
    return tf.transpose(tf.ones((2, 3)), perm=[5, 0])


@raises("InvalidArgumentError", "Transpose", "[1.0, 0.0]", "(2, 3)")
def transpose_perm_of_floats(tf):
    return tf.transpose(tf.ones((2, 3)), perm=[1.0, 0.0])


@raises("TypeError", "Cast", "None", "float32", "(2,)")
def cast_to_none(tf):
    return tf.cast(tf.ones(2), None)


@raises("ValueError", "Variable", "()", "[5]")
def variable_shape_differs_from_value(tf):
    return tf.Variable(1.0, shape=[5])


@raises("ValueError", "Variable", "(2,)", "[3]")
def variable_vector_shape_differs(tf):
    return tf.Variable([1.0, 2.0], shape=[3])


@raises("TypeError", "Variable", "'ab'", "shape")
def variable_shape_a_string(tf):
    return tf.Variable([1.0, 2.0], shape="ab")


@raises("ValueError", "Variable", "float64", "float32")
def variable_dtype_conflicts_with_tensor(tf):
    return tf.Variable(tf.constant(1.0), dtype=tf.float64)


@raises("ValueError", "Variable", "name", "5")
def variable_name_not_a_string(tf):
    return tf.Variable(1.0, name=5)


# =============================================================================================
family("reduction axes")


@raises("InvalidArgumentError", "Sum", "duplicate dimension: 0", "[0, 0]", "(2, 3)")
def reduce_sum_axis_listed_twice(tf):
    return tf.reduce_sum(tf.ones((2, 3)), axis=[0, 0])


@raises("InvalidArgumentError", "Mean", "duplicate dimension: 1", "[1, -1]")
def reduce_mean_axis_and_its_negative(tf):
    return tf.reduce_mean(tf.ones((2, 3)), axis=[1, -1])


@raises("InvalidArgumentError", "Max", "duplicate dimension: 0")
def reduce_max_axis_listed_twice(tf):
    return tf.reduce_max(tf.ones((2, 3)), axis=[0, 0])


@raises("InvalidArgumentError", "Mean", "duplicate dimension: 0")
def reduce_std_axis_listed_twice(tf):
    return tf.math.reduce_std(tf.ones((2, 3)), axis=[0, 0])


@raises("InvalidArgumentError", "Sum", "'0'", "(2, 3)")
def reduce_sum_axis_a_string(tf):
    return tf.reduce_sum(tf.ones((2, 3)), axis="0")


@raises("ValueError", "Sum", "None", "(2, 3)")
def reduce_sum_axis_list_with_none(tf):
    return tf.reduce_sum(tf.ones((2, 3)), axis=[None])


@raises("TypeError", "ArgMax", "[0, 1]", "(2, 3)")
def argmax_over_two_axes(tf):
    return tf.argmax(tf.ones((2, 3)), axis=[0, 1])


@raises("InvalidArgumentError", "ArgMax", "output_type", "float32")
def argmax_float_output_type(tf):
    return tf.argmax(tf.ones((2, 3)), output_type=tf.float32)


# =============================================================================================
family("clipping arguments")


@value(T((2,), "float32", [0.0, 0.0]))
def clip_by_norm_negative_clip_norm_is_zero(tf):
    return tf.clip_by_norm(tf.constant([3.0, 4.0]), -1.0)


@value([T((2,), "float32", [0.0, 0.0])])
def clip_by_norm_negative_tensor_clip_norm(tf):
    return [tf.clip_by_norm(tf.constant([3.0, 4.0]), tf.constant(-2.0))]


@raises("TypeError", "clip_by_norm", "'x'", "(2,)")
def clip_by_norm_string_clip_norm(tf):
    return tf.clip_by_norm(tf.constant([3.0, 4.0]), "x")


@raises("InvalidArgumentError", "Pack", "float32", "float64")
def clip_by_global_norm_mixed_dtypes(tf):
    return tf.clip_by_global_norm([tf.constant([3.0]), tf.constant([4.0], tf.float64)], 1.0)


# =============================================================================================
family("object arrays")


@raises("ValueError", "Unsupported object type int", "(2,)", "1")
def constant_of_object_array_mixing_numbers_and_text(tf):
    return tf.constant(np.array([1, "a"], dtype=object))


@raises("ValueError", "Unsupported object type object", "(1,)")
def constant_of_object_array_of_objects(tf):
    return tf.constant(np.array([object()], dtype=object))


@raises("ValueError", "Unsupported object type float", "astype")
def constant_of_object_array_of_floats(tf):
    return tf.constant(np.array([1.0, 2.0], dtype=object))


@raises("ValueError", "Unsupported object type NoneType")
def constant_of_object_array_of_none(tf):
    return tf.constant(np.array([None], dtype=object))


@raises("ValueError", "Unsupported object type object")
def variable_of_object_array(tf):
    return tf.Variable(np.array([object()], dtype=object))


@raises("ValueError", "Unsupported object type int")
def tensor_plus_object_array(tf):
    return tf.ones(2) + np.array([1, "a"], dtype=object)


# =============================================================================================
family("op attributes")


@raises("TypeError", "OneHot", "depth=2.5", "(1,)")
def one_hot_float_depth(tf):
    return tf.one_hot([1], 2.5)


@raises("TypeError", "OneHot", "depth='x'")
def one_hot_string_depth(tf):
    return tf.one_hot([1], "x")


@raises("TypeError", "OneHot", "on_value='x'", "float32")
def one_hot_string_on_value(tf):
    return tf.one_hot([1], 3, on_value="x")


@raises("InvalidArgumentError", "Tile", "[1.5]", "(2,)")
def tile_float_multiples(tf):
    return tf.tile(tf.ones(2), [1.5])


@raises("InvalidArgumentError", "SplitV", "[5, -1]", "(4,)")
def split_sizes_leave_less_than_nothing(tf):
    return tf.split(tf.ones(4), [5, -1])


@raises("InvalidArgumentError", "SplitV", "[-1, -1]", "(4,)")
def split_sizes_two_minus_ones(tf):
    return tf.split(tf.ones(4), [-1, -1])


@raises("InvalidArgumentError", "SplitV", "-2", "[6, -2]")
def split_size_below_minus_one(tf):
    return tf.split(tf.ones(4), [6, -2])


@raises("InvalidArgumentError", "LinSpace", "-1")
def linspace_negative_num(tf):
    return tf.linspace(0.0, 1.0, -1)


@raises("TypeError", "linspace", "`num`", "2.5")
def linspace_float_num(tf):
    return tf.linspace(0.0, 1.0, 2.5)


@raises("TypeError", "range", "0.0", "int32")
def range_of_floats_as_int32(tf):
    return tf.range(0.0, 2.0, 0.5, dtype=tf.int32)


@raises("TypeError", "LeakyRelu", "'alpha'", "'x'", "(2,)")
def leaky_relu_string_alpha(tf):
    return tf.nn.leaky_relu(tf.ones(2), alpha="x")


@raises("InvalidArgumentError", "Softmax", "0.5", "(2,)")
def softmax_float_axis(tf):
    return tf.nn.softmax(tf.ones(2), axis=0.5)


@raises("InvalidArgumentError", "GatherV2", "batch_dims=3", "(2, 3)", "(1, 1)")
def gather_batch_dims_above_rank(tf):
    return tf.gather(tf.ones((2, 3)), [[0]], batch_dims=3)


@raises("TypeError", "Cumsum", "'reverse'", "'x'")
def cumsum_string_reverse(tf):
    return tf.cumsum(tf.ones(3), reverse="x")


@raises("TypeError", "Cumsum", "'exclusive'", "'x'")
def cumsum_string_exclusive(tf):
    return tf.cumsum(tf.ones(3), exclusive="x")


@raises("TypeError", "MatMul", "'transpose_a'", "'x'", "(2, 2)")
def matmul_string_transpose_a(tf):
    return tf.matmul(tf.ones((2, 2)), tf.ones((2, 2)), transpose_a="x")


@raises("TypeError", "ClipByValue", "'a'", "float32", "(2,)")
def clip_by_value_string_bound(tf):
    return tf.clip_by_value(tf.constant([1.0, 5.0]), "a", 2.0)


@raises("ValueError", "ClipByValue", "(2,)", "(2, 2)")
def clip_by_value_bound_would_broadcast_t(tf):
    return tf.clip_by_value(tf.ones(2), tf.zeros((2, 2)), 1.0)


@raises("TypeError", "clip_by_global_norm", "'x'")
def clip_by_global_norm_string_clip_norm(tf):
    return tf.clip_by_global_norm([tf.ones(2)], "x")


@raises("TypeError", "Cast", "int", "(2,)")
def cast_to_python_int_type(tf):
    return tf.cast(tf.constant([1.5, 2.5]), int)


@raises("TypeError", "Cast", "str", "float32")
def cast_to_python_str_type(tf):
    return tf.cast(tf.constant([1.5, 0.0]), str)


@raises("TypeError", "random.uniform", "None", "[2]")
def uniform_dtype_none(tf):
    return tf.random.uniform([2], dtype=None)


@raises("InvalidArgumentError", "Sum", "float32", "Tidx")
def reduce_sum_float_tensor_axis(tf):
    return tf.reduce_sum(tf.ones((2, 3)), axis=tf.constant(0.0))


@raises("ValueError", "ExpandDims", "None", "(2,)")
def expand_dims_axis_none(tf):
    return tf.expand_dims(tf.ones(2), None)


@raises("InvalidArgumentError", "fill", "[2.5]")
def fill_float_dims(tf):
    return tf.fill([2.5], 1.0)


@raises("ValueError", "dropout", "rate='x'", "(2,)")
def dropout_string_rate(tf):
    return tf.nn.dropout(tf.ones(2), rate="x")


@raises("ValueError", "norm", "axis", "[0, 1, 2]", "(2, 2, 2)")
def norm_over_three_axes(tf):
    return tf.norm(tf.ones((2, 2, 2)), axis=[0, 1, 2])


@value(T((1,), "float32", [0.6931471824645996]))
def softmax_cross_entropy_casts_int_labels(tf):
    return tf.nn.softmax_cross_entropy_with_logits(labels=tf.constant([[1, 0]]),
                                                   logits=tf.constant([[0.5, 0.5]]))


# =============================================================================================
family("convolutions and pooling")


@raises("InvalidArgumentError", "Conv2D", "3 vs 2", "(1, 5, 5, 3)", "(3, 3, 2, 4)")
def conv2d_filters_for_other_channels(tf):
    return tf.nn.conv2d(tf.ones((1, 5, 5, 3)), tf.ones((3, 3, 2, 4)), 1, "VALID")


@raises("InvalidArgumentError", "Conv2D", "negative", "input_size: 5",
        "effective_filter_size: 7")
def conv2d_kernel_larger_than_the_valid_input(tf):
    return tf.nn.conv2d(tf.ones((1, 5, 5, 1)), tf.ones((7, 7, 1, 1)), 1, "VALID")


@raises("InvalidArgumentError", "Conv2D", "padding", "same")
def conv2d_padding_in_lower_case(tf):
    return tf.nn.conv2d(tf.ones((1, 5, 5, 1)), tf.ones((3, 3, 1, 1)), 1, "same")


@raises("InvalidArgumentError", "Conv2D", "float64", "float32")
def conv2d_of_mixed_float_dtypes(tf):
    return tf.nn.conv2d(tf.ones((1, 5, 5, 1), tf.float64), tf.ones((3, 3, 1, 1)), 1, "VALID")


@raises("InvalidArgumentError", "Conv2DBackpropInput", "computed", "(1, 5, 5, 3)")
def conv2d_transpose_to_an_output_shape_that_does_not_fit(tf):
    return tf.nn.conv2d_transpose(tf.ones((1, 5, 5, 3)), tf.ones((3, 3, 2, 3)), [1, 7, 7, 2], 2,
                                  "SAME")


@raises("InvalidArgumentError", "AvgPool", "int32")
def avg_pool_of_integers(tf):
    return tf.nn.avg_pool2d(tf.ones((1, 4, 4, 1), tf.int32), 2, 2, "VALID")


@raises("TypeError", "padding", "[[0, 0], [1, 1], [1, 1], [0, 0]]")
def avg_pool_with_explicit_padding(tf):
    return tf.nn.avg_pool2d(tf.ones((1, 4, 4, 1)), 2, 2, [[0, 0], [1, 1], [1, 1], [0, 0]])


@raises("ValueError", "conv2d", "min_ndim=4", "ndim=3", "(5, 5, 1)")
def conv2d_layer_on_an_image_without_a_batch_axis(tf):
    return _keras(tf).layers.Conv2D(2, 3, name="conv2d")(tf.ones((5, 5, 1)))


@raises("ValueError", "expected axis -1", "value 3", "(1, 5, 5, 2)")
def conv2d_layer_called_on_other_channels(tf):
    layer = _keras(tf).layers.Conv2D(2, 3)
    layer(tf.ones((1, 5, 5, 3)))
    return layer(tf.ones((1, 5, 5, 2)))


@raises("ValueError", "Invalid value for `axis`", "inputs.rank=2", "axis=(5,)", "(2, 3)")
def batch_normalization_on_an_axis_the_input_lacks(tf):
    return _keras(tf).layers.BatchNormalization(axis=5)(tf.ones((2, 3)))


# =============================================================================================
family("keras layers, losses, metrics, initializers")


@raises("ValueError", "Sequential", "5", "int")
def sequential_of_a_number(tf):
    return tf.keras.Sequential([5])


@raises("ValueError", "categorical_crossentropy", "(2, 3)", "(2, 4)")
def categorical_crossentropy_shapes_differ(tf):
    return tf.keras.losses.CategoricalCrossentropy()(tf.ones((2, 3)), tf.ones((2, 4)))


@raises("InvalidArgumentError", "accuracy", "[2]", "[3]")
def accuracy_metric_shapes_differ(tf):
    m = tf.keras.metrics.Accuracy()
    m.update_state([1, 2], [1, 2, 3])
    return m.result()


@raises("ValueError", "Flatten", "ndim=0")
def flatten_a_scalar(tf):
    return tf.keras.layers.Flatten()(tf.constant(1.0))


@raises("UnimplementedError", "Adam", "beta_1='x'", differs=(
        "ValueError", "Keras takes any beta_1 when the optimizer is made and fails at the first "
        "update, inside a cast; tapeviz refuses a non-number when the optimizer is made, naming "
        "the argument and the fix"))
def adam_beta_1_a_string(tf):
    opt = tf.keras.optimizers.Adam(beta_1="x")
    return opt.apply_gradients([(tf.constant(1.0), tf.Variable(1.0))])


@raises("UnimplementedError", "Constant", "'x'", "float32")
def constant_initializer_of_a_string(tf):
    return tf.keras.initializers.Constant("x")((2,))


@raises("InvalidArgumentError", "RandomNormal", "-1")
def random_normal_initializer_negative_shape(tf):
    return tf.keras.initializers.RandomNormal()((-1,))


@raises("UnimplementedError", "mean", "string", "b'x'")
def mean_metric_of_a_string(tf):
    m = tf.keras.metrics.Mean()
    m.update_state("x")
    return m.result()


# =============================================================================================
family("keras functional models and fit")
# Checked against Keras 2 (tf-keras), as tests/golden: TensorFlow 2.16+ makes `tf.keras`
# Keras 3, whose messages and some classes differ (a ValueError for fit before compile).


def _keras(tf):
    """`tf.keras` under tapeviz; tf-keras (Keras 2) under real TensorFlow."""
    if tf.__name__ == "tensorflow":
        import tf_keras
        return tf_keras
    return tf.keras


def _two_input_model(tf):
    keras = _keras(tf)
    a = keras.Input(shape=(3,), name="a")
    b = keras.Input(shape=(2,), name="b")
    joined = keras.layers.Concatenate()([keras.layers.Dense(4)(a), b])
    return keras.Model([a, b], keras.layers.Dense(1)(joined), name="two_in")


@raises("ValueError", "Input 0", "two_in", "(None, 3)", "(2, 4)")
def functional_model_called_with_the_wrong_width(tf):
    return _two_input_model(tf)([tf.ones((2, 4)), tf.ones((2, 2))])


@raises("ValueError", "two_in", "expects 2 input(s)", "received 1")
def functional_model_called_with_one_of_two_inputs(tf):
    return _two_input_model(tf)(tf.ones((2, 3)))


@raises("ValueError", "Graph disconnected", "'a'")
def functional_model_missing_an_input(tf):
    keras = _keras(tf)
    a = keras.Input(shape=(3,), name="a")
    b = keras.Input(shape=(2,), name="b")
    out = keras.layers.Concatenate()([a, b])
    return keras.Model(b, out)


@raises("TypeError", "TypeSpec", "object")
def lambda_layer_returning_an_object(tf):
    keras = _keras(tf)
    return keras.layers.Lambda(lambda t: object())(keras.Input(shape=(3,)))


@raises("NotImplementedError", "numpy", "lambda")
def lambda_layer_using_numpy_on_a_symbolic_input(tf):
    keras = _keras(tf)
    return keras.layers.Lambda(lambda t: np.asarray(t) * 2)(keras.Input(shape=(3,)))


@raises("ValueError", "tf.math.reduce_sum", "Invalid reduction dimension 5", "2 dimensions")
def tf_function_on_a_symbolic_input_with_a_bad_axis(tf):
    keras = _keras(tf)
    return tf.reduce_sum(keras.Input(shape=(3,)), axis=5)


@raises("RuntimeError", "You must compile your model before training/testing",
        "model.compile(optimizer, loss)")
def fit_before_compile(tf):
    keras = _keras(tf)
    model = keras.Sequential([keras.layers.Dense(1)])
    return model.fit(np.ones((4, 2)), np.ones((4, 1)), verbose=0)


@raises("RuntimeError", "You must compile your model before training/testing")
def evaluate_before_compile(tf):
    keras = _keras(tf)
    model = keras.Sequential([keras.layers.Dense(1)])
    return model.evaluate(np.ones((4, 2)), np.ones((4, 1)), verbose=0)


@raises("ValueError", "Unknown optimizer", "'adamx'")
def compile_with_an_unknown_optimizer_name(tf):
    keras = _keras(tf)
    model = keras.Sequential([keras.layers.Dense(1)])
    return model.compile(optimizer="adamx", loss="mse")


@raises("ValueError", "Unknown loss function", "'msex'")
def fit_with_an_unknown_loss_name(tf):
    keras = _keras(tf)
    model = keras.Sequential([keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="msex")      # TensorFlow raises at the first step
    return model.fit(np.ones((4, 2)), np.ones((4, 1)), verbose=0)


@raises("ValueError", "`y` argument is not supported when using dataset")
def fit_a_dataset_with_separate_targets(tf):
    keras = _keras(tf)
    model = keras.Sequential([keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    data = tf.data.Dataset.from_tensor_slices(np.ones((4, 2), np.float32)).batch(2)
    return model.fit(data, np.ones((4, 1)), verbose=0)


@raises("ValueError", "Data cardinality is ambiguous", "4", "3")
def fit_arrays_of_different_lengths(tf):
    keras = _keras(tf)
    model = keras.Sequential([keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    return model.fit(np.ones((4, 2)), np.ones((3, 1)), verbose=0)


# =============================================================================================
family("out of memory")
# Shapes far beyond any machine's address space (10**14 elements and more), so the
# allocation fails at once everywhere instead of paging.


@raises("ResourceExhaustedError", "AddV2", "OOM", "(10000000, 10000000)", "float32",
        "400,000,000,000,000 bytes")
def broadcast_to_an_impossible_size(tf):
    return tf.ones([10**7, 1]) + tf.ones([1, 10**7])


@raises("ResourceExhaustedError", "MatMul", "(10000000, 10000000)", "float32", "bytes")
def outer_product_of_an_impossible_size(tf):
    return tf.matmul(tf.ones([10**7, 1]), tf.ones([1, 10**7]))


@raises("ResourceExhaustedError", "zeros", "(100000000, 100000000)", "float32",
        "40,000,000,000,000,000 bytes")
def zeros_of_an_impossible_size(tf):
    return tf.zeros([10**8, 10**8])


# =============================================================================================
# the oracle: run every case with real TensorFlow and report where the table disagrees


def outcome(fn, module):
    try:
        result = fn(module)
    except Exception as exc:  # noqa: BLE001  (any class is an answer here)
        return ("raises", type(exc).__name__, str(exc).splitlines()[0][:160] if str(exc) else "")
    try:
        return ("value", summarize(result), "")
    except Exception as exc:  # noqa: BLE001  (TF's rank > 64 tensors have no NumPy value)
        return ("value", f"<no NumPy value: {type(exc).__name__}>", str(exc)[:160])


def _literal(x) -> str:
    text = repr(x)
    return text.replace("nan", "NAN").replace("inf", "INF")


def main():
    import os
    import sys
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    bad = 0
    for case in CASES:
        kind, what, text = outcome(case.fn, tf)
        if case.tf_raises is not None:
            ok = kind == "raises" and what == case.tf_raises
        elif case.differs is not None:
            ok = kind == "value"          # TensorFlow computes what tapeviz refuses
        else:
            wanted = case.expect if getattr(case, "tf_value", None) is None else case.tf_value
            ok = kind == "value" and same(what, wanted)
        if not ok or "-v" in sys.argv:
            bad += not ok
            shown = what if kind == "raises" else _literal(what)
            print(f"{'ok  ' if ok else 'DIFF'} {case.id}: TF {kind} {shown} {text}")
    print(f"{len(CASES)} cases, {bad} disagree with TensorFlow {tf.__version__}")


if __name__ == "__main__":
    main()
