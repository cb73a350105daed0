# model.build(input_shape) on a subclassed keras.Model, beyond keras_subclassed_build: a call
# that reshapes its input (the FashionMNIST custom model of dragen1860/TensorFlow-2.x-Tutorials
# does `model.build((None, 28, 28))`, then sets weights and fits), TensorShape and list
# shapes, the ValueError wrapping a call that refuses float stand-ins, and a subclass's own
# build calling super().build(shape) on a first call, which runs call in tf-keras's graph of
# its own: those layers' weights are named outside the model's scope (`dense_14/kernel:0`).


class Reshaped(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.layer1 = tf.keras.layers.Dense(3, activation=tf.nn.relu)
        self.layer2 = tf.keras.layers.Dense(2)

    def call(self, x, training=False):
        x = tf.reshape(x, [-1, 2 * 2])
        return self.layer2(self.layer1(x))


model = Reshaped()
report("built_before", model.built)
report("weights_before", len(model.weights))
model.build((None, 2, 2))
report("built_after", model.built)
report("weight_names", [w.name for w in model.weights])
report("weight_shapes", [list(w.shape) for w in model.weights])
report("count_params", model.count_params())
for i, w in enumerate(model.weights):
    w.assign(np.linspace(-0.5, 0.5 + i, int(np.prod(w.shape)), dtype=np.float32).reshape(w.shape))
x = np.arange(12, dtype=np.float32).reshape(3, 2, 2) / 10.0
report("output", model(x))
report("weights_unchanged_by_call", len(model.weights))


class NeedsTraining(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(2)
        self.seen = []

    def call(self, inputs, training):
        self.seen.append(training)
        return self.dense(inputs)


needs = NeedsTraining()
needs.build([None, 3])           # a list of dimensions is one shape
report("training_given_to_build", needs.seen)
report("list_shape_weights", [list(w.shape) for w in needs.weights])


class TwoInputs(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.a = tf.keras.layers.Dense(2)
        self.b = tf.keras.layers.Dense(1)

    def call(self, inputs):
        return self.a(inputs["x"]) + self.b(inputs["y"])


two = TwoInputs()
two.build({"x": (None, 4), "y": (None, 5)})
report("dict_shape_weights", [list(w.shape) for w in two.weights])



class ListInputs(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.a = tf.keras.layers.Dense(2)
        self.b = tf.keras.layers.Dense(2)

    def call(self, inputs):
        return self.a(inputs[0]) + self.b(inputs[1])


lists = ListInputs()
lists.build([(None, 3), (None, 6)])
report("list_of_shapes_weights", [list(w.shape) for w in lists.weights])

tensor_shape = Reshaped()
tensor_shape.build(tf.TensorShape([None, 2, 2]))
report("tensorshape_weights", [list(w.shape) for w in tensor_shape.weights])


class ExtraArgument(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(2)

    def call(self, inputs, scale):
        return self.dense(inputs) * scale


class IntegerOnly(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.embed = tf.keras.layers.Embedding(5, 2)

    def call(self, inputs):
        return tf.gather(tf.ones([5, 2]), inputs)


expect_error("build_none", lambda: Reshaped().build(None))
expect_error("build_int", lambda: Reshaped().build(4))
expect_error("build_extra_argument", lambda: ExtraArgument().build((None, 3)))
expect_error("build_float_into_gather", lambda: IntegerOnly().build((None, 3)))


class OwnBuild(tf.keras.Model):
    """A subclass with its own build: called with the first data's shape, as Keras's."""

    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(2)
        self.shapes = []

    def build(self, input_shape):
        self.shapes.append(list(input_shape))
        self.scale = self.add_weight(name="scale", shape=(), initializer="ones")
        super().build(input_shape)

    def call(self, inputs):
        return self.dense(inputs) * self.scale


own = OwnBuild()
own(np.ones((2, 3), np.float32))
report("own_build_shapes", own.shapes)
report("own_build_weights", [w.name for w in own.weights])
