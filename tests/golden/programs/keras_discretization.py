# tf.keras.layers.Discretization: given boundaries (Bucketize's rule at a boundary), the
# output modes, adapt with num_bins on an array (Keras's 32-row batches) and on a dataset,
# config and errors; also under layers.experimental.preprocessing
D = tf.keras.layers.Discretization
x = tf.constant([[-1.5, 0.0, 0.5], [1.0, 2.0, 9.0]])
report("int", D(bin_boundaries=[0.0, 1.0, 2.0])(x))
report("int.dtype", D(bin_boundaries=[0.0, 1.0, 2.0])(x).dtype.name)
report("int.integers_in", D(bin_boundaries=[1.0, 3.0])(tf.constant([0, 1, 2, 3, 4])))
report("one_hot", D(bin_boundaries=[0.0, 1.0], output_mode="one_hot")(
    tf.constant([-1.0, 0.5, 3.0])))
report("multi_hot", D(bin_boundaries=[0.0, 1.0, 2.0], output_mode="multi_hot")(x))
report("count", D(bin_boundaries=[0.0, 1.0, 2.0], output_mode="count")(x))
report("no_boundaries", D(bin_boundaries=[])(x))
data = np.linspace(0.0, 10.0, 101).astype(np.float32) ** 2 / 10.0
layer = D(num_bins=4)
layer.adapt(data)
report("adapt.array_boundaries", layer.bin_boundaries)
report("adapt.array_call", layer(tf.constant([0.1, 2.4, 5.0, 9.9])))
rows = data.reshape(-1, 1)
layer2 = D(num_bins=5, epsilon=0.05)
layer2.adapt(rows)
report("adapt.epsilon_rows", layer2.bin_boundaries)
layer3 = D(num_bins=3)
layer3.adapt(tf.data.Dataset.from_tensor_slices(data).batch(10))
report("adapt.dataset", layer3.bin_boundaries)
layer4 = D(num_bins=3)
layer4.adapt(np.array([5.0, 1.0, 3.0, 2.0, 4.0], np.float32))
report("adapt.small", layer4.bin_boundaries)
report("config", {k: v for k, v in D(bin_boundaries=[0.0, 1.0]).get_config().items()
                  if k in ("bin_boundaries", "num_bins", "epsilon", "output_mode", "sparse")})
report("experimental_alias", tf.keras.layers.experimental.preprocessing.Discretization(
    bin_boundaries=[0.5])(tf.constant([0.0, 1.0])))
model = tf.keras.Sequential([D(bin_boundaries=[0.0, 1.0], output_mode="one_hot"),
                             tf.keras.layers.Dense(1, kernel_initializer="ones")])
report("in_model", model(tf.constant([[-1.0], [0.5], [3.0]])))
expect_error("both", lambda: D(bin_boundaries=[0.0], num_bins=2))
expect_error("negative_bins", lambda: D(num_bins=-1))
expect_error("sparse_int", lambda: D(bin_boundaries=[0.0], sparse=True))
expect_error("bad_mode", lambda: D(bin_boundaries=[0.0], output_mode="tf_idf"))
expect_error("adapt_given", lambda: D(bin_boundaries=[0.0]).adapt(data))
