"""Bad axis, perm and reshape arguments, reduction axes, indexing."""
from __future__ import annotations

import numpy as np

from .case_table import T, family, grad_of, raises, value


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


@raises("ValueError", "unstack", "scalar", "float32")
def unstack_a_scalar(tf):
    return tf.unstack(tf.constant(1.0))


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


@raises("InvalidArgumentError", "GatherNd", "3", "(2, 2)", "(1, 3)")
def gather_nd_index_longer_than_the_rank(tf):
    return tf.gather_nd(tf.ones((2, 2)), [[0, 0, 0]])


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
