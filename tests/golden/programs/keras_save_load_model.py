# Whole-model saving and weights files in Keras's formats: model.save to a .keras zip, an .h5
# file and a path without suffix (TensorFlow: a SavedModel; tapeviz: its own directory),
# keras.models.load_model of each (predictions, layer names and classes, the compile config
# and the optimizer's restored step count, one more training step), save_weights and
# load_weights with .h5 and .weights.h5 paths, ModelCheckpoint with save_weights_only=False,
# Layer.get_config of the layers used, and the errors for missing, damaged and mismatched
# files. (tests/golden/saved_models checks that each library reads the other's files.)
import json
import os
import tempfile
import zipfile

import h5py

os.chdir(tempfile.mkdtemp())    # (relative paths: error messages name no folder)
root = "."
x = np.linspace(-1, 1, 24).reshape(4, 6).astype(np.float32)
y = np.array([0, 1, 1, 0])


def fill(model):
    for i, w in enumerate(model.trainable_weights):
        n = int(np.prod(w.shape))
        w.assign((np.cos(np.arange(n) * 0.41 + i) * 0.4).reshape(tuple(w.shape)))


def dense_model():
    model = tf.keras.Sequential([tf.keras.layers.Dense(5, activation="tanh", input_shape=(6,)),
                                 tf.keras.layers.Dropout(0.0),
                                 tf.keras.layers.Dense(2)])
    fill(model)
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    return model


def conv_model():
    inputs = tf.keras.Input(shape=(6, 1))
    h = tf.keras.layers.Conv1D(3, 3, padding="same", activation="relu")(inputs)
    h = tf.keras.layers.BatchNormalization()(h)
    h = tf.keras.layers.Flatten()(h)
    outputs = tf.keras.layers.Dense(2, activation="softmax")(h)
    model = tf.keras.Model(inputs, outputs)
    fill(model)
    model.compile(optimizer="rmsprop", loss="sparse_categorical_crossentropy")
    return model


for name, make, data in (("dense", dense_model, x), ("conv", conv_model, x[..., None])):
    model = make()
    model.fit(data, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    report(name + ".trained", model.predict(data, verbose=0))
    for suffix in (".keras", ".h5", ""):
        path = os.path.join(root, name + "_model" + suffix)
        model.save(path)
        loaded = tf.keras.models.load_model(path)
        key = name + (suffix or ".dir")
        report(key + ".predict", loaded.predict(data, verbose=0))
        report(key + ".layers", [(layer.name, type(layer).__name__) for layer in loaded.layers])
        report(key + ".optimizer", [type(loaded.optimizer).__name__,
                                    int(loaded.optimizer.iterations.numpy())])
        loaded.fit(data, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
        report(key + ".one_more_step", loaded.predict(data, verbose=0))
        uncompiled = tf.keras.models.load_model(path, compile=False)
        report(key + ".uncompiled", uncompiled.predict(data, verbose=0))
    for suffix in (".h5", ".weights.h5"):
        path = os.path.join(root, name + "_weights" + suffix)
        model.save_weights(path)
        fresh = make()
        fresh.load_weights(path)
        report(name + suffix + ".load_weights", fresh.predict(data, verbose=0))

with zipfile.ZipFile(os.path.join(root, "dense_model.keras")) as archive:
    report("keras_zip.names", sorted(archive.namelist()))
    config = json.loads(archive.read("config.json"))
report("config.class_name", config["class_name"])
report("config.layers", [layer["class_name"] for layer in config["config"]["layers"]])
report("config.compile.loss", config["compile_config"]["loss"]["class_name"])
with h5py.File(os.path.join(root, "dense_weights.h5"), "r") as f:
    report("h5.layer_names", [str(n.decode() if isinstance(n, bytes) else n)
                              for n in f.attrs["layer_names"]])

dense = tf.keras.layers.Dense(3, activation="relu", use_bias=False, name="d3")
config = dense.get_config()
report("dense.config", {k: config[k] for k in ("name", "units", "activation", "use_bias")})
report("dense.config.initializer", config["kernel_initializer"]["class_name"])
conv = tf.keras.layers.Conv2D(4, (3, 3), strides=2, padding="same", name="c")
config = conv.get_config()
report("conv.config", {k: config[k] for k in ("filters", "padding")})
report("conv.config.sizes", [list(config["kernel_size"]), list(config["strides"])])
lstm = tf.keras.layers.LSTM(4, return_sequences=True, name="l")
config = lstm.get_config()
report("lstm.config", {k: config[k] for k in ("units", "return_sequences", "return_state",
                                              "activation", "recurrent_activation")})
clone = tf.keras.layers.Dense.from_config(tf.keras.layers.Dense(2, name="e").get_config())
report("from_config", [clone.name, clone.units])

# ModelCheckpoint with Keras's default save_weights_only=False
folder = os.path.join(root, "checkpoints")
model = dense_model()
model.fit(x, y, epochs=2, verbose=0, validation_data=(x, y), callbacks=[
    tf.keras.callbacks.ModelCheckpoint(os.path.join(folder, "m-{epoch}.keras"))])
report("checkpoint.files", sorted(os.listdir(folder)))
report("checkpoint.predict", tf.keras.models.load_model(
    os.path.join(folder, "m-2.keras")).predict(x, verbose=0))

# errors
expect_error("load_model.missing", lambda: tf.keras.models.load_model(
    os.path.join(root, "nope.keras")))
expect_error("load_model.missing_dir", lambda: tf.keras.models.load_model(
    os.path.join(root, "nope")))
with open(os.path.join(root, "bad.keras"), "wb") as f:
    f.write(b"PK\x03\x04 not a zip")
expect_error("load_model.corrupted", lambda: tf.keras.models.load_model(
    os.path.join(root, "bad.keras")))
expect_error("load_model.weights_only_h5", lambda: tf.keras.models.load_model(
    os.path.join(root, "dense_weights.h5")))
expect_error("load_weights.missing", lambda: dense_model().load_weights(
    os.path.join(root, "nope.h5")))
expect_error("load_weights.layer_count", lambda: tf.keras.Sequential(
    [tf.keras.layers.Dense(2, input_shape=(6,))]).load_weights(
    os.path.join(root, "dense_weights.h5")))
with h5py.File(os.path.join(root, "dense_model.h5"), "a") as f:
    f.attrs["model_config"] = f.attrs["model_config"].replace('"Dense"', '"NoSuchLayer"')
expect_error("load_model.unknown_layer", lambda: tf.keras.models.load_model(
    os.path.join(root, "dense_model.h5")))
expect_error("save.bad_format", lambda: dense_model().save(os.path.join(root, "m"),
                                                           save_format="zip"))
