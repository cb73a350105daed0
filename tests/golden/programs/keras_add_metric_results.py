# `layer.add_metric(metric(...))` finds the metric from its result, however many other
# metrics were called in between: each result carries its own metric


class TwoMetrics(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.mean_fn = tf.keras.metrics.Mean(name="mean_of_inputs")
        self.sum_fn = tf.keras.metrics.Sum(name="sum_of_inputs")

    def call(self, inputs):
        mean = self.mean_fn(inputs)
        total = self.sum_fn(inputs)
        self.add_metric(mean)          # (the mean's result, after the sum was called)
        self.add_metric(total)
        return inputs


inputs = tf.keras.Input((2,))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(1, kernel_initializer="ones")(
    TwoMetrics()(inputs)))
model.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss="mse")
x = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], np.float32)
y = np.zeros((4, 1), np.float32)
report("evaluate", model.evaluate(x, y, batch_size=2, verbose=0, return_dict=True))
