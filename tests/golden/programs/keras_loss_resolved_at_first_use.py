# compile() keeps a loss name it cannot interpret and refuses it only when the loss is first
# computed: a model compiled for its optimizer alone (loss='mean', as an actor network in
# public DDPG/TD3 code) and trained by a GradientTape never computes it; more loss names
inputs = np.array([[0.5, -1.0], [1.5, 2.0], [-0.5, 0.25]], np.float32)
targets = np.array([[1.0], [0.0], [0.5]], np.float32)


def model():
    m = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    m.set_weights([np.array([[0.3], [-0.2]], np.float32), np.array([0.1], np.float32)])
    return m


actor = model()
actor.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=0.1), loss="mean")
for _ in range(3):
    with tf.GradientTape() as tape:
        loss = -tf.math.reduce_mean(actor(inputs))
    grads = tape.gradient(loss, actor.trainable_variables)
    actor.optimizer.apply_gradients(zip(grads, actor.trainable_variables))
report("tape_trained_weights", actor.get_weights())
expect_error("fit_unknown_name", lambda: actor.fit(inputs, targets, verbose=0))
expect_error("evaluate_unknown_name", lambda: actor.evaluate(inputs, targets, verbose=0))
odd = model()
odd.compile(optimizer="sgd", loss=5)
report("compiled_with_a_number", odd.predict(inputs, verbose=0))
expect_error("fit_number", lambda: odd.fit(inputs, targets, verbose=0))
for name in ["huber", "kld", "kl_divergence", "hinge", "mean_squared_error"]:
    m = model()
    m.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss=name)
    report("fit_" + name, m.fit(inputs, np.abs(targets), epochs=2, batch_size=3,
                                 shuffle=False, verbose=0).history)
