"""A Keras-style custom training loop for a three-class classifier on synthetic data, with
six bugs people hit: the model ends in a softmax yet the loss says from_logits=True; the
BatchNormalization layer runs with `training` left at its default; the embedding layer was
built with trainable=False by mistake, but its kernel is still passed as a source; a learnable
decision threshold reaches the loss only through tf.round; a consistency loss puts
tf.stop_gradient on the projection instead of on the target; and a weight-drift penalty takes
tf.sqrt of a sum that is exactly 0 at the first step, so the head's gradient is NaN and SGD
writes that NaN into the head."""
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(42)
x_all = rng.normal(size=(64, 6)).astype(np.float32)
y_all = (x_all[:, 0] + x_all[:, 1] > 0).astype(np.int64) + (x_all[:, 2] > 1)

embed = tf.keras.layers.Dense(12, activation="relu", trainable=False, name="embed")  # bug: updated anyway
model = tf.keras.Sequential([
    embed,
    tf.keras.layers.BatchNormalization(name="bn"),
    tf.keras.layers.Dense(3, activation="softmax", name="head"),     # bug: softmax output
])
proj = tf.keras.layers.Dense(3, name="proj")
threshold = tf.Variable(0.5, name="threshold")
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)   # bug: twice
opt = tf.keras.optimizers.SGD(learning_rate=0.05)
model.build((None, 6))
proj.build((None, 12))
head_start = tf.identity(model.layers[2].kernel)     # the drift penalty's anchor

for step in range(3):
    x = tf.constant(x_all[step * 16:(step + 1) * 16])
    y = tf.constant(y_all[step * 16:(step + 1) * 16])
    with tf.GradientTape() as tape:
        probs = model(x)                              # note: batchnorm_inference bn
        ce = loss_fn(y, probs)                        # note: softmax_as_logits sparse_categorical_crossentropy
        features = embed(x)
        consistency = tf.reduce_mean(tf.square(
            tf.stop_gradient(proj(features)) - probs))   # truth: kernel none stop_gradient op=StopGradient call=all
        score = probs[:, 2]
        flagged = tf.round(tf.sigmoid(score - threshold))   # truth: threshold none non_differentiable op=Round call=all
        flag_rate = tf.reduce_mean(tf.square(flagged - 0.1))
        drift = tf.sqrt(tf.reduce_sum(tf.square(model.layers[2].kernel - head_start)))  # truth: head/kernel nan nan_origin op=Sqrt call=1
        loss = ce + 0.1 * consistency + 0.5 * flag_rate + 0.01 * drift
    sources = [embed.kernel, model.layers[1].gamma, model.layers[2].kernel,
               model.layers[2].bias, proj.kernel, threshold]
    grads = tape.gradient(loss, sources)              # truth: head/bias value ok call=1 line=none; embed/kernel value ok call=1 line=none; bn/gamma value ok call=1 line=none
    opt.apply_gradients([(g, v) for g, v in zip(grads, sources) if g is not None])  # truth: head/kernel nan nan_input call=2; embed/kernel nan nan_input call=2  # note: frozen_layer_updated embed/kernel:0
    print(step, float(loss), [None if g is None else float(tf.reduce_sum(g)) for g in grads])
