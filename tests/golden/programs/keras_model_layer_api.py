# Model and Layer methods that Keras code calls beside fit: Layer.metrics (add_metric),
# add_variable, stateful, Model.reset_states, run_eagerly, fit_generator /
# evaluate_generator / predict_generator; and more of tf.keras.backend (K.ndim, K.one_hot,
# K.arange, K.zeros, K.repeat_elements, K.l2_normalize, ...) with gradients.
import warnings

L = tf.keras.layers
K = tf.keras.backend


class Probe(L.Layer):
    def build(self, input_shape):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            self.w = self.add_variable("w", shape=(input_shape[-1], 2), initializer="ones")
        self.warned = [str(w.message) for w in caught]

    def call(self, x):
        y = tf.matmul(x, self.w)
        self.add_metric(tf.reduce_mean(y), name="probe_mean")
        return y


probe = Probe(name="probe")
report("layer_metrics_before", probe.metrics)
out = probe(tf.ones((2, 3)))
report("layer_metrics", [(m.name, m.result()) for m in probe.metrics])
report("add_variable", [probe.w.name, probe.w, probe.warned])
report("layer_stateful", [probe.stateful, L.Dense(2).stateful, L.LSTM(2).stateful])

x = np.linspace(-1, 1, 16).reshape(8, 2).astype(np.float32)
y = (x[:, :1] * 2.0 - x[:, 1:]).astype(np.float32)
model = tf.keras.Sequential([L.Dense(3, activation="tanh", input_shape=(2,)), L.Dense(1)])
for i, w in enumerate(model.weights):
    w.assign(np.cos(np.arange(int(np.prod(w.shape))) * 0.3 + i).reshape(w.shape) * 0.5)
report("model_stateful", model.stateful)
report("reset_states", model.reset_states())
report("run_eagerly_default", model.run_eagerly)
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
report("run_eagerly_compiled", model.run_eagerly)
model.run_eagerly = True
report("run_eagerly_set", model.run_eagerly)
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", run_eagerly=True)
report("run_eagerly_compile_arg", model.run_eagerly)


def batches():
    while True:
        for i in range(0, 8, 4):
            yield x[i:i + 4], y[i:i + 4]


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    history = model.fit_generator(batches(), steps_per_epoch=2, epochs=2, verbose=0)
    evaluated = model.evaluate_generator(batches(), steps=2)
    predicted = model.predict_generator(batches(), steps=1)
report("fit_generator", history.history)
report("evaluate_generator", evaluated)
report("predict_generator", predicted)
report("generator_warnings", sorted({str(w.message) for w in caught
                                     if "deprecated" in str(w.message)}))

V = tf.constant([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])


def vg(name, f):
    v = tf.constant(V)
    with tf.GradientTape() as tape:
        tape.watch(v)
        r = f(v)
    report(name, r)
    report(name + ".grad", tape.gradient(r, v))


vg("permute_dimensions", lambda v: K.permute_dimensions(v, (1, 0)) * tf.constant([[1.0, 2.0]]))
vg("stack", lambda v: K.stack([v, v * 2.0], axis=1))
vg("gather", lambda v: K.gather(v, [1, 1, 0]))
vg("cumsum", lambda v: K.cumsum(v, axis=1))
vg("repeat_elements", lambda v: K.repeat_elements(v, 2, axis=1) * tf.range(6, dtype=tf.float32))
vg("tile", lambda v: K.tile(v, (2, 1)))
vg("l2_normalize", lambda v: K.l2_normalize(v, axis=1) * tf.constant([1.0, 2.0, 3.0]))
vg("l2_normalize_all", lambda v: K.l2_normalize(v))
vg("sin_cos", lambda v: K.sin(v) + K.cos(v) * 2.0)
vg("softplus_softsign", lambda v: K.softplus(v) * K.softsign(v))
report("ndim", [K.ndim(V), K.ndim(tf.constant(1.0)), K.ndim(tf.ones((2, 3, 4)))])
report("eval", K.eval(V * 2.0))
report("dtype", [K.dtype(V), K.dtype(tf.constant([1, 2]))])
report("cast_to_floatx", [K.cast_to_floatx([1, 2]), K.cast_to_floatx(3)])
report("one_hot", K.one_hot(tf.constant([0, 2, 1]), 3))
report("arange", [K.arange(5), K.arange(1, 7, 2), K.arange(-3), K.arange(0, 3, dtype="float32")])
zeros, ones = K.zeros((2, 3)), K.ones((2,), dtype="float64", name="ones_v")
report("zeros_ones", [isinstance(zeros, tf.Variable), zeros, isinstance(ones, tf.Variable),
                     ones.name, ones])
report("zeros_empty", [isinstance(K.zeros((0, 2)), tf.Variable), K.zeros((0, 2)).shape.as_list()])
report("image_data_format", K.image_data_format())
K.set_image_data_format("channels_last")
expect_error("bad_data_format", lambda: K.set_image_data_format("nhwc"))
