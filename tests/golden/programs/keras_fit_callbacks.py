# fit's callbacks (the order of the hooks and their logs), EarlyStopping's options, stopping
# from a batch hook, validation_split, sample_weight and a model with two outputs
def dense_model(units=1, name="y"):
    inputs = tf.keras.Input(shape=(2,), name="x")
    outputs = tf.keras.layers.Dense(units, name=name)(inputs)
    model = tf.keras.Model(inputs, outputs)
    model.set_weights([np.array([[0.3] * units, [-0.2] * units], np.float32),
                       np.array([0.1] * units, np.float32)])
    return model


x = np.stack([np.linspace(-1.0, 1.0, 8), np.sin(np.linspace(0.0, 2.0, 8))], axis=1)
y = (x[:, :1] * 0.7 - x[:, 1:] * 0.4 + 0.2).astype(np.float32)


class Hooks(tf.keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.calls = []

    def on_train_begin(self, logs=None):
        self.calls.append(("train_begin", sorted(logs or {})))

    def on_epoch_begin(self, epoch, logs=None):
        self.calls.append(("epoch_begin", epoch))

    def on_batch_begin(self, batch, logs=None):
        self.calls.append(("batch_begin", batch))

    def on_batch_end(self, batch, logs=None):
        self.calls.append(("batch_end", batch, sorted(logs)))

    def on_epoch_end(self, epoch, logs=None):
        self.calls.append(("epoch_end", epoch, logs))

    def on_test_begin(self, logs=None):
        self.calls.append(("test_begin",))

    def on_test_end(self, logs=None):
        self.calls.append(("test_end", sorted(logs)))

    def on_train_end(self, logs=None):
        self.calls.append(("train_end", sorted(logs)))


hooks = Hooks()
model = dense_model()
model.compile(optimizer=tf.keras.optimizers.SGD(0.2), loss="mse", metrics=["mae"])
model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0, validation_split=0.25,
          callbacks=[hooks])
report("hooks", hooks.calls)
report("hooks.params", hooks.params)
report("hooks.model_is_model", hooks.model is model)


class StopAfterThree(tf.keras.callbacks.Callback):
    def on_train_batch_end(self, batch, logs=None):
        if batch == 2:
            self.model.stop_training = True


stopping = dense_model()
stopping.compile(optimizer=tf.keras.optimizers.SGD(0.2), loss="mae")
report("stop_in_batch.history", stopping.fit(x, y, batch_size=2, epochs=5, shuffle=False,
                                             verbose=0, callbacks=[StopAfterThree()]).history)

restore = dense_model()
restore.compile(optimizer=tf.keras.optimizers.SGD(1.5), loss="mse")
best = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=1, restore_best_weights=True)
restored = restore.fit(x, y, batch_size=8, epochs=20, shuffle=False, verbose=0,
                       callbacks=[best])
report("restore.losses", restored.history["loss"])
report("restore.stopped_epoch", best.stopped_epoch)
report("restore.best_epoch", best.best_epoch)
report("restore.best", best.best)
report("restore.weights", restore.get_weights())

labels = (x[:, 0] > 0).astype(np.int64)
classifier = dense_model(2, "logits")
classifier.compile(optimizer=tf.keras.optimizers.SGD(0.3),
                   loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                   metrics=["accuracy"])
by_accuracy = tf.keras.callbacks.EarlyStopping(monitor="accuracy", patience=2, baseline=0.9)
report("accuracy_monitor.history", classifier.fit(x, labels, batch_size=8, epochs=10,
                                                  shuffle=False, verbose=0,
                                                  callbacks=[by_accuracy]).history)
report("accuracy_monitor.stopped_epoch", by_accuracy.stopped_epoch)

weighted = dense_model()
weighted.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
report("sample_weight.history", weighted.fit(x, y, sample_weight=np.linspace(0.5, 2.0, 8),
                                             batch_size=3, epochs=2, shuffle=False,
                                             verbose=0).history)

inputs = tf.keras.Input(shape=(2,), name="x")
first = tf.keras.layers.Dense(1, name="first", kernel_initializer="ones")(inputs)
second = tf.keras.layers.Dense(2, name="second", kernel_initializer="zeros")(inputs)
two = tf.keras.Model(inputs, [first, second])
two.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss={"first": "mse", "second": "mae"},
            loss_weights={"first": 1.0, "second": 0.5}, metrics={"first": ["mae"]})
two_history = two.fit(x, [y, np.concatenate([y, -y], axis=1)], batch_size=4, epochs=2,
                      shuffle=False, verbose=0)
report("two_outputs.history", two_history.history)
report("two_outputs.metrics_names", two.metrics_names)
report("two_outputs.evaluate", two.evaluate(x, [y, np.concatenate([y, -y], axis=1)],
                                            verbose=0, return_dict=True))

balanced = dense_model(2, "logits")
balanced.compile(optimizer=tf.keras.optimizers.SGD(0.3),
                 loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
report("class_weight.history", balanced.fit(x, labels, class_weight={0: 0.25, 1: 2.0},
                                            batch_size=3, epochs=2, shuffle=False,
                                            verbose=0).history)

scheduled = dense_model()
scheduled.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
halving = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5 if epoch else lr)
report("lr_scheduler.history", scheduled.fit(x, y, batch_size=4, epochs=3, shuffle=False,
                                             verbose=0, callbacks=[halving]).history)
plateau = dense_model()
plateau.compile(optimizer=tf.keras.optimizers.SGD(2.2), loss="mse")
reducer = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1,
                                               cooldown=1, min_lr=0.3)
report("reduce_lr.history", plateau.fit(x, y, batch_size=8, epochs=8, shuffle=False, verbose=0,
                                        callbacks=[reducer]).history)
exploding = dense_model()
exploding.compile(optimizer=tf.keras.optimizers.SGD(50.0), loss="mse")
report("terminate_on_nan.history", exploding.fit(
    x * 100, y, batch_size=2, epochs=3, shuffle=False, verbose=0,
    callbacks=[tf.keras.callbacks.TerminateOnNaN()]).history)

keyed = tf.keras.Model(inputs, {"a": first, "b": second})
keyed.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss={"a": "mse", "b": "mae"},
              metrics={"b": ["mse"]})
targets = {"a": y, "b": np.concatenate([y, -y], axis=1)}
report("dict_outputs.history", keyed.fit(x, targets, batch_size=4, epochs=2, shuffle=False,
                                         verbose=0).history)
report("dict_outputs.evaluate", keyed.evaluate(x, targets, verbose=0, return_dict=True))
every = tf.keras.Model(inputs, [first, second])
every.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
report("flat_metrics_for_every_output.history", every.fit(
    x, [y, np.concatenate([y, -y], axis=1)], batch_size=4, epochs=1, shuffle=False,
    verbose=0).history)
