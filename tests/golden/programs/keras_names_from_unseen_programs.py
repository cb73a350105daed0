# Names that public programs outside the wild corpus use: tf.math.l2_normalize (SimSiam,
# "visualizing what convnets learn"), keras.losses.KLDivergence (knowledge distillation),
# `layer.output` of a functional model's layer and `layer.activation = None` (Grad-CAM)
x = tf.Variable([[3.0, 4.0, 0.0], [1e-7, -2e-7, 0.0], [0.5, -1.0, 2.0]])
w = tf.constant([[1.0, -2.0, 0.5], [3.0, 1.0, -1.0], [0.25, 0.5, 2.0]])
for axis in (None, 0, 1, -1, [0, 1]):
    with tf.GradientTape() as tape:
        y = tf.math.l2_normalize(x, axis=axis)
        loss = tf.reduce_sum(y * w)
    report("l2_normalize.axis=%s" % (axis,), y)
    report("l2_normalize.grad.axis=%s" % (axis,), tape.gradient(loss, x))
report("l2_normalize.nn", tf.nn.l2_normalize(x, axis=1))
report("l2_normalize.linalg", tf.linalg.l2_normalize([[0.0, 0.0], [6.0, 8.0]], axis=1))
report("l2_normalize.epsilon", tf.math.l2_normalize(x, axis=1, epsilon=1.0))
report("l2_normalize.float64", tf.math.l2_normalize(tf.constant([1.0, 2.0], tf.float64)))
with tf.GradientTape() as tape:
    zero = tf.constant([0.0, 0.0])
    tape.watch(zero)
    y = tf.math.l2_normalize(zero)
report("l2_normalize.grad_at_zero", tape.gradient(y, zero))

p = tf.constant([[0.2, 0.3, 0.5], [0.0, 1.0, 0.0], [0.9, 0.05, 0.05]])
q = tf.Variable([[0.1, 0.6, 0.3], [0.3, 0.3, 0.4], [0.7, 0.2, 0.1]])
kld = tf.keras.losses.KLDivergence()
with tf.GradientTape() as tape:
    loss = kld(p, q)
report("kld", loss)
report("kld.grad", tape.gradient(loss, q))
report("kld.name", kld.name)
report("kld.none", tf.keras.losses.KLDivergence(reduction="none")(p, q))
report("kld.sum", tf.keras.losses.KLDivergence(reduction="sum")(p, q))
report("kld.weighted", kld(p, q, sample_weight=tf.constant([1.0, 0.0, 2.0])))
report("kld.fn", tf.keras.losses.kl_divergence(p, q))
report("kld.alias", tf.keras.losses.kld(p, q))
report("kld.out_of_range", kld([[2.0, -1.0]], [[-0.5, 3.0]]))

inputs = tf.keras.Input(shape=(3,))
hidden_layer = tf.keras.layers.Dense(2, activation="relu", name="hidden")
hidden = hidden_layer(inputs)
head = tf.keras.layers.Dense(2, activation="softmax", name="head")
outputs = head(hidden)
model = tf.keras.Model(inputs, outputs)
for v, value in zip(model.weights, [[[1.0, -1.0], [0.5, 2.0], [-0.5, 0.25]], [0.1, -0.2],
                                    [[1.0, 2.0], [-3.0, 0.5]], [0.0, 0.3]]):
    v.assign(value)
report("output.is_call_result", model.get_layer("hidden").output is hidden)
report("output.shape", list(model.get_layer("hidden").output.shape))
report("output.input_layer_shape", list(model.layers[0].output.shape))
extractor = tf.keras.Model(model.inputs, [model.get_layer("hidden").output, model.output])
data = tf.constant([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])
feature, prediction = extractor(data)
report("output.extractor", [feature, prediction])
expect_error("output.not_called", lambda: tf.keras.layers.Dense(2).output)
head.activation = None
report("activation_none.dense", model(data))
conv = tf.keras.layers.Conv2D(1, 1, activation="relu")
conv(tf.ones((1, 2, 2, 1)))
conv.kernel.assign([[[[-2.0]]]])
conv.activation = None
report("activation_none.conv", conv(tf.ones((1, 2, 2, 1))))

# a subclassed model called on a tuple of NumPy arrays of different shapes (word2vec's
# `(target, context)` pairs): each array becomes a tensor of its own
class PairModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.embedding = tf.keras.layers.Embedding(5, 2)

    def call(self, pair):
        target, context = pair
        return tf.einsum("be,bce->bc", self.embedding(target), self.embedding(context))


pair_model = PairModel()
pair = (np.array([1, 2]), np.array([[0, 1, 2], [3, 4, 0]]))
report("pair.shape", list(pair_model(pair).shape))
pair_model.embedding.embeddings.assign([[0.5, -1.0], [1.0, 2.0], [-0.5, 0.25], [3.0, 0.0],
                                        [0.1, 0.2]])
report("pair.values", pair_model(pair))
report("pair.list", pair_model([pair[0], pair[1]]))
