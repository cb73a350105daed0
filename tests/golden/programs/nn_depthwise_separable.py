# tf.nn.depthwise_conv2d, tf.nn.separable_conv2d and Keras's DepthwiseConv2D and
# SeparableConv2D: values and gradients for strides, SAME/VALID/explicit padding,
# channel (depth) multipliers and dilations; names, shapes and the error cases
x = tf.constant(np.cos(np.arange(2 * 6 * 5 * 2) * 0.45).reshape(2, 6, 5, 2), tf.float32)


def kernel(*shape):
    return tf.constant(np.sin(np.arange(int(np.prod(shape))) * 0.7).reshape(shape), tf.float32)


def grads(fn, *args):
    """fn's output and the gradients of a weighted sum of it with respect to every argument."""
    args = [tf.Variable(a) for a in args]
    with tf.GradientTape() as tape:
        y = fn(*args)
        weights = tf.reshape(tf.cos(tf.cast(tf.range(tf.size(y)), y.dtype)), tf.shape(y))
        loss = tf.reduce_sum(y * weights)
    return [y] + tape.gradient(loss, args)


w = kernel(3, 2, 2, 2)
cases = {
    "stride1_same": ([1, 1, 1, 1], "SAME", None),
    "stride2_same": ([1, 2, 2, 1], "SAME", None),
    "stride2_valid": ([1, 2, 2, 1], "VALID", None),
    "dilated_valid": ([1, 1, 1, 1], "VALID", [2, 2]),
    "dilated_1_2_same": ([1, 1, 1, 1], "SAME", [1, 2]),
    "explicit": ([1, 1, 1, 1], [[0, 0], [1, 2], [0, 1], [0, 0]], None),
}
for name, (strides, padding, dilations) in cases.items():
    report("depthwise." + name, grads(
        lambda a, b: tf.nn.depthwise_conv2d(a, b, strides, padding, dilations=dilations), x, w))
report("depthwise.multiplier1", grads(
    lambda a, b: tf.nn.depthwise_conv2d(a, b, [1, 1, 1, 1], "SAME"), x, kernel(2, 2, 2, 1)))
report("depthwise.float64", grads(
    lambda a, b: tf.nn.depthwise_conv2d(a, b, [1, 2, 2, 1], "SAME"),
    tf.cast(x, tf.float64), tf.cast(w, tf.float64)))


def second_order(a, b):
    with tf.GradientTape() as outer:
        outer.watch(b)
        with tf.GradientTape() as inner:
            inner.watch(a)
            y = tf.nn.depthwise_conv2d(a, b, [1, 2, 2, 1], "SAME")
            s = tf.reduce_sum(tf.sin(y))
        ga = inner.gradient(s, a)
        t = tf.reduce_sum(ga * ga)
    return outer.gradient(t, b)


report("depthwise.second_order", second_order(x, w))

pw = kernel(1, 1, 4, 3)
report("separable.same", grads(
    lambda a, b, c: tf.nn.separable_conv2d(a, b, c, [1, 1, 1, 1], "SAME"), x, w, pw))
report("separable.stride2_valid", grads(
    lambda a, b, c: tf.nn.separable_conv2d(a, b, c, [1, 2, 2, 1], "VALID"), x, w, pw))
report("separable.dilated", grads(
    lambda a, b, c: tf.nn.separable_conv2d(a, b, c, [1, 1, 1, 1], "SAME", dilations=[2, 2]),
    x, w, pw))
report("separable.explicit", grads(
    lambda a, b, c: tf.nn.separable_conv2d(a, b, c, [1, 1, 1, 1],
                                           [[0, 0], [1, 1], [2, 0], [0, 0]]), x, w, pw))

expect_error("depthwise.int_strides", lambda: tf.nn.depthwise_conv2d(x, w, 2, "SAME"))
expect_error("depthwise.two_strides", lambda: tf.nn.depthwise_conv2d(x, w, [2, 2], "SAME"))
expect_error("depthwise.lower_case_padding",
             lambda: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "same"))
expect_error("depthwise.wrong_depth",
             lambda: tf.nn.depthwise_conv2d(x, kernel(3, 2, 3, 2), [1, 1, 1, 1], "SAME"))
expect_error("depthwise.batch_stride",
             lambda: tf.nn.depthwise_conv2d(x, w, [2, 1, 1, 1], "SAME"))
