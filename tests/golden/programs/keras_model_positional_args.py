# tf.keras.Model's positional arguments: (inputs, outputs) make a functional model; a
# subclass's super().__init__('mlp_policy') (as in a public A2C agent) passes one that
# tf-keras ignores (the model is named after its class)
class Policy(tf.keras.Model):
    def __init__(self):
        super().__init__("mlp_policy")
        self.dense = tf.keras.layers.Dense(1, kernel_initializer="ones")

    def call(self, x):
        return self.dense(x)


policy = Policy()
report("output", policy(tf.constant([[1.0, 2.0]])))
report("name", policy.name)
x_in = tf.keras.Input(shape=(2,))
functional = tf.keras.Model(x_in, tf.keras.layers.Dense(1, kernel_initializer="ones")(x_in))
report("functional_positional", functional(tf.constant([[1.0, 2.0]])))
x2 = tf.keras.Input(shape=(2,))
half = tf.keras.Model(x2, outputs=tf.keras.layers.Dense(1, kernel_initializer="ones")(x2))
report("functional_inputs_positional_outputs_by_name", half(tf.constant([[3.0, 2.0]])))
