# fit, evaluate and predict on arrays given `steps` (steps_per_epoch) and no batch_size: Keras
# cuts the arrays into batches of ceil(examples / steps), not of 32. Reported: the size of
# each batch a fit, an evaluate and a predict ran, their losses and the weights after.
x = np.linspace(-1.0, 1.0, 300, dtype=np.float32).reshape(100, 3)
y = (x @ np.array([[0.5], [-1.0], [2.0]], np.float32) + 0.3).astype(np.float32)


class Counting(tf.keras.layers.Layer):
    """Passes its input on, noting each batch's size."""

    def __init__(self, sizes):
        super().__init__()
        self.sizes = sizes

    def call(self, inputs):
        if inputs.shape[0] is not None:     # (not when Keras traces the model)
            self.sizes.append(int(inputs.shape[0]))
        return inputs


for steps in (3, 7, 40):
    sizes = []
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), Counting(sizes),
                                 tf.keras.layers.Dense(1)])
    model.set_weights([np.array([[0.1], [0.2], [0.3]], np.float32),
                       np.array([0.0], np.float32)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"],
                  run_eagerly=True)
    del sizes[:]     # (what building the model called it with)
    history = model.fit(x, y, epochs=2, steps_per_epoch=steps, shuffle=False, verbose=0)
    report(f"fit_steps_{steps}.batch_sizes", sizes)
    report(f"fit_steps_{steps}.history", history.history)
    report(f"fit_steps_{steps}.weights", model.get_weights())
    del sizes[:]
    report(f"evaluate_steps_{steps}", model.evaluate(x, y, steps=steps, verbose=0))
    report(f"evaluate_steps_{steps}.batch_sizes", sizes)
    del sizes[:]
    report(f"predict_steps_{steps}", model.predict(x, steps=steps, verbose=0))
    report(f"predict_steps_{steps}.batch_sizes", sizes)