expect_error("depthwise.integer_input",
             lambda: tf.nn.depthwise_conv2d(tf.ones((1, 4, 4, 3), tf.int32),
                                            tf.ones((2, 2, 3, 1), tf.int32), [1, 1, 1, 1],
                                            "VALID"))
expect_error("depthwise.too_large_kernel",
             lambda: tf.nn.depthwise_conv2d(x, kernel(8, 2, 2, 1), [1, 1, 1, 1], "VALID"))
expect_error("separable.pointwise_not_1x1",
             lambda: tf.nn.separable_conv2d(x, w, kernel(2, 1, 4, 3), [1, 1, 1, 1], "SAME"))
expect_error("separable.pointwise_wrong_channels",
             lambda: tf.nn.separable_conv2d(x, w, kernel(1, 1, 5, 3), [1, 1, 1, 1], "SAME"))

L = tf.keras.layers


def run(layer, inputs):
    inputs = tf.constant(inputs)
    with tf.GradientTape() as tape:
        tape.watch(inputs)
        y = layer(inputs)
        weights = tf.reshape(tf.cos(tf.cast(tf.range(tf.size(y)), y.dtype)), tf.shape(y))
        loss = tf.reduce_sum(y * weights)
    return [y] + tape.gradient(loss, [inputs] + layer.trainable_weights)


dw = L.DepthwiseConv2D((3, 2), strides=(2, 2), padding="same", depth_multiplier=2,
                       activation="tanh")
dw.build((None, 6, 5, 2))
report("keras.depthwise.names", [v.name for v in dw.weights])
report("keras.depthwise.shapes", [list(v.shape) for v in dw.weights])
dw.set_weights([w.numpy(), np.linspace(-0.3, 0.3, 4).astype(np.float32)])
report("keras.depthwise.same", run(dw, x))
report("keras.depthwise.output_shape", list(dw.compute_output_shape((None, 6, 5, 2))))
dwd = L.DepthwiseConv2D(2, dilation_rate=2, use_bias=False)
dwd.build((None, 6, 5, 2))
dwd.set_weights([kernel(2, 2, 2, 1).numpy()])
report("keras.depthwise.dilated_valid", run(dwd, x))
report("keras.depthwise.dilated_output_shape", list(dwd.compute_output_shape((None, 6, 5, 2))))

sep = L.SeparableConv2D(3, 3, strides=2, depth_multiplier=2, activation="relu")
sep.build((None, 6, 5, 2))
report("keras.separable.names", [v.name for v in sep.weights])
report("keras.separable.shapes", [list(v.shape) for v in sep.weights])
sep.set_weights([kernel(3, 3, 2, 2).numpy(), pw.numpy(),
                 np.array([0.05, -0.1, 0.2], np.float32)])
report("keras.separable.stride2_valid", run(sep, x))
report("keras.separable.output_shape", list(sep.compute_output_shape((None, 6, 5, 2))))
sepd = L.SeparableConv2D(2, 2, padding="same", dilation_rate=(2, 1))
sepd.build((None, 6, 5, 2))
sepd.set_weights([kernel(2, 2, 2, 1).numpy(), kernel(1, 1, 2, 2).numpy(),
                  np.array([0.3, -0.3], np.float32)])
report("keras.separable.dilated_same", run(sepd, x))

inputs = tf.keras.Input((7, 6, 3))
h = L.DepthwiseConv2D(3, padding="same", name="dw")(inputs)
outputs = L.SeparableConv2D(2, 3, name="sep")(h)
model = tf.keras.Model(inputs, outputs)
report("keras.functional.output_shape", [d for d in model.output_shape])
report("keras.functional.weights", [v.name for v in model.weights])

expect_error("keras.depthwise.strides_and_dilation",
             lambda: L.DepthwiseConv2D(3, strides=2, dilation_rate=2)(x))
expect_error("keras.separable.strides_and_dilation",
             lambda: L.SeparableConv2D(3, 3, strides=2, dilation_rate=2)(x))
expect_error("keras.depthwise.rank3_input", lambda: L.DepthwiseConv2D(3)(x[0]))
expect_error("keras.depthwise.wrong_channels_later",
             lambda: dw(tf.ones((1, 6, 5, 4))))
