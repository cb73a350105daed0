# tf.linalg.inv and tf.linalg.det where the LU factorization decides: TensorFlow factors with
# partial pivoting (Eigen's PartialPivLU) in the matrix's dtype; inv refuses a matrix with a
# zero pivot, det is the permutation's sign times the pivots' signs times exp(sum of log|pivot|)
# (so a zero pivot gives +0.0 or -0.0, reported here through 1/det). The rank-deficient float32
# and float64 matrices below are ones where LAPACK (NumPy) and that LU disagree on singular.

F32, F64 = tf.float32, tf.float64


def inv_det(name, matrix, dtype):
    x = tf.constant(matrix, dtype)
    report(name + ".det", tf.linalg.det(x))
    report(name + ".one_over_det", 1.0 / tf.linalg.det(x))
    expect_error(name + ".inv", lambda: tf.linalg.inv(x))


SINGULAR = [[1.0, 2.0], [2.0, 4.0]]                       # a row swap: det is -0.0
for dtype in (F32, F64):
    inv_det("singular_swapped_" + dtype.name, SINGULAR, dtype)
    inv_det("singular_unswapped_" + dtype.name, [[2.0, 4.0], [1.0, 2.0]], dtype)
    inv_det("singular_negative_pivot_" + dtype.name, [[-2.0, 4.0], [1.0, -2.0]], dtype)
    inv_det("zeros_" + dtype.name, [[0.0, 0.0], [0.0, 0.0]], dtype)
    inv_det("one_to_nine_" + dtype.name, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]],
            dtype)
    inv_det("near_singular_" + dtype.name, [[1.0, 1.0], [1.0, 1.0 + 1e-7]], dtype)
    inv_det("nearer_singular_" + dtype.name, [[1.0, 1.0], [1.0, 1.0 + 1e-12]], dtype)
    inv_det("swap_" + dtype.name, [[0.0, 1.0], [1.0, 0.0]], dtype)
    inv_det("nan_" + dtype.name, [[float("nan"), 1.0], [1.0, 1.0]], dtype)
    inv_det("inf_" + dtype.name, [[float("inf"), 1.0], [1.0, 1.0]], dtype)
    inv_det("overflowing_det_" + dtype.name, [[1e30, 0.0, 0.0], [0.0, 1e30, 0.0],
                                              [0.0, 0.0, 1e30]], dtype)

# rank-deficient products B @ C whose LU pivot is 0 in one method and not in the other
inv_det("lapack_invertible_lu_singular_float32",
        [[-0.20000000298023224, -0.4000000059604645, 0.4000000059604645],
         [-0.30000001192092896, 0.30000001192092896, 0.30000001192092896],
         [0.20000000298023224, -0.20000000298023224, -0.20000000298023224]], F32)
inv_det("lapack_invertible_lu_singular_float32_4x4",
        [[-1.1428571939468384, 1.0, 1.7142857313156128, 0.7142857313156128],
         [-0.1428571492433548, 0.0, 1.2857142686843872, 0.5714285969734192],
         [0.5714285969734192, -0.2857142984867096, 0.0, 1.2857142686843872],
         [-0.5714285969734192, -0.1428571492433548, 3.4285714626312256, 0.1428571492433548]],
        F32)
inv_det("lapack_singular_lu_invertible_float64",
        [[-0.06666666666666667, -0.4666666666666667, -0.2, 0.26666666666666666],
         [-0.4666666666666666, -0.5999999999999999, -0.06666666666666668, 1.3333333333333333],
         [0.13333333333333333, 0.13333333333333333, 0.2, -0.2],
         [0.39999999999999997, 0.7999999999999999, 0.2, -1.2]], F64)

# batches: one singular matrix makes inv refuse the whole batch; det is per matrix
for dtype in (F32, F64):
    batch = [[[4.0, 7.0], [2.0, 6.0]], SINGULAR]
    inv_det("batch_with_singular_" + dtype.name, batch, dtype)
    inv_det("batch_invertible_" + dtype.name,
            [[[4.0, 7.0], [2.0, 6.0]], [[0.0, 2.0], [3.0, 1.0]]], dtype)
    report("batch_invertible_" + dtype.name + ".inv_value",
           tf.linalg.inv(tf.constant([[[4.0, 7.0], [2.0, 6.0]], [[0.0, 2.0], [3.0, 1.0]]], dtype)))
    report("empty_" + dtype.name + ".det", tf.linalg.det(tf.zeros([0, 0], dtype)))
    report("empty_" + dtype.name + ".inv", tf.linalg.inv(tf.zeros([0, 0], dtype)))
    report("empty_batch_" + dtype.name + ".det", tf.linalg.det(tf.zeros([0, 3, 3], dtype)))

# adjoint=True inverts the (conjugate) transpose
M = tf.constant([[1.0, 2.0], [3.0, 4.0]], F64)
report("inv_adjoint", tf.linalg.inv(M, adjoint=True))
report("inv_adjoint_float32", tf.linalg.inv(tf.cast(M, F32), adjoint=True))


def inv_grad(x, adjoint):
    with tf.GradientTape() as tape:
        tape.watch(x)
        weights = tf.constant([[1.0, 2.0], [3.0, 4.0]], x.dtype)
        y = tf.reduce_sum(tf.linalg.inv(x, adjoint=adjoint) * weights)
    return tape.gradient(y, x)


report("inv_adjoint_grad", inv_grad(tf.constant([[4.0, 7.0], [2.0, 6.0]], F64), True))


def det_grad(matrix, dtype):
    x = tf.constant(matrix, dtype)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.linalg.det(x)
    return tape.gradient(y, x)


report("det_grad_near_singular_float64", det_grad([[1.0, 1.0], [1.0, 1.0 + 1e-7]], F64))
report("det_grad_near_singular_float32", det_grad([[1.0, 1.0], [1.0, 1.0 + 1e-7]], F32))
expect_error("det_grad_lu_singular_float32",
             lambda: det_grad([[-0.20000000298023224, -0.4000000059604645, 0.4000000059604645],
                               [-0.30000001192092896, 0.30000001192092896, 0.30000001192092896],
                               [0.20000000298023224, -0.20000000298023224, -0.20000000298023224]],
                              F32))

# a NaN pivot: Eigen takes the first largest magnitude, so a NaN is the pivot only where it
# comes first in its column; inv and solve refuse only where the first pivot is NaN
for name, m in [("first", [[float("nan"), 1.0], [1.0, 1.0]]),
                ("later_row", [[1.0, 1.0], [float("nan"), 1.0]]),
                ("later_column", [[1.0, float("nan")], [1.0, 1.0]])]:
    expect_error("nan_" + name + ".inv", lambda: tf.linalg.inv(tf.constant(m)))
    expect_error("nan_" + name + ".solve",
                 lambda: tf.linalg.solve(tf.constant(m), tf.ones([2, 1])))
    report("nan_" + name + ".det", tf.linalg.det(tf.constant(m)))
