# tf.keras.layers.Attention: dot and concat scores, use_scale, value and query masks, the
# causal mask, a separate key, return_attention_scores, the output mask, the weights' names,
# gradients with respect to query, value, key and scale, and the call errors.
L = tf.keras.layers
Q = tf.constant(np.reshape(np.sin(np.arange(2 * 3 * 4) * 0.5), (2, 3, 4)).astype(np.float32))
V = tf.constant(np.reshape(np.cos(np.arange(2 * 5 * 4) * 0.3), (2, 5, 4)).astype(np.float32))
K = tf.constant(np.reshape(np.sin(np.arange(2 * 5 * 4) * 0.7 + 1), (2, 5, 4)).astype(np.float32))
QM = tf.constant([[True, True, False], [True, False, True]])
VM = tf.constant([[True, True, True, False, False], [True, False, True, True, True]])
W = tf.constant(np.reshape(np.arange(2 * 3 * 4) % 5 - 2.0, (2, 3, 4)).astype(np.float32))


def run(name, layer, inputs, **call):
    inputs = [tf.constant(x) for x in inputs]
    with tf.GradientTape(persistent=True) as tape:
        for x in inputs:
            tape.watch(x)
        out = layer(inputs, **call)
        first = out[0] if isinstance(out, tuple) else out
        loss = tf.reduce_sum(first * W[:, :first.shape[1], :first.shape[2]])
    report(name, out)
    report(name + ".grads", tape.gradient(loss, inputs))
    if layer.trainable_weights:
        report(name + ".weight_grads", tape.gradient(loss, layer.trainable_weights))
        report(name + ".weight_names", [w.name for w in layer.weights])


run("dot", L.Attention(), [Q, V])
run("dot_key", L.Attention(), [Q, V, K])
run("dot_scale", L.Attention(use_scale=True), [Q, V, K])
run("concat", L.Attention(score_mode="concat"), [Q, V, K])
run("concat_scale", L.Attention(use_scale=True, score_mode="concat"), [Q, V])
run("masks", L.Attention(), [Q, V], mask=[QM, VM])
run("value_mask_only", L.Attention(), [Q, V], mask=[None, VM])
run("causal", L.Attention(), [Q, tf.constant(V[:, :3])], use_causal_mask=True)
run("causal_masked", L.Attention(), [Q, tf.constant(V[:, :3])], use_causal_mask=True,
    mask=[QM, tf.constant([[True, False, True], [True, True, False]])])
run("scores", L.Attention(), [Q, V, K], return_attention_scores=True, mask=[QM, VM])
run("dropout_inference", L.Attention(dropout=0.5), [Q, V], training=False)
out = L.Attention()([Q, V], mask=[QM, VM])
report("output_mask", out._keras_mask)
report("float64", L.Attention(dtype="float64")([tf.cast(Q, tf.float64), tf.cast(V, tf.float64)]))

q_in = tf.keras.Input((3, 4))
v_in = tf.keras.Input((5, 4))
model = tf.keras.Model([q_in, v_in], L.GlobalAveragePooling1D()(L.Attention()([q_in, v_in])))
report("functional", [model.output_shape, model([Q, V])])
cfg = L.Attention(use_scale=True, score_mode="concat", dropout=0.1).get_config()
report("config", {k: cfg[k] for k in ("use_scale", "score_mode", "dropout")})

expect_error("one_input", lambda: L.Attention()(Q))
expect_error("four_inputs", lambda: L.Attention()([Q, V, K, K]))
expect_error("mask_not_list", lambda: L.Attention()([Q, V], mask=QM))
expect_error("bad_score_mode", lambda: L.Attention(score_mode="additive"))
