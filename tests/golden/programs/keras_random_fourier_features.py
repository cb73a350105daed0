# tf.keras.layers.experimental.RandomFourierFeatures: weight names, shapes, trainability and
# order (also with trainable=True), the default scale of each kernel, values and gradients
# with the weights set, output shapes, refusals; the hinge loss (0/1 labels taken as -1/1);
# a small quasi-SVM (random features, Dense, hinge) trained with fit
RandomFourierFeatures = tf.keras.layers.experimental.RandomFourierFeatures

x = tf.constant(np.sin(np.arange(4 * 3) * 0.7).reshape(4, 3), tf.float32)
for name, kwargs in [("gaussian", {}), ("laplacian", {"kernel_initializer": "laplacian"}),
                     ("scaled_trainable", {"scale": 2.5, "trainable": True})]:
    layer = RandomFourierFeatures(5, name=f"rff_{name}", **kwargs)
    layer.build((None, 3))
    report(f"{name}.weights", [[w.name, list(w.shape), w.trainable] for w in layer.weights])
    report(f"{name}.trainable_weights", [w.name for w in layer.trainable_weights])
    report(f"{name}.scale", [float(layer.scale), layer.kernel_scale])
    config = layer.get_config()
    report(f"{name}.config", [config["output_dim"], float(config["scale"]),
                              config["kernel_initializer"]])
    layer.set_weights([np.array([float(layer.scale)], np.float32),
                       np.cos(np.arange(15) * 0.9).reshape(3, 5).astype(np.float32),
                       np.linspace(0, 6, 5).astype(np.float32)])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = layer(x)
        loss = tf.reduce_sum(y * tf.reshape(tf.cos(tf.range(20, dtype=tf.float32)), (4, 5)))
    report(f"{name}.call", [y, tape.gradient(loss, x), tape.gradient(loss, layer.kernel_scale)])
    report(f"{name}.output_shape", list(layer.compute_output_shape((None, 3))))
expect_error("output_dim_zero", lambda: RandomFourierFeatures(0))
expect_error("bad_kernel", lambda: RandomFourierFeatures(4, kernel_initializer="cauchy"))
expect_error("negative_scale", lambda: RandomFourierFeatures(4, scale=-1.0))
expect_error("rank3_input", lambda: RandomFourierFeatures(4)(tf.ones((2, 3, 3))))

labels01 = tf.constant([[0.0, 1.0], [1.0, 0.0]])
signs = tf.constant([[-1.0, 1.0], [1.0, 0.5]])
pred = tf.constant([[0.3, -0.8], [1.4, 0.2]])
report("hinge.zero_one_labels", tf.keras.losses.hinge(labels01, pred))
report("hinge.other_labels", tf.keras.losses.hinge(signs, pred))
report("Hinge", tf.keras.losses.Hinge()(labels01, pred))

model = tf.keras.Sequential([tf.keras.Input(shape=(3,)),
                             RandomFourierFeatures(6, scale=1.5, name="rff"),
                             tf.keras.layers.Dense(2, name="out")])
report("model.weights", [w.name for w in model.weights])
model.get_layer("rff").set_weights([np.array([1.5], np.float32),
                                    np.sin(np.arange(18) * 1.3).reshape(3, 6).astype(np.float32),
                                    np.linspace(0.1, 5.9, 6).astype(np.float32)])
model.get_layer("out").set_weights([np.cos(np.arange(12) * 0.4).reshape(6, 2).astype(np.float32)
                                    * 0.3, np.zeros(2, np.float32)])
model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss=tf.keras.losses.hinge,
              metrics=[tf.keras.metrics.CategoricalAccuracy(name="acc")])
y = tf.keras.utils.to_categorical([0, 1, 1, 0], 2)
report("model.history", model.fit(x, y, batch_size=2, epochs=3, shuffle=False,
                                  verbose=0).history)
report("model.kernel_scale", model.get_layer("rff").kernel_scale)
