# Variables and layers held in dict attributes, in tf.nest's order (keys sorted, numbers as
# numbers), whatever order the dict was written in: a Keras layer's weights and sublayers, a
# model's layers and weights, a tf.Module's variables


class DictHolder(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.scalars = {"b": tf.Variable(1.0, name="vb"), "a": tf.Variable(2.0, name="va")}
        self.dense = {"z": tf.keras.layers.Dense(1, name="dz"),
                      "y": tf.keras.layers.Dense(1, name="dy")}

    def call(self, x):
        return self.dense["z"](x) + self.dense["y"](x)


layer = DictHolder()
report("layer.weights_before_build", [w.name for w in layer.weights])
layer(tf.ones((1, 2)))
report("layer.weights", [w.name for w in layer.weights])
report("layer.submodules", [m.name for m in layer.submodules])


class DictModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = {"z": tf.keras.layers.Dense(1, name="mz"),
                      "y": tf.keras.layers.Dense(1, name="my")}

    def call(self, x):
        return self.dense["z"](x) + self.dense["y"](x)


model = DictModel()
model(tf.ones((1, 2)))
report("model.layers", [m.name for m in model.layers])
report("model.weights", [w.name for w in model.weights])


class NumberKeys(tf.Module):
    def __init__(self):
        super().__init__()
        self.by_step = {10: tf.Variable(1.0, name="v10"), 9: tf.Variable(2.0, name="v9")}


report("module.variables", [v.name for v in NumberKeys().variables])
