# tf.keras.callbacks.ModelCheckpoint with save_weights_only=True: the file names formatted
# from the epoch and the logs ({epoch:02d}, {val_loss:.2f}, {batch}), save_best_only with
# 'auto' / 'min' / 'max' and initial_value_threshold (which epochs it saves), an integer
# save_freq, the weights read back with load_weights, and its refusals. (The files' contents
# differ: each library reads only its own; docs/tensorflow-differences.md.)
import os
import tempfile

root = tempfile.mkdtemp()
x = np.linspace(-1, 1, 16).reshape(8, 2).astype(np.float32)
y = (x[:, :1] * 0.7 - x[:, 1:] * 0.4 > 0).astype(np.float32)
xv, yv = x[::-1][:4] * 1.5, y[::-1][:4]
yv_mixed = yv * np.array([[1], [0], [1], [1]], np.float32)   # a validation loss that wanders


def make_model(lr=0.5):
    model = tf.keras.Sequential([tf.keras.Input(shape=(2,)),
                                 tf.keras.layers.Dense(1, activation="sigmoid", name="d")])
    model.get_layer("d").set_weights([np.array([[0.3], [-0.2]], np.float32),
                                      np.array([0.05], np.float32)])
    model.compile(optimizer=tf.keras.optimizers.SGD(lr), loss="binary_crossentropy",
                  metrics=["accuracy"])
    return model


def files(directory):
    """The checkpoints written (each library names the files of one its own way)."""
    names = os.listdir(directory) if os.path.isdir(directory) else []
    return sorted({n.split(".data")[0].split(".index")[0] for n in names if n != "checkpoint"})


def run(name, filepath, epochs=4, lr=0.5, val=(xv, yv), **kwargs):
    directory = os.path.join(root, name)
    model = make_model(lr)
    callback = tf.keras.callbacks.ModelCheckpoint(os.path.join(directory, filepath),
                                                  save_weights_only=True, **kwargs)
    history = model.fit(x, y, batch_size=4, epochs=epochs, shuffle=False, verbose=0,
                        validation_data=val, callbacks=[callback])
    report(f"{name}.history", history.history)
    report(f"{name}.files", files(directory))
    latest = tf.train.latest_checkpoint(directory)
    report(f"{name}.latest", latest and os.path.basename(latest))
    report(f"{name}.best", float(callback.best))
    return directory, model


directory, _ = run("every_epoch", "w-{epoch:02d}-{val_loss:.2f}")
restored = make_model()
restored.load_weights(os.path.join(directory, files(directory)[-1]))
report("every_epoch.restored", restored.get_weights())
run("best_val_loss", "best-{epoch}", epochs=6, save_best_only=True, lr=4.0,
    val=(xv, yv_mixed))
run("best_accuracy_auto", "best-{epoch}", save_best_only=True, monitor="val_accuracy",
    epochs=6, lr=4.0, val=(xv, yv_mixed))
run("best_loss_max", "best-{epoch}", save_best_only=True, monitor="loss", mode="max")
run("best_threshold", "best-{epoch}", save_best_only=True, initial_value_threshold=0.0)
run("missing_monitor", "best", save_best_only=True, monitor="val_auc")
run("every_3_batches", "w-{epoch}-{batch}", epochs=3, save_freq=3)
directory, model = run("best_restored", "best", epochs=6, save_best_only=True, lr=4.0,
    val=(xv, yv_mixed))
restored = make_model()
restored.load_weights(os.path.join(directory, "best"))
report("best_restored.weights", restored.get_weights())
report("best_restored.val_loss", restored.evaluate(xv, yv, verbose=0))
expect_error("bad_save_freq", lambda: tf.keras.callbacks.ModelCheckpoint(
    os.path.join(root, "w"), save_weights_only=True, save_freq="batch"))
expect_error("unknown_key", lambda: make_model().fit(
    x, y, epochs=1, verbose=0, callbacks=[tf.keras.callbacks.ModelCheckpoint(
        "w-{val_acc:.2f}", save_weights_only=True)]))    # (refused before any file is written)
