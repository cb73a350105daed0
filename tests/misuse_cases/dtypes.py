"""dtype mixes, kernels TensorFlow lacks for a dtype, dtype names, casts."""
from __future__ import annotations

from .case_table import T, family, raises, value


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
