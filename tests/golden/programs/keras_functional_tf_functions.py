# tf.* functions applied straight to Keras symbolic inputs (TF-Keras makes each a TFOpLambda
# layer named after the function): unary, binary with a constant, lists of inputs, keyword
# arguments, tf.math / tf.nn / tf.linalg names; the model then runs on data and trains
a = tf.keras.Input(shape=(3,), name="a")
b = tf.keras.Input(shape=(2,), name="b")
h = tf.keras.layers.Dense(4, name="hidden")(a)
r = tf.nn.relu(h)
report("relu.repr_layer", r.node.layer.name if hasattr(r, "node") else None)
report("relu.shape", list(r.shape))
joined = tf.concat([r, b, tf.tanh(b)], axis=-1)
report("concat.shape", list(joined.shape))
m = tf.reduce_mean(joined, axis=1, keepdims=True)
report("mean.shape", list(m.shape))
s = tf.math.reduce_sum(tf.square(a), axis=-1)
report("sum.shape", list(s.shape))
e = tf.expand_dims(s, -1)
scaled = tf.multiply(joined, 2.0) - m
prod = tf.matmul(scaled, tf.ones((8, 1)))
c = tf.clip_by_value(prod, -3.0, 3.0)
out = tf.keras.layers.Dense(1, name="out")(tf.concat([c, e], -1))
model = tf.keras.Model([a, b], out)
report("layer_names", [layer.name for layer in model.layers])
report("output_shape", list(model.output_shape))
model.set_weights([
    np.array([[0.5, -0.3, 0.8, 0.1], [0.2, 0.7, -0.4, 0.3], [-0.1, 0.2, 0.3, -0.5]], np.float32),
    np.array([0.1, 0.0, -0.1, 0.2], np.float32),
    np.array([[0.3], [-0.2]], np.float32),
    np.array([0.05], np.float32),
])
xa = tf.constant([[1.0, 2.0, -1.0], [0.5, -0.5, 2.0]])
xb = tf.constant([[0.3, -0.7], [1.5, 0.2]])
report("call", model([xa, xb]))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model([xa, xb]) - 1.0))
grads = tape.gradient(loss, model.trainable_variables)
report("loss", loss)
report("grads", grads)
model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
history = model.fit([xa.numpy(), xb.numpy()], np.ones((2, 1), np.float32), epochs=2,
                    batch_size=2, verbose=0, shuffle=False)
report("fit_loss", history.history["loss"])
