# model.compile / fit / evaluate / predict / *_on_batch with SGD, no shuffling, weights set
def make_model():
    inputs = tf.keras.Input(shape=(2,), name="x")
    hidden = tf.keras.layers.Dense(3, activation="tanh", name="hidden")(inputs)
    outputs = tf.keras.layers.Dense(1, name="y")(hidden)
    model = tf.keras.Model(inputs, outputs)
    model.set_weights([
        np.array([[0.4, -0.3, 0.2], [0.1, 0.5, -0.6]], np.float32),
        np.array([0.0, 0.1, -0.1], np.float32),
        np.array([[0.7], [-0.4], [0.3]], np.float32),
        np.array([0.2], np.float32),
    ])
    return model


x = np.stack([np.linspace(-1.0, 1.0, 10), np.cos(np.linspace(0.0, 3.0, 10))], axis=1)
y = (0.5 * x[:, :1] - x[:, 1:] ** 2 + 0.3).astype(np.float32)
x_val, y_val = x[:4] * 0.5, y[:4] + 0.1

model = make_model()
expect_error("fit_before_compile", lambda: model.fit(x, y, verbose=0))
expect_error("evaluate_before_compile", lambda: model.evaluate(x, y, verbose=0))
report("predict_before_compile", model.predict(x[:2], verbose=0))
expect_error("unknown_optimizer", lambda: model.compile(optimizer="adamx", loss="mse"))
model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1), loss="mse",
              metrics=["mae"])
report("metrics_names_before_fit", model.metrics_names)
seen = []
history = model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0,
                    validation_data=(x_val, y_val),
                    callbacks=[tf.keras.callbacks.LambdaCallback(
                        on_epoch_end=lambda epoch, logs: seen.append(
                            (epoch, sorted(logs))))])
report("history", history.history)
report("history.epoch", history.epoch)
report("history.params", history.params)
report("lambda_callback", seen)
report("metrics_names", model.metrics_names)
report("weights_after_fit", model.get_weights())
report("evaluate", model.evaluate(x, y, batch_size=3, verbose=0))
report("evaluate_dict", model.evaluate(x, y, verbose=0, return_dict=True))
predicted = model.predict(x, batch_size=4, verbose=0)
report("predict.type", type(predicted).__name__)
report("predict", predicted)
report("train_on_batch", model.train_on_batch(x[:5], y[:5]))
report("test_on_batch", model.test_on_batch(x[:5], y[:5]))
report("predict_on_batch", model.predict_on_batch(x[:2]))

ds_model = make_model()
ds_model.compile(optimizer="sgd", loss=tf.keras.losses.MeanSquaredError())
dataset = tf.data.Dataset.from_tensor_slices((x.astype(np.float32), y)).batch(3)
report("dataset_history", ds_model.fit(dataset, epochs=2, verbose=0).history)
report("dataset_evaluate", ds_model.evaluate(dataset, verbose=0))

labels = np.array([0, 2, 1, 2, 0, 1, 1, 0, 2, 2])
classifier = tf.keras.Sequential([tf.keras.layers.Dense(3, name="logits")])
classifier.build((None, 2))
classifier.set_weights([np.array([[0.2, -0.1, 0.4], [0.3, 0.5, -0.2]], np.float32),
                        np.zeros(3, np.float32)])
classifier.compile(optimizer=tf.keras.optimizers.SGD(0.5),
                   loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                   metrics=["accuracy"])
report("classifier_history", classifier.fit(x, labels, batch_size=5, epochs=2, shuffle=False,
                                            verbose=0).history)

stopper = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=2, min_delta=0.002)
slow = make_model()
slow.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
stopped = slow.fit(x, y, batch_size=10, epochs=30, shuffle=False, verbose=0,
                   callbacks=[stopper])
report("early_stopping.stopped_epoch", stopper.stopped_epoch)
report("early_stopping.epochs_run", len(stopped.history["loss"]))
report("early_stopping.losses", stopped.history["loss"])
