# tf.keras.optimizers.Adagrad (tf-keras's rule: acc += g², w -= lr·g/√(acc + ε)) and the legacy
# Adagrad (TensorFlow's ApplyAdagradV2: w -= lr·g/(√acc + ε), lr= and decay=), as TensorFlow's
# guide on migrating from Estimator trains with it
grads = [tf.constant([0.5, -1.0, 0.0]), tf.constant([2.0, 0.25, -0.5]),
         tf.constant([-1.5, 0.0, 3.0])]


def run(optimizer, dtype=tf.float32):
    w = tf.Variable(tf.constant([1.0, -2.0, 0.5], dtype))
    steps = []
    for g in grads:
        optimizer.apply_gradients([(tf.cast(g, dtype), w)])
        steps.append(tf.identity(w))
    return steps


report("adagrad", run(tf.keras.optimizers.Adagrad(learning_rate=0.1)))
report("adagrad_default_lr", run(tf.keras.optimizers.Adagrad()))
report("adagrad_accumulator_epsilon", run(tf.keras.optimizers.Adagrad(
    learning_rate=0.5, initial_accumulator_value=0.0, epsilon=0.5)))
report("adagrad_float64", run(tf.keras.optimizers.Adagrad(learning_rate=0.1), tf.float64))
opt = tf.keras.optimizers.Adagrad(learning_rate=0.1)
run(opt)
report("adagrad_iterations", opt.iterations)
report("adagrad_get_by_name", type(tf.keras.optimizers.get("adagrad")).__name__)
report("adagrad_clipnorm", run(tf.keras.optimizers.Adagrad(learning_rate=0.1, clipnorm=0.5)))
report("legacy", run(tf.keras.optimizers.legacy.Adagrad(learning_rate=0.1)))
report("legacy_accumulator_epsilon", run(tf.keras.optimizers.legacy.Adagrad(
    learning_rate=0.5, initial_accumulator_value=0.0, epsilon=0.5)))
report("legacy_decay", run(tf.keras.optimizers.legacy.Adagrad(learning_rate=0.1, decay=0.5)))
expect_error("legacy_negative_accumulator",
             lambda: tf.keras.optimizers.legacy.Adagrad(initial_accumulator_value=-1.0))
expect_error("adagrad_decay_refused", lambda: tf.keras.optimizers.Adagrad(decay=0.1))

model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])
model.compile(optimizer="adagrad", loss="mse")
x = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]], np.float32)
y = np.array([[1.0], [0.0], [2.0]], np.float32)
history = model.fit(x, y, epochs=3, batch_size=2, verbose=0, shuffle=False)
report("fit_adagrad_by_name_losses", history.history["loss"])
report("fit_adagrad_kernel", model.layers[0].kernel)
