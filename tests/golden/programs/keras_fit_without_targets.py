# fit(x) without targets: a custom train_step gets x itself, as Keras's
# pack_x_y_sample_weight gives it (the VAE of keras.io computes its loss on `data`);
# a dict of inputs comes as the dict.
seen = []


class Probe(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d = tf.keras.layers.Dense(1, kernel_initializer="ones")

    def train_step(self, data):
        seen.append(data)
        with tf.GradientTape() as tape:
            x = data[0] if isinstance(data, tuple) else data
            x = x["a"] if isinstance(x, dict) else x
            loss = tf.reduce_mean(tf.square(self.d(x) - x[:, :1]))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}


x = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]], np.float32)
for label, inputs in (("array", x), ("dict", {"a": x})):
    seen.clear()
    model = Probe()
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), run_eagerly=True)
    history = model.fit(inputs, batch_size=3, epochs=2, shuffle=False, verbose=0)
    data = seen[0]
    report(label + ".is_tuple", isinstance(data, tuple))
    report(label + ".is_dict", isinstance(data, dict))
    report(label + ".length", len(data) if isinstance(data, tuple) else None)
    report(label + ".loss", history.history["loss"])
    if not isinstance(data, (tuple, dict)):
        report(label + ".data", data)
        report(label + ".bce_sum", tf.reduce_sum(
            tf.keras.losses.binary_crossentropy(tf.ones_like(data) * 0.5, tf.sigmoid(data))))
