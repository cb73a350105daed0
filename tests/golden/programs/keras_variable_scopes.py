# Variable names under name scopes, as Keras code sees them: tf.Variable inside tf.name_scope,
# a layer built inside a subclassed model's call ('m/dense/kernel:0'), a Sequential inside it
# (built outside every scope: 'dense_1/kernel:0'), a layer called inside a name scope, and a
# layer whose build makes an add_weight and a raw tf.Variable, inside another layer's call
with tf.name_scope("a"):
    v = tf.Variable(1.0, name="v")
    with tf.name_scope("b"):
        w = tf.Variable(1.0, name="w")
report("scoped_variables", [v.name, w.name, tf.Variable(2.0, name="top").name])


class M(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d = tf.keras.layers.Dense(2)
        self.inner = tf.keras.Sequential([tf.keras.layers.Dense(1)])

    def call(self, x):
        return self.inner(self.d(x))


m = M()
m(tf.ones((1, 3)))
report("subclassed_model", [x.name for x in m.trainable_variables])
layer = tf.keras.layers.Dense(2)
with tf.name_scope("outer"):
    layer(tf.ones((1, 2)))
report("layer_in_scope", [x.name for x in layer.weights])


class L(tf.keras.layers.Layer):
    def build(self, shape):
        self.w = self.add_weight("w", shape=(1,))
        self.v = tf.Variable(1.0, name="raw")

    def call(self, x):
        return x * self.w


class Outer(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.inner_layer = L()

    def call(self, x):
        return self.inner_layer(x)


o = Outer()
o(tf.ones((1, 1)))
report("nested_layers", [x.name for x in o.weights])
seq = tf.keras.Sequential([tf.keras.layers.Dense(2), tf.keras.Sequential([tf.keras.layers.Dense(1)])])
seq(tf.ones((2, 3)))
report("nested_sequential", [x.name for x in seq.weights])
