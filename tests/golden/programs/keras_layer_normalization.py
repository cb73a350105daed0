# tf.keras.layers.LayerNormalization as the transformer examples and the hands-on book's
# LNSimpleRNNCell use it: the default axis and epsilon, epsilon=1e-6 (tf-keras's unfused
# path), gradients to the input and to gamma and beta, several axes, a middle axis,
# center/scale off, inside a Sequential trained one SGD step, and a bad axis.
x = np.array([[[1.0, 2.0, 4.0], [0.5, -1.0, 3.0]], [[2.0, 2.5, -3.0], [1.0, 1.0, 1.5]]],
             np.float32)
ln = tf.keras.layers.LayerNormalization()
report("default", ln(x))
report("names", [v.name for v in ln.weights])
ln6 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
_ = ln6(x)
ln6.gamma.assign([0.5, 2.0, -1.0])
ln6.beta.assign([0.1, 0.0, 0.3])
with tf.GradientTape(persistent=True) as tape:
    xt = tf.constant(x)
    tape.watch(xt)
    y = ln6(xt)
    loss = tf.reduce_sum(y * tf.constant([1.0, -2.0, 0.5]))
report("eps6", y)
report("grad_x", tape.gradient(loss, xt))
report("grad_gamma_beta", tape.gradient(loss, [ln6.gamma, ln6.beta]))
ln_f = tf.keras.layers.LayerNormalization(epsilon=1e-3)
_ = ln_f(x)
ln_f.gamma.assign([0.5, 2.0, -1.0])
ln_f.beta.assign([0.1, 0.0, 0.3])
with tf.GradientTape() as tape:
    xt = tf.constant(x)
    tape.watch(xt)
    loss = tf.reduce_sum(ln_f(xt) * tf.constant([1.0, -2.0, 0.5]))
report("grad_x_fused", tape.gradient(loss, xt))
two = tf.keras.layers.LayerNormalization(axis=[1, 2])
report("two_axes", two(x))
report("two_axes_gamma_shape", two.gamma.shape.as_list())
middle = tf.keras.layers.LayerNormalization(axis=1, center=False)
report("middle_axis", middle(x))
report("middle_weights", len(middle.weights))
plain = tf.keras.layers.LayerNormalization(scale=False, center=False)
report("plain", plain(x))
model = tf.keras.Sequential([tf.keras.layers.Dense(3, kernel_initializer="ones"),
                             tf.keras.layers.LayerNormalization(epsilon=1e-6),
                             tf.keras.layers.Dense(1, kernel_initializer="ones")])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
hist = model.fit(x.reshape(4, 3), np.array([[1.0], [0.0], [2.0], [-1.0]], np.float32),
                 epochs=2, batch_size=4, verbose=0)
report("fit_loss", hist.history["loss"])
report("fit_gamma", model.layers[1].gamma)
expect_error("bad_axis", lambda: tf.keras.layers.LayerNormalization(axis=3)(x))
