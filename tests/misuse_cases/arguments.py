"""Arguments of the wrong kind: constants, Python values beside a tensor, random and clipping arguments, variables."""
from __future__ import annotations

import numpy as np

from .case_table import T, family, raises, value


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
family("arguments of the wrong kind")


@raises("ValueError", "where", "x", "(1,)")
def where_with_one_branch(tf):
    return tf.where(tf.constant([True]), x=tf.constant([1.0]))


@raises("ValueError", "sparse_softmax_cross_entropy_with_logits", "(2,)", "(3, 4)")
def sparse_cross_entropy_labels_of_another_batch(tf):
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([0, 1]),
                                                          logits=tf.ones((3, 4)))


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
