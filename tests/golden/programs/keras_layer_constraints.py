# Constraints and activity regularizers on the recurrent, depthwise, separable, embedding and
# batch-normalization layers: the projection an optimizer applies after each update, and the
# penalty each call adds to `layer.losses`.
X3 = tf.constant([[[1.0, -2.0], [0.5, 1.5], [-1.0, 0.25]],
                  [[0.0, 1.0], [2.0, -0.5], [1.0, 1.0]]])


def fill(layer):
    for i, v in enumerate(layer.weights):
        n = int(np.prod(v.shape))
        v.assign(np.reshape(np.sin(np.arange(n, dtype=np.float32) * 0.7 + i) * 1.5, v.shape))


def sgd_step(name, layer, x, **call):
    layer(x, **call)
    fill(layer)
    opt = tf.keras.optimizers.SGD(learning_rate=0.5)
    with tf.GradientTape() as tape:
        out = layer(x, **call)
        loss = tf.reduce_sum(tf.nest.flatten(out)[0] ** 2) + tf.add_n(layer.losses or [0.0])
    grads = tape.gradient(loss, layer.trainable_variables)
    opt.apply_gradients(zip(grads, layer.trainable_variables))
    report(name + ".loss", loss)
    report(name + ".losses", list(layer.losses))
    report(name + ".weights", {w.name: w for w in layer.weights})


for kind in ("SimpleRNN", "GRU", "LSTM"):
    cls = getattr(tf.keras.layers, kind)
    sgd_step(kind.lower() + "_constraints",
             cls(3, kernel_constraint=tf.keras.constraints.MaxNorm(1.0),
                 recurrent_constraint="non_neg",
                 bias_constraint=tf.keras.constraints.UnitNorm(), name=kind.lower()), X3)
    sgd_step(kind.lower() + "_activity",
             cls(2, activity_regularizer=tf.keras.regularizers.L2(0.1),
                 name=kind.lower() + "_act"), X3)
    sgd_step(kind.lower() + "_activity_states",
             cls(2, activity_regularizer="l1", return_state=True, return_sequences=True,
                 name=kind.lower() + "_st"), X3)
    layer = cls(2, kernel_constraint="unit_norm", recurrent_constraint="max_norm",
                bias_constraint="non_neg", activity_regularizer="l2")
    report(kind + ".constraint_types",
           [type(layer.cell.kernel_constraint).__name__,
            type(layer.cell.recurrent_constraint).__name__,
            type(layer.cell.bias_constraint).__name__])
    report(kind + ".activity_type", type(layer.activity_regularizer).__name__)

sgd_step("lstm_cell_constraint", tf.keras.layers.RNN(
    tf.keras.layers.LSTMCell(2, kernel_constraint=tf.keras.constraints.NonNeg()),
    name="rnn_lstm_cell"), X3)

X4 = tf.constant(np.reshape(np.cos(np.arange(2 * 4 * 4 * 2, dtype=np.float32)), (2, 4, 4, 2)))
sgd_step("depthwise_constraints", tf.keras.layers.DepthwiseConv2D(
    2, depth_multiplier=2, depthwise_constraint=tf.keras.constraints.MaxNorm(0.5, axis=[0, 1]),
    bias_constraint="non_neg", activity_regularizer=tf.keras.regularizers.L1(0.01),
    name="dw"), X4)
sgd_step("separable_constraints", tf.keras.layers.SeparableConv2D(
    3, 2, depthwise_constraint="non_neg", pointwise_constraint=tf.keras.constraints.UnitNorm(
        axis=[0, 1, 2]), bias_constraint=tf.keras.constraints.MinMaxNorm(0.5, 1.0),
    activity_regularizer="l2", name="sep"), X4)

ids = tf.constant([[1, 2, 0], [3, 3, 1]])
sgd_step("embedding_constraints", tf.keras.layers.Embedding(
    4, 3, embeddings_constraint=tf.keras.constraints.MaxNorm(1.0, axis=1),
    activity_regularizer=tf.keras.regularizers.L2(0.05), name="emb"), ids)
sgd_step("batchnorm_constraints", tf.keras.layers.BatchNormalization(
    gamma_constraint=tf.keras.constraints.NonNeg(), beta_constraint="unit_norm",
    name="bn"), X3, training=True)
