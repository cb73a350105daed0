# The order of a subclassed Model's weights (what get_weights, set_weights and programs that
# assign weights in order see) when `build` appends add_weight's variables to lists assigned
# in __init__ (keras.io's TensorFlow NumPy example): Keras tracks each list as one attribute,
# so the lists' variables come list by list, then the model's other weights.


class Blocks(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.block_weights = []
        self.biases = []
        self.dense = tf.keras.layers.Dense(1)

    def build(self, input_shape):
        size = input_shape[1]
        for i, units in enumerate([3, 2]):
            self.block_weights.append(self.add_weight(shape=(size, units), name=f"block-{i}"))
            self.biases.append(self.add_weight(shape=(units,), name=f"bias-{i}"))
            size = units
        self.projector = self.add_weight(shape=(size, 1), name="projector")
        self.scale = self.add_weight(shape=(), name="scale", trainable=False)

    def call(self, x):
        for w, b in zip(self.block_weights, self.biases):
            x = tf.nn.relu(tf.matmul(x, w) + b)
        return self.dense(x) + tf.matmul(x, self.projector) * self.scale


model = Blocks()
model(tf.ones([1, 4]))
report("weights.names", [w.name for w in model.weights])
report("weights.shapes", [list(w.shape) for w in model.weights])
report("get_weights.shapes", [list(w.shape) for w in model.get_weights()])
model.set_weights([np.full(w.shape, i, np.float32) for i, w in enumerate(model.weights)])
report("set_weights.order", [float(np.asarray(w).ravel()[0]) for w in model.weights])
