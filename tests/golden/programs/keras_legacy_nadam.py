# tf.keras.optimizers.legacy.Nadam is not the new Nadam with lr= and decay=: its momentum
# schedule is u_t = beta_1 * (1 - 0.5 * 0.96 ** (0.004 * t)) (schedule_decay, default 0.004,
# which also takes the place of any decay=), its product of u's a variable multiplied once per
# step (eagerly and in a compiled fit alike), and its learning rate is not decayed.
g = tf.constant([[0.3, -1.2], [2.0, 0.1]])
for name, make in (("default", lambda: tf.keras.optimizers.legacy.Nadam()),
                   ("lr", lambda: tf.keras.optimizers.legacy.Nadam(lr=0.1)),
                   ("decay_ignored", lambda: tf.keras.optimizers.legacy.Nadam(0.1, decay=0.5)),
                   ("schedule_decay", lambda: tf.keras.optimizers.legacy.Nadam(
                       0.05, beta_1=0.8, beta_2=0.9, epsilon=1e-3, schedule_decay=0.3))):
    w = tf.Variable([[1.0, 2.0], [-1.0, 0.5]])
    b = tf.Variable([0.1, -0.2])
    opt = make()
    for step in range(5):
        opt.apply_gradients([(g * (step - 1.5), w), (g[0] * step, b)])
    report(name, [w, b])

model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(2,)), tf.keras.layers.Dense(1)])
model.set_weights([np.array([[0.5, -0.3], [-0.25, 0.8]], np.float32),
                   np.array([0.1, -0.2], np.float32), np.array([[0.7], [-0.4]], np.float32),
                   np.array([0.05], np.float32)])
model.compile(optimizer=tf.keras.optimizers.legacy.Nadam(learning_rate=0.05), loss="mse")
x = np.array([[1.0, 2.0], [3.0, -1.0], [0.0, 1.0], [2.0, 2.0]], np.float32)
y = np.array([[1.0], [0.0], [2.0], [-1.0]], np.float32)
hist = model.fit(x, y, epochs=3, batch_size=2, shuffle=False, verbose=0)
report("compiled_fit", [hist.history["loss"], model.get_weights()])
