# tf.compat.v1.losses, TensorFlow 1's losses that TensorFlow 2 code (tf-agents, DQN and GAN
# code) calls eagerly: values, gradients, weights and every reduction; tf.compat helpers
labels = tf.constant([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
logits = tf.constant([[2.0, -1.0, 0.5], [0.3, 0.8, -2.0]])
probs = tf.sigmoid(logits)
weights = tf.constant([[1.0], [0.0]])
R = tf.compat.v1.losses.Reduction
v1 = tf.compat.v1.losses


def vg(name, f):
    x = tf.Variable(logits)
    with tf.GradientTape() as tape:
        y = f(x)
    report(name, y)
    report(name + ".grad", tape.gradient(y, x))


vg("sigmoid_ce", lambda x: v1.sigmoid_cross_entropy(multi_class_labels=labels, logits=x))
vg("sigmoid_ce_smoothing", lambda x: v1.sigmoid_cross_entropy(labels, x, label_smoothing=0.2))
vg("sigmoid_ce_weights", lambda x: v1.sigmoid_cross_entropy(labels, x, weights=weights))
vg("softmax_ce", lambda x: v1.softmax_cross_entropy(labels, x))
vg("softmax_ce_smoothing", lambda x: v1.softmax_cross_entropy(labels, x, label_smoothing=0.1))
vg("sparse_softmax_ce", lambda x: v1.sparse_softmax_cross_entropy([2, 1], x))
vg("mse", lambda x: v1.mean_squared_error(labels=labels, predictions=x))
vg("absolute_difference", lambda x: v1.absolute_difference(labels, x))
vg("huber", lambda x: v1.huber_loss(labels, x))
vg("huber_delta", lambda x: v1.huber_loss(labels, x, delta=0.5))
vg("log_loss", lambda x: v1.log_loss(labels, tf.sigmoid(x)))
vg("hinge", lambda x: v1.hinge_loss(labels, x))
vg("cosine", lambda x: v1.cosine_distance(tf.math.l2_normalize(labels, axis=1),
                                          tf.math.l2_normalize(x, axis=1), axis=1))
for reduction in ["NONE", "SUM", "MEAN", "SUM_OVER_BATCH_SIZE", "SUM_BY_NONZERO_WEIGHTS"]:
    vg("mse_weighted_" + reduction,
       lambda x: v1.mean_squared_error(labels, x, weights=weights,
                                       reduction=getattr(R, reduction)))
report("huber_none", v1.huber_loss(labels, logits, reduction=R.NONE))
report("compute_weighted_loss", v1.compute_weighted_loss(tf.constant([1.0, 2.0, 3.0]),
                                                          weights=[0.0, 1.0, 2.0]))
report("float64", v1.mean_squared_error(tf.constant([1.0, 2.0], tf.float64),
                                        tf.constant([1.5, 2.5], tf.float64)))
expect_error("shape_mismatch", lambda: v1.mean_squared_error(labels, logits[:, :2]))
expect_error("bad_reduction", lambda: v1.mean_squared_error(labels, logits, reduction="avg"))
expect_error("placeholder", lambda: tf.compat.v1.placeholder(tf.float32, [None, 2]))
report("executing_eagerly", tf.compat.v1.executing_eagerly())
report("fallback_reduce_sum", tf.compat.v1.reduce_sum(tf.ones([2, 3]), axis=1))
report("as_bytes", tf.compat.as_bytes("ab"))
report("as_str", tf.compat.as_str(b"ab"))
report("dimension_value", tf.compat.dimension_value(tf.TensorShape([3, None])[0]))
report("v2_is_tf", tf.compat.v2.reduce_sum(tf.ones([2])))
tf.compat.v1.set_random_seed(3)
tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
report("logging_levels", [tf.compat.v1.logging.INFO, tf.compat.v1.logging.ERROR])
