# tf.nn.conv2d, conv2d_transpose, max_pool2d/avg_pool2d (and max_pool/avg_pool), moments,
# batch_normalization: values, gradients, dtypes and error classes
x = tf.constant(np.sin(np.arange(2 * 5 * 4 * 3) * 0.7).reshape(2, 5, 4, 3), tf.float32)
w = tf.constant(np.cos(np.arange(3 * 2 * 3 * 2) * 1.3).reshape(3, 2, 3, 2), tf.float32)


def grads(f, *inputs):
    with tf.GradientTape() as tape:
        for t in inputs:
            tape.watch(t)
        y = f(*inputs)
        weights = tf.reshape(tf.cos(tf.cast(tf.range(tf.size(y)), y.dtype)), tf.shape(y))
        loss = tf.reduce_sum(y * weights)
    return [y] + tape.gradient(loss, list(inputs))


for name, f in [
        ("conv.same", lambda a, b: tf.nn.conv2d(a, b, 1, "SAME")),
        ("conv.valid_s2", lambda a, b: tf.nn.conv2d(a, b, 2, "VALID")),
        ("conv.strides_hw", lambda a, b: tf.nn.conv2d(a, b, [1, 2, 1, 1], "SAME")),
        ("conv.explicit", lambda a, b: tf.nn.conv2d(a, b, [2, 1], [[0, 0], [1, 2], [0, 1],
                                                                   [0, 0]])),
        ("conv_transpose.same", lambda a, b: tf.nn.conv2d_transpose(
            tf.nn.conv2d(a, b, 2, "SAME"), b, [2, 5, 4, 3], 2, "SAME")),
        ("conv_transpose.valid", lambda a, b: tf.nn.conv2d_transpose(
            tf.nn.conv2d(a, b, [2, 1], "VALID"), b, [2, 5, 4, 3], [2, 1], "VALID")),
]:
    report(name, grads(f, x, w))

report("conv.dilated.value", tf.nn.conv2d(x, w, 1, "SAME", dilations=2))
report("conv.dilated_s2.value", tf.nn.conv2d(x, w, 2, "VALID", dilations=[2, 1]))
report("conv.float64", tf.nn.conv2d(tf.cast(x, tf.float64), tf.cast(w, tf.float64), 1, "VALID"))
report("conv.int32", tf.nn.conv2d(tf.reshape(tf.range(16), (1, 4, 4, 1)),
                                  tf.ones((2, 2, 1, 1), tf.int32), 1, "VALID"))
report("conv.numpy_inputs", tf.nn.conv2d(x.numpy(), w.numpy(), 1, "VALID"))
report("conv.shape_big_kernel_same", list(tf.nn.conv2d(x, tf.ones((7, 7, 3, 1)), 1,
                                                       "SAME").shape))
expect_error("conv.lowercase_padding", lambda: tf.nn.conv2d(x, w, 1, "same"))
expect_error("conv.unknown_padding", lambda: tf.nn.conv2d(x, w, 1, "FULL"))
expect_error("conv.depth_mismatch", lambda: tf.nn.conv2d(x, tf.ones((3, 3, 2, 4)), 1, "VALID"))
expect_error("conv.kernel_too_big", lambda: tf.nn.conv2d(x, tf.ones((7, 7, 3, 1)), 1, "VALID"))
expect_error("conv.batch_stride", lambda: tf.nn.conv2d(x, w, [2, 1, 1, 1], "VALID"))
expect_error("conv.padding_batch_axis", lambda: tf.nn.conv2d(
    x, w, 1, [[1, 0], [1, 2], [0, 1], [0, 0]]))
expect_error("conv.dtype_mismatch", lambda: tf.nn.conv2d(tf.cast(x, tf.float64), w, 1, "VALID"))
expect_error("conv_transpose.wrong_output_shape", lambda: tf.nn.conv2d_transpose(
    x, tf.ones((3, 3, 2, 3)), [2, 7, 7, 2], 2, "SAME"))
expect_error("conv_transpose.dilations", lambda: tf.nn.conv2d_transpose(
    x, tf.ones((3, 3, 2, 3)), [2, 9, 9, 2], 1, "VALID", dilations=2))

