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


# a Sequential with input_shape=(1,) called on a rank-1 tensor: Keras expands it to (batch, 1)
seq = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(1,))])
seq.layers[0].kernel.assign([[2.0, -1.0]])
report("rank1_into_input_shape_1", seq(tf.constant([1.0, 2.0, 3.0])))
report("rank1_zeros_enum", seq(tf.zeros((4), 1)))
report("rank2_unchanged", seq(tf.constant([[1.0], [2.0]])))
wide = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
expect_error("rank1_into_input_shape_3", lambda: wide(tf.constant([1.0, 2.0, 3.0])))
deferred = tf.keras.Sequential([tf.keras.layers.Dense(2)])
expect_error("rank1_into_deferred", lambda: deferred(tf.constant([1.0, 2.0])))
