# model.compile(steps_per_execution=N): the same training as one step at a time, but the
# batch hooks run once per execution of N batches (begin with its first step, end with its
# last step and the logs after it; predict's end with the execution's outputs joined).


class Recorder(tf.keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.calls = []

    def _logs(self, logs):
        return {k: float(v) for k, v in sorted((logs or {}).items())}

    def on_train_batch_begin(self, batch, logs=None):
        self.calls.append(["train_begin", int(batch)])

    def on_train_batch_end(self, batch, logs=None):
        self.calls.append(["train_end", int(batch), self._logs(logs)])

    def on_test_batch_begin(self, batch, logs=None):
        self.calls.append(["test_begin", int(batch)])

    def on_test_batch_end(self, batch, logs=None):
        self.calls.append(["test_end", int(batch), self._logs(logs)])

    def on_predict_batch_begin(self, batch, logs=None):
        self.calls.append(["predict_begin", int(batch)])

    def on_predict_batch_end(self, batch, logs=None):
        self.calls.append(["predict_end", int(batch), logs["outputs"]])

    def on_epoch_end(self, epoch, logs=None):
        self.calls.append(["epoch_end", epoch, self._logs(logs)])


x = np.linspace(-1, 1, 14).reshape(7, 2).astype(np.float32)
y = (x[:, :1] * 2 - x[:, 1:]).astype(np.float32)


def model(steps):
    m = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])
    m.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"], steps_per_execution=steps)
    return m


for steps in [1, 3, 4]:
    m, r = model(steps), Recorder()
    h = m.fit(x, y, batch_size=2, epochs=2, verbose=0, callbacks=[r], shuffle=False,
              validation_data=(x[:3], y[:3]))
    report(f"fit.{steps}", [h.history, m.get_weights(), r.calls])
    r.calls = []
    report(f"evaluate.{steps}", [m.evaluate(x, y, batch_size=2, verbose=0, callbacks=[r]),
                                 r.calls])
    r.calls = []
    report(f"predict.{steps}", [m.predict(x, batch_size=2, verbose=0, callbacks=[r]),
                                r.calls])
    report(f"variable.{steps}", [m.steps_per_execution.dtype.name,
                                 int(m.steps_per_execution.numpy())])

m, r = model(3), Recorder()
m.fit(x, y, batch_size=2, epochs=1, verbose=0, callbacks=[r], shuffle=False, steps_per_epoch=2)
report("fit.steps_per_epoch_below", [m.get_weights(), r.calls])
report("not_a_weight", [len(m.weights), len(m.non_trainable_weights)])
report("values", [int(model(v).steps_per_execution.numpy()) for v in [None, 0, "auto", 5]])
report("before_compile", tf.keras.Sequential([tf.keras.layers.Dense(1)]).steps_per_execution)
expect_error("float", lambda: model(1.5))
expect_error("string", lambda: model("x"))
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(2).filter(lambda a, b: True)
expect_error("unknown_size", lambda: model(3).fit(ds, epochs=1, verbose=0))
