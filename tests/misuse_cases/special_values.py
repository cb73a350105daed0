"""NaN, Inf, empty arrays, 0-d versus 1-element, huge ranks, object arrays, impossible sizes."""
from __future__ import annotations

import numpy as np

from .case_table import INF, NAN, T, family, grad_of, raises, value


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
