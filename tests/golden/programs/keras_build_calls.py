# Building layers and models directly: Dense.build given a shape without a batch axis (Keras
# checks the rank of what the layer is called on, not of what build is given), a Dense layer
# called on a rank-1 tensor (refused, left unbuilt), and Model.build of a subclassed model
# whose call is a tf.function method with an input_signature (its instance is not an
# argument build must fill), or whose call requires an argument build cannot give.
import inspect

dense = tf.keras.layers.Dense(units=1)
dense.build(input_shape=(2,))
report("dense_rank1_build.built", dense.built)
report("dense_rank1_build.shapes", [list(w.shape) for w in dense.weights])
dense.set_weights([np.array([[0.5], [-1.0]], np.float32), np.array([0.25], np.float32)])
report("dense_rank1_build.call", dense(tf.constant([[1.0, 2.0], [3.0, -4.0]])))

fresh = tf.keras.layers.Dense(units=3)
expect_error("dense_rank1_call", lambda: fresh(tf.constant([1.0, 2.0])))
report("dense_rank1_call.built", fresh.built)
report("dense_rank1_call.then_rank2", list(fresh(tf.ones([4, 2])).shape))


class SignatureModel(tf.keras.Model):
    def build(self, input_shape):
        self.dense1 = tf.keras.layers.Dense(4, activation="relu", name="dense1")
        self.dense2 = tf.keras.layers.Dense(1, name="dense2")
        super().build(input_shape)

    @tf.function(input_signature=[tf.TensorSpec(shape=[None, 2], dtype=tf.float32)])
    def call(self, x):
        return self.dense2(self.dense1(x))


model = SignatureModel()
report("signature_call.parameters", list(inspect.signature(model.call).parameters))
model.build(input_shape=(None, 2))
report("signature_call.built", model.built)
report("signature_call.shapes", [list(w.shape) for w in model.weights])
model.set_weights([np.full(w.shape, 0.1 * (i + 1), np.float32) for i, w in
                   enumerate(model.get_weights())])
report("signature_call.call", model(tf.constant([[1.0, 2.0]])))


class NeedsMask(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)

    @tf.function
    def call(self, x, extra):
        return self.dense(x) * extra


expect_error("required_argument_build", lambda: NeedsMask().build((None, 2)))
