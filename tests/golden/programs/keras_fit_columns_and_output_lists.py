# fit of a dict of 1-D columns into Input(shape=(1,), name=...) inputs (Keras adds the last
# axis), a functional model with outputs=[output] fitted on 1-D targets, and a subclassed
# model with two outputs compiled with one loss and loss_weights (its outputs named
# output_1 and output_2); weights set from NumPy
L = tf.keras.layers


def weights(*shape, k=0.37):
    return (np.cos(np.arange(int(np.prod(shape))) * k) * 0.5).reshape(shape).astype(np.float32)


cols = {"a": np.linspace(-1, 1, 8).astype(np.float32),
        "b": np.cos(np.arange(8) * 0.9).astype(np.float32)}
target = np.array([0, 1, 1, 0, 1, 0, 0, 1], np.float32)
inputs = {name: tf.keras.Input(shape=(1,), name=name) for name in cols}
hidden = L.Dense(3, activation="tanh", name="hidden")(L.Concatenate()(list(inputs.values())))
model = tf.keras.Model(inputs, L.Dense(1, name="out")(hidden))
model.get_layer("hidden").set_weights([weights(2, 3), np.zeros(3, np.float32)])
model.get_layer("out").set_weights([weights(3, 1, k=0.8), np.zeros(1, np.float32)])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1),
              loss=tf.keras.losses.BinaryCrossentropy(from_logits=True), metrics=["accuracy"])
report("columns.history", model.fit(cols, target, batch_size=4, epochs=3, shuffle=False,
                                    verbose=0).history)
report("columns.call", model({k: tf.constant(v[:3]) for k, v in cols.items()}))

x = np.stack([cols["a"], cols["b"]], -1)
inp = tf.keras.Input(shape=(2,))
out = L.Dense(1, name="single")(inp)
model = tf.keras.Model(inputs=[inp], outputs=[out])
model.get_layer("single").set_weights([weights(2, 1), np.array([0.2], np.float32)])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
report("output_list.history", model.fit(x, target, batch_size=4, epochs=2, shuffle=False,
                                        verbose=0).history)
report("output_list.evaluate", model.evaluate(x, target, verbose=0))


class TwoHeads(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = L.Dense(3, activation="relu")
        self.main_output = L.Dense(1)
        self.aux_output = L.Dense(1)

    def call(self, inputs):
        h = self.hidden(inputs)
        return self.main_output(h), self.aux_output(h)


for name, loss in [("one_loss", "mse"), ("loss_list", ["mse", "mae"])]:
    model = TwoHeads()
    model(x[:1])
    for i, v in enumerate(model.trainable_variables):
        v.assign(weights(*v.shape, k=0.3 + 0.1 * i))
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss=loss, loss_weights=[0.9, 0.1],
                  metrics=["mae"])
    history = model.fit(x, (target, 2 * target), batch_size=4, epochs=2, shuffle=False,
                        validation_data=(x[:4], (target[:4], 2 * target[:4])), verbose=0)
    report(f"subclassed.{name}.history", history.history)
    report(f"subclassed.{name}.evaluate", model.evaluate(x, (target, 2 * target), verbose=0))
    report(f"subclassed.{name}.metrics_names", model.metrics_names)
