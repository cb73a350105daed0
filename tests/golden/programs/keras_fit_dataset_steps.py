# fit on a tf.data.Dataset with steps_per_epoch: Keras keeps one iterator across epochs
# unless steps_per_epoch is the dataset's length (then each epoch starts it afresh), so
# epochs take the elements that come next; when a finite dataset runs out, that epoch ends
# and training stops. Reported: the first value of each batch each fit ran, the histories.
x = np.arange(20, dtype=np.float32).reshape(10, 2) / 10.0
y = (x[:, :1] - x[:, 1:]).astype(np.float32)
seen = []


class Seen(tf.keras.layers.Layer):
    def call(self, inputs):
        if inputs.shape[0] is not None:
            seen.append(float(inputs[0, 0].numpy()))
        return inputs


def run(name, dataset, **kwargs):
    model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), Seen(), tf.keras.layers.Dense(1)])
    model.set_weights([np.array([[0.2], [-0.1]], np.float32), np.array([0.0], np.float32)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", run_eagerly=True)
    del seen[:]
    history = model.fit(dataset, verbose=0, **kwargs)
    report(f"{name}.seen", list(seen))
    report(f"{name}.history", history.history)
    report(f"{name}.epochs", history.epoch)


data = tf.data.Dataset.from_tensor_slices((x, y)).batch(2)     # 5 batches
run("fewer_steps", data, epochs=3, steps_per_epoch=2)
run("steps_as_length", data, epochs=2, steps_per_epoch=5)
run("more_steps", data, epochs=3, steps_per_epoch=7)
run("no_steps", data, epochs=2)
run("repeated", data.repeat(), epochs=3, steps_per_epoch=3)