for name, f in [
        ("max_pool2d.valid", lambda a: tf.nn.max_pool2d(a, 2, 2, "VALID")),
        ("max_pool2d.same3", lambda a: tf.nn.max_pool2d(a, 3, 2, "SAME")),
        ("max_pool2d.explicit", lambda a: tf.nn.max_pool2d(a, 2, [1, 2],
                                                           [[0, 0], [1, 0], [1, 1], [0, 0]])),
        ("max_pool.rank4", lambda a: tf.nn.max_pool(a, [2, 3], 1, "SAME")),
        ("max_pool.rank3", lambda a: tf.nn.max_pool(a[0], 2, 1, "SAME")),
        ("avg_pool2d.valid", lambda a: tf.nn.avg_pool2d(a, 2, 2, "VALID")),
        ("avg_pool2d.same", lambda a: tf.nn.avg_pool2d(a, [3, 2], 2, "SAME")),
        ("avg_pool.rank4", lambda a: tf.nn.avg_pool(a, 2, [1, 2], "SAME")),
        ("avg_pool.rank3", lambda a: tf.nn.avg_pool(a[1], 3, 2, "SAME")),
]:
    report(name, grads(f, x))

ties = tf.constant([[[[1.0], [1.0], [0.0]], [[1.0], [0.5], [0.0]], [[0.0], [0.0], [0.0]]]])
report("max_pool2d.ties_first_maximum", grads(lambda a: tf.nn.max_pool2d(a, 2, 1, "VALID"),
                                              ties))
report("max_pool2d.int32", tf.nn.max_pool2d(tf.reshape(tf.range(16), (1, 4, 4, 1)), 2, 2,
                                            "VALID"))
expect_error("avg_pool2d.int32", lambda: tf.nn.avg_pool2d(tf.ones((1, 4, 4, 1), tf.int32), 2, 2,
                                                          "VALID"))
expect_error("avg_pool2d.explicit_padding", lambda: tf.nn.avg_pool2d(
    x, 2, 2, [[0, 0], [1, 1], [1, 1], [0, 0]]))
expect_error("max_pool2d.lowercase", lambda: tf.nn.max_pool2d(x, 2, 2, "valid"))

report("moments", grads(lambda a: tf.stack(tf.nn.moments(a, [0, 1, 2])), x))
mean, var = tf.nn.moments(x, axes=[1, 2], keepdims=True)
report("moments.keepdims", [mean, var])
report("moments.int32", list(tf.nn.moments(tf.constant([1, 2, 4]), [0])))
scale, offset = tf.constant([1.5, 0.5, -1.0]), tf.constant([0.1, 0.2, 0.3])
report("batch_normalization", grads(
    lambda a, s, o: tf.nn.batch_normalization(a, *tf.nn.moments(a, [0, 1, 2]), o, s, 1e-3),
    x, scale, offset))
report("batch_normalization.no_scale_offset", tf.nn.batch_normalization(x, 1.0, 2.0, None, None,
                                                                        1e-3))

# NaN in max pooling: TensorFlow's forward kernel skips it (a window of NaN gives the lowest
# float), its gradient kernel keeps a NaN that comes first in a window
nan, inf = float("nan"), float("inf")
holes = tf.constant(np.array([nan, nan, 2.0, nan, nan, 0.0, 3.0, nan, 1.0, nan, 5.0, nan])
                    .reshape(1, 3, 4, 1))
report("max_pool2d.nan_same", grads(lambda a: tf.nn.max_pool2d(a, 2, 1, "SAME"), holes))
report("max_pool2d.nan_strided", grads(lambda a: tf.nn.max_pool2d(a, 3, 2, "SAME"), holes))
mixed = tf.constant(np.array([nan, 1.0, 2.0, -inf, inf, 0.0, 3.0, nan, 1.0]).reshape(1, 3, 3, 1),
                    tf.float32)
report("max_pool2d.nan_and_inf", grads(lambda a: tf.nn.max_pool2d(a, 2, 1, "VALID"), mixed))
report("avg_pool2d.nan_and_inf", grads(lambda a: tf.nn.avg_pool2d(a, 2, 1, "SAME"), mixed))
