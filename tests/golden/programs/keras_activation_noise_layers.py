# ReLU's max_value / negative_slope / threshold, ELU, ThresholdedReLU (values and gradients,
# boundaries included), K.relu and K.elu, Permute, and the noise layers: GaussianNoise,
# GaussianDropout and SpatialDropout1D/2D (identity outside training; in training, which
# values a channel keeps, and the scale of what is kept), with their errors.
L = tf.keras.layers
V = tf.constant([[-7.0, -1.0, -0.5, 0.0, 0.25, 0.5], [1.0, 2.0, 5.999, 6.0, 6.5, 10.0]])


def vg(name, f, x=V):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    report(name, y)
    report(name + ".grad", tape.gradient(y, x))


vg("relu_default", L.ReLU())
vg("relu6", L.ReLU(max_value=6))
vg("relu_max_4_5", L.ReLU(max_value=4.5))
vg("relu_slope", L.ReLU(negative_slope=0.2))
vg("relu_slope_max", L.ReLU(max_value=6.0, negative_slope=0.1))
vg("relu_threshold", L.ReLU(threshold=0.5))
vg("relu_all", L.ReLU(max_value=5.0, negative_slope=0.3, threshold=0.5))
vg("relu_max_zero", L.ReLU(max_value=0.0))
vg("k_relu_threshold_slope", lambda x: tf.keras.backend.relu(x, alpha=0.5, threshold=1.0))
vg("k_relu_default", lambda x: tf.keras.backend.relu(x))
vg("elu_default", L.ELU())
vg("elu_alpha", L.ELU(alpha=0.5))
vg("k_elu", lambda x: tf.keras.backend.elu(x, 2.0))
vg("thresholded_default", L.ThresholdedReLU())
vg("thresholded_theta", L.ThresholdedReLU(theta=0.5))
report("relu_float64", L.ReLU(max_value=1.0, dtype="float64")(V))
report("elu_config", {k: v for k, v in L.ELU(0.7).get_config().items() if k != "dtype"})
report("relu_config", {k: v for k, v in L.ReLU(6.0, 0.1, 0.2).get_config().items()
                       if k != "dtype"})
for name, make in (("relu_negative_max", lambda: L.ReLU(max_value=-1.0)),
                   ("relu_negative_slope", lambda: L.ReLU(negative_slope=-0.1)),
                   ("relu_negative_threshold", lambda: L.ReLU(threshold=-1.0)),
                   ("elu_none", lambda: L.ELU(alpha=None)),
                   ("thresholded_negative", lambda: L.ThresholdedReLU(theta=-1.0)),
                   ("permute_bad", lambda: L.Permute((1, 3))),
                   ("permute_rank", lambda: L.Permute((2, 1))(tf.ones((2, 3, 4, 5))))):
    expect_error(name, make)

X = tf.reshape(tf.range(24, dtype=tf.float32), (2, 3, 4))
vg("permute_21", lambda x: L.Permute((2, 1))(x) * tf.range(6, dtype=tf.float32)[None, :4, None],
   X)
report("permute_312", L.Permute((3, 1, 2))(tf.ones((1, 2, 3, 4))).shape.as_list())
model = tf.keras.Sequential([L.Permute((2, 1), input_shape=(3, 4)), L.Flatten()])
report("permute_sequential", [model.output_shape, model(X)])

for layer in (L.GaussianNoise(0.5), L.GaussianDropout(0.3), L.SpatialDropout1D(0.5)):
    report(layer.name + ".inference", [layer(X), layer(X, training=False)])
report("spatial2d.inference", L.SpatialDropout2D(0.5)(tf.ones((1, 2, 2, 3))))

tf.random.set_seed(3)
big = tf.ones((64, 10, 8))
dropped = L.SpatialDropout1D(0.5)(big, training=True).numpy()
# each (example, channel) is kept everywhere, as 1/(1-rate), or dropped everywhere
report("spatial1d.channel_wise", bool(np.all(dropped == dropped[:, :1, :])))
report("spatial1d.values", sorted(set(np.unique(dropped).tolist())))
report("spatial1d.some_of_each", bool(0.3 < (dropped[:, 0, :] == 0).mean() < 0.7))
maps = L.SpatialDropout2D(0.25)(tf.ones((32, 3, 3, 6)), training=True).numpy()
report("spatial2d.channel_wise", bool(np.all(maps == maps[:, :1, :1, :])))
report("spatial2d.values", sorted(set(np.unique(maps).tolist())))
first = L.SpatialDropout2D(0.5, data_format="channels_first")(tf.ones((16, 4, 3, 3)),
                                                               training=True).numpy()
report("spatial2d.channels_first", bool(np.all(first == first[:, :, :1, :1])))
noisy = L.GaussianNoise(0.5)(tf.zeros((200, 50)), training=True).numpy()
report("gaussian_noise.std_near", bool(abs(noisy.std() - 0.5) < 0.02))
report("gaussian_noise.mean_near", bool(abs(noisy.mean()) < 0.02))
mult = L.GaussianDropout(0.2)(tf.ones((200, 50)), training=True).numpy()
report("gaussian_dropout.std_near", bool(abs(mult.std() - 0.5) < 0.02))
report("gaussian_dropout.mean_near", bool(abs(mult.mean() - 1.0) < 0.02))
report("noise_dtype", L.GaussianNoise(1.0)(tf.ones((2, 2), tf.float64), training=True).dtype.name)
expect_error("spatial1d_rank", lambda: L.SpatialDropout1D(0.5)(tf.ones((2, 3)), training=True))
expect_error("spatial2d_rank", lambda: L.SpatialDropout2D(0.5)(tf.ones((2, 3, 4)),
                                                             training=True))
expect_error("spatial2d_format", lambda: L.SpatialDropout2D(0.5, data_format="nchw"))
