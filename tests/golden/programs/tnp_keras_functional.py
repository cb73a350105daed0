# tnp functions applied to a Keras functional model's symbolic inputs (TF-Keras turns the TF
# ops inside them into layers): the model's outputs, and a training step's gradients through
# them (layer names are not reported: TF-Keras names each inner TF op's layer, tapeviz one
# layer per tnp call)
tnp = tf.experimental.numpy
inp = tf.keras.Input((3,))
dense = tf.keras.layers.Dense(2)
h = dense(inp)
features = tnp.concatenate([tnp.square(h), tnp.tanh(inp)], axis=1)
out = tnp.sum(tnp.maximum(features, 0.1), axis=1, keepdims=True)
model = tf.keras.Model(inp, out)
model.layers[1].set_weights([np.array([[0.5, -1.0], [0.25, 0.5], [-0.5, 1.0]], np.float32),
                             np.array([0.1, -0.2], np.float32)])
x = np.array([[1.0, 2.0, -1.0], [0.5, -0.5, 2.0]], np.float32)
report("output_shape", list(out.shape))
report("predict", model(x))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - 1.0))
report("loss", loss)
report("gradients", tape.gradient(loss, model.trainable_variables))
