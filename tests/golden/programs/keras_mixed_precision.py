# tf.keras.mixed_precision: dtype policies, layers computing in float16 with float32
# variables (Keras's autocast), a float16 matmul's rounding, LossScaleOptimizer's dynamic
# loss scale over steps with an Inf gradient, and compile's loss scaling under the policy
import collections

mp = tf.keras.mixed_precision
p = mp.Policy("mixed_float16")
report("policy", [p.name, p.compute_dtype, p.variable_dtype, repr(p)])
report("policy_float16", [mp.Policy("float16").compute_dtype, mp.Policy("float16").variable_dtype])
report("policy_float64", [mp.Policy("float64").compute_dtype, mp.Policy("float64").variable_dtype])
report("global_default", mp.global_policy().name)
expect_error("bad_policy", lambda: mp.Policy("mixed_float32"))
expect_error("int_global", lambda: mp.set_global_policy("int32"))

x = tf.constant([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]])
kernel = np.array([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]], np.float32)
mp.set_global_policy("mixed_float16")
try:
    report("global_mixed", mp.global_policy().name)
    dense = tf.keras.layers.Dense(2, activation="relu")
    dense.build((None, 3))
    dense.kernel.assign(kernel)
    dense.bias.assign([0.05, -0.1])
    report("dense_dtypes", [dense.dtype, dense.compute_dtype, dense.variable_dtype,
                            dense.dtype_policy.name, dense.kernel.dtype.name])
    report("kernel_read_outside", tf.convert_to_tensor(dense.kernel))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = dense(x)
        loss = tf.reduce_sum(tf.cast(y, tf.float32) ** 2)
    report("dense_out", y)
    report("dense_grads", tape.gradient(loss, [dense.kernel, dense.bias, x]))
    report("float64_input", dense(tf.constant([[1.0, 2.0, 3.0]], tf.float64)).dtype.name)
    softmax = tf.keras.layers.Activation("softmax", dtype="float32")
    report("softmax_float32", [softmax.dtype_policy.name, softmax(y)])
    plain = tf.keras.layers.Dense(1, dtype="float32", kernel_initializer="ones")
    report("float32_layer", plain(y))
    # a half-precision product summed in float32 and rounded once (as TensorFlow's CPU
    # kernel), not rounded at each step: 1 + 16 * 2**-11
    a = tf.constant([[1.0] + [2.0 ** -11] * 16], tf.float16)
    report("matmul_float16", tf.matmul(a, tf.ones((17, 1), tf.float16)))
    inputs = tf.keras.Input(shape=(3,))
    hidden = tf.keras.layers.Dense(4, kernel_initializer="ones")(inputs)
    outputs = tf.keras.layers.Activation("softmax", dtype="float32")(
        tf.keras.layers.Dense(2, kernel_initializer="ones")(hidden))
    report("functional_dtypes", [inputs.dtype.name, hidden.dtype.name, outputs.dtype.name])
    model = tf.keras.Model(inputs, outputs)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="sparse_categorical_crossentropy")
    report("compile_wraps", [isinstance(model.optimizer, mp.LossScaleOptimizer),
                             model.optimizer.loss_scale])
    history = model.fit(x, np.array([0, 1]), epochs=2, verbose=0)
    report("fit_loss", history.history["loss"])
    report("fit_weights", model.get_weights())
    report("fit_scale", [model.optimizer.loss_scale, model.optimizer.dynamic_counter,
                         model.optimizer.iterations])
    # the normalization layers keep float32 weights and normalize a float16 input in float32
    xn = tf.constant(np.linspace(-2, 3, 12, dtype=np.float32).reshape(4, 3))
    for norm in (tf.keras.layers.BatchNormalization(), tf.keras.layers.LayerNormalization()):
        with tf.GradientTape() as tape:
            yn = norm(tf.cast(xn, tf.float16), training=True)
            loss = tf.reduce_sum(tf.cast(yn, tf.float32) * tf.constant([1.0, 2.0, 3.0]))
        report(type(norm).__name__, [yn, [v.dtype.name for v in norm.weights],
                                     tape.gradient(loss, norm.trainable_variables)])
        report(type(norm).__name__ + "_weights", norm.get_weights())
finally:
    mp.set_global_policy("float32")

opt = mp.LossScaleOptimizer(tf.keras.optimizers.SGD(0.5), dynamic_growth_steps=2)
report("lso_defaults", [opt.dynamic, opt.initial_scale, opt.dynamic_growth_steps, opt.loss_scale])
v = tf.Variable([1.0, 2.0])
report("scaled_loss", opt.get_scaled_loss(tf.constant(3.0)))
report("unscaled", opt.get_unscaled_gradients([tf.constant([65536.0, 32768.0]), None]))
steps = []
for g in ([1.0, 1.0], [1.0, 1.0], [np.inf, 1.0], [1.0, 1.0], [np.nan, 0.0], [2.0, 2.0],
          [1.0, 1.0]):
    opt.apply_gradients([(tf.constant(g), v)])
    steps.append([opt.loss_scale, tf.identity(opt.dynamic_counter), tf.identity(opt.iterations),
                  tf.identity(v)])
report("lso_steps", steps)
w = tf.Variable(3.0)
opt2 = mp.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1))
with tf.GradientTape() as tape:
    loss = w * w
opt2.minimize(loss, [w], tape=tape)
report("lso_minimize", [w, opt2.loss_scale, opt2.dynamic_counter])
static = mp.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1), dynamic=False, initial_scale=4)
report("static", [static.dynamic, static.loss_scale, static.dynamic_counter])
expect_error("static_without_scale",
             lambda: mp.LossScaleOptimizer(tf.keras.optimizers.SGD(), dynamic=False))
expect_error("dynamic_not_bool", lambda: mp.LossScaleOptimizer(tf.keras.optimizers.SGD(), "x"))
expect_error("wrap_twice", lambda: mp.LossScaleOptimizer(opt))
inner = tf.keras.optimizers.SGD()
mp.LossScaleOptimizer(inner)
expect_error("inner_wrapped_twice", lambda: mp.LossScaleOptimizer(inner))
# Keras's autocast under the default float32 policy too: any layer casts floating inputs
# (namedtuple fields included) to its compute dtype
report("float64_into_activation", tf.keras.layers.Activation("relu")(
    tf.constant([-1.0, 2.0], tf.float64)))
Pair = collections.namedtuple("Pair", "a b")


class AddPair(tf.keras.layers.Layer):
    def call(self, p):
        return p.a + p.b


report("namedtuple_inputs", AddPair()(Pair(tf.constant([1.0], tf.float64), tf.constant([2.0]))))
