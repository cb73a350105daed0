# fit, evaluate and predict reading a tf.keras.utils.Sequence: which batches are read in which
# order (the first one peeked once, an order from Python's random.shuffle when fit shuffles),
# when on_epoch_end runs (not logged against batch ends: TensorFlow reads a batch ahead on a
# thread), float64 batches as float32, a Sequence as validation_data, and the errors for y=
# or sample_weight=
import random

x_all = np.linspace(-1.0, 1.0, 24).reshape(12, 2)    # float64, as a NumPy user has it
y_all = (x_all[:, :1] * 2.0 - x_all[:, 1:]).astype(np.float32)
calls = []


class Batches(tf.keras.utils.Sequence):
    def __init__(self, weights=False):
        self.weights = weights

    def __len__(self):
        return 4

    def __getitem__(self, index):
        calls.append(("get", index))
        cut = slice(3 * index, 3 * index + 3)
        if self.weights:
            return x_all[cut], y_all[cut], np.array([1.0, 0.5, 0.0])
        return x_all[cut], y_all[cut]

    def on_epoch_end(self):
        calls.append(("epoch_end",))


dense = tf.keras.layers.Dense(1)
model = tf.keras.Sequential([dense])
model.build((None, 2))
dense.kernel.assign([[0.5], [-0.25]])
dense.bias.assign([0.1])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")

random.seed(3)
history = model.fit(Batches(), epochs=2, verbose=0)
report("fit_calls", [list(c) for c in calls])
report("fit_loss", history.history["loss"])
report("kernel", dense.kernel)

calls.clear()
history = model.fit(Batches(), epochs=1, shuffle=False, verbose=0)
report("unshuffled_calls", [list(c) for c in calls])

calls.clear()
history = model.fit(Batches(), epochs=1, shuffle=False, verbose=0,
                    validation_data=Batches(weights=True))
report("validation_calls", [list(c) for c in calls])
report("validation_history", history.history)

calls.clear()
report("evaluate", model.evaluate(Batches(weights=True), verbose=0))
report("evaluate_calls", [list(c) for c in calls])

calls.clear()
predictions = model.predict(Batches(), verbose=0)
report("predict", predictions)
report("predict_dtype", predictions.dtype.name)
report("predict_calls", [list(c) for c in calls])
report("len", len(Batches()))
report("iterated", len(list(iter(Batches()))))

expect_error("fit_with_y", lambda: model.fit(Batches(), y_all, verbose=0))
expect_error("fit_with_sample_weight",
             lambda: model.fit(Batches(), sample_weight=np.ones(12), verbose=0))
expect_error("getitem_not_implemented", lambda: tf.keras.utils.Sequence()[0])
