"""The rarer ops, op attributes, convolutions and pooling."""
from __future__ import annotations

from .case_table import T, family, keras_of, raises, value


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
    return keras_of(tf).layers.Conv2D(2, 3, name="conv2d")(tf.ones((5, 5, 1)))


@raises("ValueError", "expected axis -1", "value 3", "(1, 5, 5, 2)")
def conv2d_layer_called_on_other_channels(tf):
    layer = keras_of(tf).layers.Conv2D(2, 3)
    layer(tf.ones((1, 5, 5, 3)))
    return layer(tf.ones((1, 5, 5, 2)))


@raises("ValueError", "Invalid value for `axis`", "inputs.rank=2", "axis=(5,)", "(2, 3)")
def batch_normalization_on_an_axis_the_input_lacks(tf):
    return keras_of(tf).layers.BatchNormalization(axis=5)(tf.ones((2, 3)))
