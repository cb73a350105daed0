# The Keras optimizers' gradient clipping (the hands-on book's SGD(clipvalue=1.0) and
# SGD(clipnorm=1.0)), global_clipnorm, and how tf-keras takes legacy arguments: `lr` is
# warned about and ignored, `decay` and unknown arguments are refused.
w0 = np.array([[1.0, -2.0], [0.5, 3.0]], np.float32)
g = tf.constant([[3.0, -0.5], [0.2, -4.0]])
g2 = tf.constant([0.3, -0.4])
for kw in ({"clipvalue": 1.0}, {"clipnorm": 1.0}, {"global_clipnorm": 2.0}, {"clipnorm": 100.0}):
    w, b = tf.Variable(w0), tf.Variable([0.0, 1.0])
    opt = tf.keras.optimizers.SGD(learning_rate=0.5, **kw)
    opt.apply_gradients([(g, w), (g2, b)])
    opt.apply_gradients([(g * 0.1, w), (None, b)])
    report("sgd_" + "_".join("%s_%s" % i for i in kw.items()), [w, b])
w = tf.Variable(w0)
adam = tf.keras.optimizers.Adam(learning_rate=0.1, clipnorm=0.5)
adam.apply_gradients([(g, w)])
report("adam_clipnorm", w)
report("lr_ignored", float(tf.keras.optimizers.Adam(lr=0.1).learning_rate))
expect_error("decay", lambda: tf.keras.optimizers.Adam(learning_rate=0.1, decay=0.01))
expect_error("unknown", lambda: tf.keras.optimizers.SGD(momentun=0.9))
expect_error("two_norms", lambda: tf.keras.optimizers.SGD(clipnorm=1.0, global_clipnorm=1.0))
model = tf.keras.Sequential([tf.keras.layers.Dense(2, kernel_initializer="ones")])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1, clipvalue=0.5), loss="mse")
hist = model.fit(np.array([[1.0, 2.0], [3.0, -1.0]], np.float32),
                 np.array([[5.0, -5.0], [0.0, 1.0]], np.float32), epochs=3, batch_size=2, verbose=0)
report("fit_clipvalue", hist.history["loss"])
report("fit_kernel", model.layers[0].kernel)
