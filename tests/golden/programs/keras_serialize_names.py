# Keras names older code calls: the lowercase initializer aliases (truncated_normal,
# variance_scaling, identity, lecun_uniform, ...), initializers/regularizers/constraints
# serialize and deserialize, utils.get_custom_objects and custom_object_scope, and
# backend.name_scope and the backend's random draws (shapes, dtypes, and the NumPy draw an
# unseeded one makes)
K = tf.keras.backend
inits = tf.keras.initializers
for name in ("constant", "zeros", "ones", "random_normal", "random_uniform", "truncated_normal",
             "variance_scaling", "glorot_uniform", "glorot_normal", "he_normal", "he_uniform",
             "lecun_normal", "lecun_uniform", "identity"):
    init = getattr(inits, name)()
    report(f"initializers.{name}.class", type(init).__name__)
    report(f"initializers.{name}.config", init.get_config())
report("initializers.truncated_normal.shape", list(inits.truncated_normal(stddev=0.02)(
    (3, 4)).shape))
report("initializers.variance_scaling.args", inits.variance_scaling(
    2.0, mode="fan_out", distribution="uniform").get_config())
report("initializers.tf_initializers", type(tf.initializers.variance_scaling(
    scale=0.5)).__name__)
report("initializers.identity", inits.identity(gain=2.0)((2, 3)))
report("initializers.identity.float64", inits.Identity()((2, 2), dtype=tf.float64))
expect_error("initializers.identity.rank3", lambda: inits.Identity()((2, 2, 2)))
expect_error("initializers.identity.int", lambda: inits.Identity()((2, 2), dtype=tf.int32))
report("initializers.serialize", inits.serialize(inits.VarianceScaling(2.0)))
report("initializers.deserialize.dict", inits.deserialize(
    {"class_name": "TruncatedNormal", "config": {"mean": 0.0, "stddev": 0.3,
                                                 "seed": None}}).get_config())
report("initializers.deserialize.name", type(inits.deserialize("lecun_uniform")).__name__)
dense = tf.keras.layers.Dense(2, kernel_initializer=inits.identity())
report("initializers.identity_in_dense", dense(tf.constant([[1.0, 2.0]])))

regs = tf.keras.regularizers
report("regularizers.serialize.l2", regs.serialize(regs.l2(0.01)))
report("regularizers.serialize.l1_l2", regs.serialize(regs.L1L2(0.1, 0.2)))
report("regularizers.deserialize.dict", regs.deserialize(
    {"class_name": "L2", "config": {"l2": 0.5}}).get_config())
report("regularizers.deserialize.name", type(regs.deserialize("l1")).__name__)
report("regularizers.get.dict", regs.get({"class_name": "L1", "config": {"l1": 0.25}})(
    tf.constant([1.0, -2.0])))
cons = tf.keras.constraints
report("constraints.serialize", cons.serialize(cons.MaxNorm(2)))
report("constraints.deserialize.dict", cons.deserialize(
    {"class_name": "MaxNorm", "config": {"max_value": 3, "axis": 0}}).get_config())
report("constraints.deserialize.name", type(cons.deserialize("non_neg")).__name__)


def scaled_tanh(x):
    return 2.0 * tf.tanh(x)


tf.keras.utils.get_custom_objects()["scaled_tanh"] = scaled_tanh
report("custom_objects.contains", "scaled_tanh" in tf.keras.utils.get_custom_objects())
layer = tf.keras.layers.Dense(1, activation="scaled_tanh", kernel_initializer="ones")
report("custom_objects.activation_by_name", layer(tf.constant([[0.25, 0.5]])))
report("custom_objects.activation_layer", tf.keras.layers.Activation("scaled_tanh")(
    tf.constant([1.0])))


class Halved(tf.keras.regularizers.Regularizer):
    def __init__(self, factor=0.5):
        self.factor = factor

    def __call__(self, w):
        return self.factor * tf.reduce_sum(w)

    def get_config(self):
        return {"factor": self.factor}


spec = {"class_name": "Halved", "config": {"factor": 0.25}}
with tf.keras.utils.custom_object_scope({"Halved": Halved}):
    report("custom_object_scope.inside", regs.deserialize(spec)(tf.constant([4.0])))
with tf.keras.utils.CustomObjectScope({"Halved": Halved}):
    report("custom_object_scope.class", regs.get(spec)(tf.constant([8.0])))

with K.name_scope("block"):
    report("backend.name_scope", tf.Variable(1.0, name="w").name)
np.random.seed(0)
draws = [K.random_normal((2, 3)), K.random_uniform((4,), minval=1.0, maxval=2.0),
         K.truncated_normal((3,), dtype="float64"), K.random_bernoulli((5,), p=0.5)]
report("backend.random.shapes", [list(d.shape) for d in draws])
report("backend.random.dtypes", [d.dtype.name for d in draws])
report("backend.random.uniform_range", bool(tf.reduce_all(draws[1] >= 1.0)) and bool(
    tf.reduce_all(draws[1] < 2.0)))
report("backend.random.bernoulli_values", sorted(set(draws[3].numpy().tolist())) in (
    [0.0], [1.0], [0.0, 1.0]))
report("backend.random.numpy_stream_after", np.random.randint(1000, size=3))
report("backend.random.seeded_keeps_numpy", [K.random_normal((1,), seed=3).shape.rank,
                                             np.random.randint(1000)])
