# Names the third trial's public programs stopped on: tf.math.softmax, tf.nn.depth_to_space
# (and space_to_depth) with gradients, RepeatVector, PReLU (shared axes, trained a step),
# Rescaling, Layer.input_shape, keras.metrics' loss functions, keras.utils.set_random_seed,
# tf.device; and their errors.
x = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4) / 10.0 - 1.0
report("math_softmax", tf.math.softmax(tf.constant([[1.0, 2.0, 0.5]])))
report("math_log_softmax", tf.math.log_softmax(tf.constant([1.0, 2.0, 0.5]), axis=0))
report("depth_to_space", tf.nn.depth_to_space(x, 2))
report("space_to_depth", tf.nn.space_to_depth(tf.nn.depth_to_space(x, 2), 2))
with tf.GradientTape() as tape:
    xt = tf.constant(x)
    tape.watch(xt)
    y = tf.nn.depth_to_space(xt, 2)
    loss = tf.reduce_sum(y * tf.reshape(tf.range(24, dtype=tf.float32), [1, 4, 6, 1]))
report("depth_to_space_grad", tape.gradient(loss, xt))
expect_error("depth_to_space_bad_depth", lambda: tf.nn.depth_to_space(x[..., :3], 2))
report("repeat_vector", tf.keras.layers.RepeatVector(3)(tf.constant([[1.0, 2.0], [3.0, 4.0]])))
expect_error("repeat_vector_rank", lambda: tf.keras.layers.RepeatVector(2)(x))
prelu = tf.keras.layers.PReLU(alpha_initializer=tf.keras.initializers.Constant(0.25))
report("prelu", prelu(x))
report("prelu_alpha", [prelu.alpha.name, prelu.alpha.shape.as_list()])
shared = tf.keras.layers.PReLU(shared_axes=[1, 2])
_ = shared(x)
report("prelu_shared_shape", shared.alpha.shape.as_list())
model = tf.keras.Sequential([tf.keras.layers.Dense(3, kernel_initializer="ones"),
                             tf.keras.layers.PReLU(), tf.keras.layers.Dense(1)])
model.build((None, 2))
model.layers[2].kernel.assign([[1.0], [-2.0], [0.5]])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
hist = model.fit(np.array([[1.0, -2.0], [-0.5, -1.0]], np.float32),
                 np.array([[1.0], [2.0]], np.float32), epochs=2, batch_size=2, verbose=0)
report("prelu_fit", hist.history["loss"])
report("prelu_trained_alpha", model.layers[1].alpha)
report("rescaling", tf.keras.layers.Rescaling(1.0 / 255, offset=-0.5)(
    np.array([[0, 51, 255]], np.uint8)))
dense = tf.keras.layers.Dense(3)
expect_error("input_shape_before_call", lambda: dense.input_shape)
seq = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=[2, 2]), dense])
report("input_shape", dense.input_shape)
report("metrics_mse", tf.keras.metrics.mean_squared_error([[1.0, 2.0]], [[0.0, 4.0]]))
report("metrics_mae", tf.keras.metrics.mae([[1.0, 2.0]], [[0.0, 4.0]]))
report("metrics_cce", tf.keras.metrics.categorical_crossentropy([[0.0, 1.0]], [[0.3, 0.7]]))
report("metrics_bce", tf.keras.metrics.binary_crossentropy([[0.0, 1.0]], [[0.3, 0.7]]))
tf.keras.utils.set_random_seed(7)
import random as _random
report("set_random_seed", [_random.random(), float(np.random.rand())])
expect_error("set_random_seed_float", lambda: tf.keras.utils.set_random_seed(1.5))
with tf.device("CPU:0"):
    report("device_block", tf.reduce_sum(tf.constant([1.0, 2.0])))
a, b = tf.constant([[1.0, -2.0]]), tf.constant([[3.0, 0.5]])
report("merge_functions", [tf.keras.layers.multiply([a, b]), tf.keras.layers.subtract([a, b]),
                           tf.keras.layers.average([a, b]), tf.keras.layers.maximum([a, b]),
                           tf.keras.layers.minimum([a, b])])
# compile(loss="mse") with labels of shape (batch,) beside predictions (batch, 3): Keras gives
# the labels a last axis before the loss (they broadcast over the 3 outputs)
wide = tf.keras.Sequential([tf.keras.layers.Dense(3, kernel_initializer="ones")])
wide.build((None, 2))
wide.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
hist = wide.fit(np.array([[1.0, -2.0], [0.5, 1.0]], np.float32), np.array([1.0, 2.0], np.float32),
                epochs=2, batch_size=2, verbose=0)
report("mse_rank1_labels", hist.history["loss"])
