"""Shapes that do not fit: broadcasting, matmul, concat/split, tensordot axes."""
from __future__ import annotations

from .case_table import INF, NAN, T, family, raises, value


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
