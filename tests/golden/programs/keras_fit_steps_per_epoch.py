# fit(steps_per_epoch=k) on arrays: each epoch continues the stream of batches where the last
# one stopped (as the callbacks guide's EarlyStoppingAtMinLoss example trains), starting a new
# pass through the data when one ends.
seen = []


class Batches(tf.keras.callbacks.Callback):
    def on_train_batch_end(self, batch, logs=None):
        seen.append(round(logs["loss"], 4))


x = np.arange(20, dtype=np.float32).reshape(10, 2) / 10.0
y = np.arange(10, dtype=np.float32).reshape(10, 1)
model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,), kernel_initializer="ones")])
model.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss="mse")
history = model.fit(x, y, batch_size=3, steps_per_epoch=3, epochs=3, shuffle=False, verbose=0,
                    callbacks=[Batches()])
report("batch_losses", seen)
report("history", history.history)
seen.clear()
model.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse")
history = model.fit(x, y, batch_size=4, steps_per_epoch=2, epochs=4, shuffle=False, verbose=0,
                    callbacks=[Batches()])
report("trained.batch_losses", seen)
report("trained.weights", model.weights)
