# Grouped convolutions (Conv2D and Conv1D with groups=, as ResNeXt blocks use them in Dive
# into Deep Learning): each group of input channels convolved with its own filters; values,
# gradients, kernel shapes and Keras's errors. (Positive inputs and upstream gradients, so
# the kernel's gradient sums no terms that cancel.)
rng = np.random.default_rng(3)
x = tf.constant(rng.uniform(0.5, 1.0, size=(2, 6, 6, 4)).astype(np.float32))
for groups, strides, padding in ((2, 1, "same"), (4, 2, "valid"), (1, 1, "same")):
    conv = tf.keras.layers.Conv2D(8, 3, strides=strides, padding=padding, groups=groups)
    conv.build(x.shape)
    conv.set_weights([rng.normal(size=w.shape).astype(np.float32) for w in conv.get_weights()])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = conv(x)
        loss = tf.reduce_sum(y * tf.constant(rng.uniform(0.5, 1.0, size=y.shape), tf.float32))
    report(f"conv2d_groups{groups}.kernel_shape", list(conv.kernel.shape))
    report(f"conv2d_groups{groups}.output", y)
    report(f"conv2d_groups{groups}.grads", tape.gradient(loss, [x, conv.kernel, conv.bias]))
seq = tf.constant(rng.normal(size=(2, 7, 6)).astype(np.float32))
conv1 = tf.keras.layers.Conv1D(4, 2, groups=2, padding="causal")
conv1.build(seq.shape)
conv1.set_weights([rng.normal(size=w.shape).astype(np.float32) for w in conv1.get_weights()])
with tf.GradientTape() as tape:
    tape.watch(seq)
    out = conv1(seq)
report("conv1d_groups2.output", out)
report("conv1d_groups2.grads", tape.gradient(out, [seq, conv1.kernel]))
report("groups_zero_is_one", tf.keras.layers.Conv2D(4, 3, groups=0).groups)
expect_error("filters_not_divisible", lambda: tf.keras.layers.Conv2D(4, 3, groups=3))
expect_error("channels_not_divisible",
             lambda: tf.keras.layers.Conv2D(4, 3, groups=2)(tf.ones((1, 5, 5, 3))))
