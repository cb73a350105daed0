# a Sequential of custom layers whose compute_output_shape calls batch_input_shape.as_list()
# (handson-ml2's MyDense): a shape given to it is a TensorShape


class MyDense(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, batch_input_shape):
        self.kernel = self.add_weight(name="kernel", shape=[batch_input_shape[-1], self.units],
                                      initializer="ones")
        super().build(batch_input_shape)

    def call(self, x):
        return x @ self.kernel

    def compute_output_shape(self, batch_input_shape):
        return tf.TensorShape(batch_input_shape.as_list()[:-1] + [self.units])


model = tf.keras.Sequential([MyDense(3, input_shape=(2,), name="first"),
                             MyDense(1, name="second")])
report("output", model(tf.constant([[1.0, 2.0]])))
report("weights", [list(w.shape) for w in model.weights])
