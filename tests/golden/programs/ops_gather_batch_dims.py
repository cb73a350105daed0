# tf.gather with batch_dims: each batch row gathers from its own row (the idiom that picks
# the probability or Q-value of each example's own class or action), values and gradients


def vg(name, f, x):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
        weighted = y * tf.reshape(tf.range(tf.size(y), dtype=y.dtype) + 1.0, tf.shape(y))
    report(name, y)
    g = tape.gradient(weighted, x)
    report(name + ".grad", None if g is None else tf.convert_to_tensor(g))


P2 = np.arange(12, dtype=np.float32).reshape(4, 3) / 7.0
P4 = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5) / 11.0
I = [[0, 2, 1], [3, 3, 0]]
vg("own_class", lambda x: tf.gather(x, [2, 0, 0, 1], batch_dims=1), P2)
vg("own_class_repeat", lambda x: tf.gather(x, [[2, 2], [0, 1], [1, 1], [0, 0]], batch_dims=1), P2)
vg("axis2_batch1", lambda x: tf.gather(x, I, axis=2, batch_dims=1), P4)
vg("axis3_batch1", lambda x: tf.gather(x, I, axis=3, batch_dims=1), P4)
vg("batch2", lambda x: tf.gather(x, [[0, 1, 3], [2, 2, 0]], batch_dims=2), P4)
vg("batch_neg", lambda x: tf.gather(x, [[0, 1, 3], [2, 2, 0]], axis=2, batch_dims=-1), P4)
vg("batch_neg_default_axis", lambda x: tf.gather(x, I, batch_dims=-1), P4)
vg("axis_neg", lambda x: tf.gather(x, I, axis=-1, batch_dims=1), P4)
vg("axis0_ignores_batch", lambda x: tf.gather(x, [[0, 1], [1, 0]], axis=0, batch_dims=1), P2)
vg("batch0_axis1", lambda x: tf.gather(x, [[0, 2], [1, 1]], axis=1, batch_dims=0), P2)
logits = tf.Variable(P2)
with tf.GradientTape() as tape:
    probs = tf.nn.softmax(logits)
    loss = -tf.reduce_mean(tf.math.log(tf.gather(probs, [2, 0, 0, 1], batch_dims=1)))
report("nll_loss", loss)
report("nll_loss.grad", tf.convert_to_tensor(tape.gradient(loss, logits)))
report("int_params", tf.gather(tf.constant([[5, 6], [7, 8]]), [1, 0], batch_dims=1))
expect_error("batch_dims_too_large", lambda: tf.gather(tf.constant(P4), I, batch_dims=3))
expect_error("batch_dims_too_small", lambda: tf.gather(tf.constant(P4), I, batch_dims=-3))
expect_error("batch_after_axis", lambda: tf.gather(tf.constant(P4), I, axis=1, batch_dims=2))
expect_error("batch_sizes_differ", lambda: tf.gather(tf.constant(P4), [[0, 1], [1, 0], [0, 0]],
                                                     batch_dims=1))
expect_error("index_out_of_batch_row", lambda: tf.gather(tf.constant(P2), [3, 0, 0, 1],
                                                         batch_dims=1))
