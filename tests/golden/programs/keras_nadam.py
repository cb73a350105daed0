# tf.keras.optimizers.Nadam (Keras 2 / tf-keras): values over several steps, slots, defaults,
# a float64 variable, a schedule, gradients that change sign, and optimizer="nadam" in fit

w = tf.Variable([1.0, -2.0, 0.5], name="w")
b = tf.Variable(0.25, name="b")
opt = tf.keras.optimizers.Nadam(learning_rate=0.1)
report("defaults", [opt.beta_1, opt.beta_2, opt.epsilon, opt.name])
x = tf.constant([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0]])
y = tf.constant([1.0, -1.0])
for step in range(6):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((tf.reduce_sum(x * w, axis=1) + b - y) ** 2)
    grads = tape.gradient(loss, [w, b])
    opt.apply_gradients(zip(grads, [w, b]))
    report("step%d.loss" % step, loss)
    report("step%d.w" % step, w)
    report("step%d.b" % step, b)
report("iterations", opt.iterations)

v = tf.Variable([3.0, -4.0], dtype=tf.float64)
opt64 = tf.keras.optimizers.Nadam()
for step in range(4):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(v ** 3)
    opt64.apply_gradients([(tape.gradient(loss, v), v)])
report("float64.v", v)

z = tf.Variable([2.0, -1.0])
schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.5, decay_steps=1, decay_rate=0.5)
opt_s = tf.keras.optimizers.Nadam(learning_rate=schedule, beta_1=0.8, beta_2=0.9,
                                  epsilon=1e-3)
for step in range(5):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.abs(z - 0.3))
    opt_s.apply_gradients(zip(tape.gradient(loss, [z]), [z]))
    report("schedule.step%d" % step, z)

model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
model.layers[0].kernel.assign([[0.5], [-0.25]])
model.layers[0].bias.assign([0.1])
# run_eagerly: in a tf.function tf-keras's Nadam multiplies its u-product once per variable
# after the first step (a Python counter read at trace time); eagerly, once per step
model.compile(optimizer="nadam", loss="mse", run_eagerly=True)
history = model.fit(tf.constant([[1.0, 2.0], [3.0, -1.0], [0.0, 1.0], [2.0, 2.0]]),
                    tf.constant([[1.0], [0.0], [2.0], [-1.0]]), epochs=3, batch_size=2,
                    shuffle=False, verbose=0)
report("fit.loss", history.history["loss"])
report("fit.kernel", model.layers[0].kernel)
report("fit.optimizer", type(model.optimizer).__name__)
