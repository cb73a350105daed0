# tf.keras.callbacks.CSVLogger: the file fit writes (header, epoch column, sorted keys with
# validation metrics, the separator), appending to it on a second fit, and an epoch cut
# short by a callback that stops training.
import os
import tempfile

os.chdir(tempfile.mkdtemp())    # (relative paths: error messages name no folder)
x = np.linspace(-1, 1, 16).reshape(8, 2).astype(np.float32)
y = (x[:, :1] * 3.0 - x[:, 1:]).astype(np.float32)


def rounded(path):
    with open(path) as f:
        rows = [line.rstrip("\n").split(";" if ";" in line else ",") for line in f]
    return [[str(round(float(c), 5)) if c.replace(".", "").replace("-", "").replace(
        "e", "").isdigit() else c for c in row] for row in rows]


model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,),
                                                   kernel_initializer="ones")])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
model.fit(x, y, batch_size=4, epochs=3, verbose=0, shuffle=False, validation_data=(x, y),
          callbacks=[tf.keras.callbacks.CSVLogger("log.csv")])
report("csv", rounded("log.csv"))
model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False,
          callbacks=[tf.keras.callbacks.CSVLogger("log.csv", append=True)])
report("csv_appended", rounded("log.csv"))
model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False,
          callbacks=[tf.keras.callbacks.CSVLogger("semi.csv", separator=";", append=True)])
report("csv_separator_new_file", rounded("semi.csv"))


class StopNow(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        if epoch == 1:
            self.model.stop_training = True


model.fit(x, y, batch_size=4, epochs=5, verbose=0, shuffle=False,
          callbacks=[StopNow(), tf.keras.callbacks.CSVLogger("stopped.csv")])
report("csv_stopped", rounded("stopped.csv"))
