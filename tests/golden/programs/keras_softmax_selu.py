# tf.keras.layers.Softmax (axis=, a list of axes, mask=) and the selu activation
# (tf.nn.selu, tf.keras.activations.selu, activation="selu") with their gradients


def vg(name, f, x):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    report(name, y)
    report(name + ".grad", tape.gradient(y, x))


X = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
W = tf.constant([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
vg("softmax_layer", lambda x: tf.keras.layers.Softmax()(x) * W, X)
vg("softmax_axis0", lambda x: tf.keras.layers.Softmax(axis=0)(x) * W, X)
vg("softmax_axes01", lambda x: tf.keras.layers.Softmax(axis=[0, 1])(x) * W, X)
vg("softmax_axes_one", lambda x: tf.keras.layers.Softmax(axis=[1])(x) * W, X)
vg("softmax_mask_bool", lambda x: tf.keras.layers.Softmax()(
    x, mask=tf.constant([[True, False, True], [True, True, False]])) * W, X)
vg("softmax_mask_float", lambda x: tf.keras.layers.Softmax()(
    x, mask=tf.constant([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])) * W, X)
vg("softmax_3d", lambda x: tf.keras.layers.Softmax()(x) * 2.0,
   [[[1.0, 2.0], [0.0, -1.0]], [[3.0, 3.0], [10.0, 0.0]]])
report("softmax_float64", tf.keras.layers.Softmax()(tf.constant(X, tf.float64)))
report("softmax_name", tf.keras.layers.Softmax().name)
model = tf.keras.Sequential([tf.keras.layers.Dense(3, use_bias=False),
                             tf.keras.layers.Softmax()])
model.build((None, 2))
model.layers[0].kernel.assign([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]])
report("sequential_probs", model(tf.constant([[1.0, 2.0], [-1.0, 0.5]])))

V = [-3.0, -1.0, -0.5, 0.0, 0.5, 2.0]
vg("nn_selu", lambda x: tf.nn.selu(x), V)
vg("activations_selu", lambda x: tf.keras.activations.selu(x) * 2.0, V)
vg("get_selu", lambda x: tf.keras.activations.get("selu")(x), [[-2.0, 1.0], [0.0, -0.1]])
vg("selu_extremes", lambda x: tf.nn.selu(x), [-1e4, -100.0, 100.0, 1e4])
report("selu_float64", tf.nn.selu(tf.constant([-1.0, 1.0], tf.float64)))
report("selu_float16", tf.nn.selu(tf.constant([-1.0, 1.0], tf.float16)))
report("selu_name", tf.keras.activations.serialize(tf.keras.activations.selu))
expect_error("selu_int", lambda: tf.nn.selu(tf.constant([1, 2])))
x = tf.constant([-1.0, 0.5])
with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = tf.nn.selu(x)
    dy = inner.gradient(y, x)
report("selu_second_derivative", outer.gradient(dy, x))
dense = tf.keras.layers.Dense(2, activation="selu", kernel_initializer="lecun_normal")
dense.build((None, 2))
report("dense_selu_kernel_shape", list(dense.kernel.shape))
dense.kernel.assign([[1.0, -2.0], [0.5, 0.25]])
with tf.GradientTape() as tape:
    out = dense(tf.constant([[1.0, 1.0], [-1.0, 2.0]]))
report("dense_selu", out)
report("dense_selu.grad", tape.gradient(out, dense.trainable_variables))
