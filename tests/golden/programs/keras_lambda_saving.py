# Models with Lambda layers (a Python lambda, a closure over a local name, a named function,
# `arguments=`) saved and loaded back in the same program: a SavedModel folder (what
# ModelCheckpoint writes for a path without a suffix, as the zero-to-mastery time-series
# notebook does), an HDF5 file, a .keras file (refused by load_model's safe_mode=True, as
# the function would be code to run; loaded with safe_mode=False), clone_model and
# from_config: the loaded models' predictions and evaluations, and the refusals. (tapeviz
# keeps the function by reference, so it loads only in the process that saved it.)
import os
import sys
import tempfile


class _ThisProgram:
    """tf-keras runs a loaded lambda's code with the globals of the module it names: this
    program's namespace stands in for that module."""


sys.modules[__name__] = _ThisProgram()
sys.modules[__name__].__dict__ = globals()

folder = tempfile.mkdtemp()
x = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(8, 3)
y = (x @ np.array([[0.5], [-1.0], [2.0]], np.float32) + 0.3).astype(np.float32)
scale = 0.5


def double(t):
    return t * 2.0


def make_model():
    inputs = tf.keras.Input(shape=(3,))
    h = tf.keras.layers.Lambda(lambda t: tf.expand_dims(t, axis=1))(inputs)
    h = tf.keras.layers.Conv1D(2, kernel_size=1, padding="causal")(h)
    h = tf.keras.layers.Lambda(lambda t, axis: tf.squeeze(t, axis=axis),
                               arguments={"axis": 1})(h)
    h = tf.keras.layers.Lambda(lambda t: t * scale)(h)       # a closure over `scale`
    outputs = tf.keras.layers.Dense(1)(tf.keras.layers.Lambda(double)(h))
    model = tf.keras.Model(inputs, outputs)
    model.set_weights([np.full(w.shape, 0.1 * (i + 1), np.float32)
                       + np.arange(w.size, dtype=np.float32).reshape(w.shape) * 0.01
                       for i, w in enumerate(model.get_weights())])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mae")
    return model


model = make_model()
report("config.function_type", [layer.get_config().get("function_type")
                                for layer in model.layers if "lambda" in layer.name])
history = model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0,
                    validation_data=(x[:4], y[:4]), callbacks=[
                        tf.keras.callbacks.ModelCheckpoint(os.path.join(folder, "best"),
                                                           save_best_only=True)])
report("fit", history.history)
report("trained.predict", model.predict(x, verbose=0))
best = tf.keras.models.load_model(os.path.join(folder, "best"))
report("checkpoint.predict", best.predict(x, verbose=0))
report("checkpoint.evaluate", best.evaluate(x, y, verbose=0))

model.save(os.path.join(folder, "model.h5"))
report("h5.predict", tf.keras.models.load_model(os.path.join(folder, "model.h5"))
       .predict(x, verbose=0))
model.save(os.path.join(folder, "model.keras"))
expect_error("keras.safe_mode", lambda: tf.keras.models.load_model(
    os.path.join(folder, "model.keras")))
report("keras.unsafe.predict", tf.keras.models.load_model(
    os.path.join(folder, "model.keras"), safe_mode=False).predict(x, verbose=0))
report("clone.predict_shape", list(tf.keras.models.clone_model(model).predict(
    x, verbose=0).shape))
# (from a config or JSON, Keras refuses the lambda as code it would run)
expect_error("from_config", lambda: tf.keras.Model.from_config(model.get_config()))
expect_error("model_from_json", lambda: tf.keras.models.model_from_json(model.to_json()))
sequential = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Lambda(double)])
expect_error("sequential.from_config", lambda: tf.keras.Sequential.from_config(
    sequential.get_config()))
layer = tf.keras.layers.Lambda.from_config(sequential.layers[0].get_config())
report("layer.from_config", layer(x[:2]))
