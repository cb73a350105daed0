# tf.keras.optimizers.legacy as code written for TensorFlow 2.1 to 2.10 builds it (the
# pyimagesearch GradientTape post: Adam(lr=INIT_LR, decay=INIT_LR / EPOCHS)): lr= taken as
# the learning rate, decay lowering it step by step as lr / (1 + decay * iterations), for
# Adam, SGD with momentum and RMSprop; a negative decay refused.
LegacyAdam = tf.keras.optimizers.legacy.Adam
g = tf.constant([[0.3, -1.2], [2.0, 0.1]])
for name, make in (("adam", lambda: LegacyAdam(lr=0.1, decay=0.5)),
                   ("sgd", lambda: tf.keras.optimizers.legacy.SGD(lr=0.2, momentum=0.9, decay=0.1)),
                   ("rmsprop", lambda: tf.keras.optimizers.legacy.RMSprop(learning_rate=0.05, decay=1.0)),
                   ("adam_no_decay", lambda: tf.keras.optimizers.legacy.Adam(0.01))):
    w = tf.Variable([[1.0, 2.0], [-1.0, 0.5]])
    opt = make()
    for step in range(3):
        opt.apply_gradients([(g * (step + 1), w)])
    report(name, w)
model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])
model.compile(optimizer=LegacyAdam(lr=0.1, decay=0.2), loss="mse")
hist = model.fit(np.array([[1.0, 2.0], [3.0, -1.0]], np.float32), np.array([[1.0], [0.0]], np.float32),
                 epochs=3, batch_size=2, verbose=0)
report("fit", hist.history["loss"])
expect_error("negative_decay", lambda: tf.keras.optimizers.legacy.SGD(decay=-1.0))
