# Shapes and layers of TensorFlow's image tutorials (the CNN on CIFAR-10, the DCGAN generator
# and discriminator), small sizes, random weights (only shapes and counts reported); the text
# classifier's Embedding + GlobalAveragePooling1D with weights set; LeakyReLU; Sequential's
# input_shape / output_shape
L = tf.keras.layers
tf.random.set_seed(0)
model = tf.keras.models.Sequential()
model.add(L.Conv2D(8, (3, 3), activation="relu", input_shape=(12, 12, 3)))
model.add(L.MaxPooling2D((2, 2)))
model.add(L.Conv2D(8, (3, 3), activation="relu"))
model.add(L.Flatten())
model.add(L.Dense(16, activation="relu"))
model.add(L.Dense(10))
report("cifar.input_shape", list(model.input_shape))
report("cifar.output_shape", list(model.output_shape))
report("cifar.params", [layer.count_params() for layer in model.layers])
report("cifar.layer_names", [layer.name for layer in model.layers])
model.compile(optimizer="adam",
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
images = np.random.default_rng(0).uniform(size=(6, 12, 12, 3)).astype(np.float32)
history = model.fit(images, np.arange(6) % 10, epochs=2, verbose=0,
                    validation_data=(images[:2], np.arange(2)))
report("cifar.history_keys", sorted(history.history))

generator = tf.keras.Sequential()
generator.add(L.Dense(7 * 7 * 16, use_bias=False, input_shape=(10,)))
generator.add(L.BatchNormalization())
generator.add(L.LeakyReLU())
generator.add(L.Reshape((7, 7, 16)))
shapes = [generator.output_shape]
generator.add(L.Conv2DTranspose(8, (5, 5), strides=(1, 1), padding="same", use_bias=False))
shapes.append(generator.output_shape)
generator.add(L.BatchNormalization())
generator.add(L.LeakyReLU())
generator.add(L.Conv2DTranspose(4, (5, 5), strides=(2, 2), padding="same", use_bias=False))
shapes.append(generator.output_shape)
generator.add(L.BatchNormalization())
generator.add(L.LeakyReLU())
generator.add(L.Conv2DTranspose(1, (5, 5), strides=(2, 2), padding="same", use_bias=False,
                                activation="tanh"))
shapes.append(generator.output_shape)
report("dcgan.generator_shapes", [list(s) for s in shapes])
fake = generator(tf.random.normal([2, 10]), training=False)
report("dcgan.fake_shape", list(fake.shape))
report("dcgan.generator_weights", [(w.name, list(w.shape), w.trainable)
                                   for w in generator.weights])
discriminator = tf.keras.Sequential([
    L.Conv2D(8, (5, 5), strides=(2, 2), padding="same", input_shape=[28, 28, 1]),
    L.LeakyReLU(), L.Dropout(0.3),
    L.Conv2D(16, (5, 5), strides=(2, 2), padding="same"), L.LeakyReLU(), L.Dropout(0.3),
    L.Flatten(), L.Dense(1)])
report("dcgan.discriminator_output_shape", list(discriminator.output_shape))
report("dcgan.decision_shape", list(discriminator(fake, training=True).shape))

report("leaky_relu.default_alpha", L.LeakyReLU()(tf.constant([-2.0, 0.0, 3.0])))
report("leaky_relu.alpha", L.LeakyReLU(alpha=0.1)(tf.constant([-2.0, 3.0])))
text = tf.keras.Sequential([L.Embedding(10, 3), L.GlobalAveragePooling1D(), L.Dense(1)])
text.build((None, 4))
text.set_weights([np.sin(np.arange(30) * 0.3).reshape(10, 3).astype(np.float32),
                  np.array([[0.5], [-0.2], [0.1]], np.float32), np.array([0.05], np.float32)])
report("text.output", text(np.array([[1, 2, 3, 0], [9, 9, 4, 4]])))
report("global_max_pooling1d", L.GlobalMaxPooling1D()(tf.reshape(tf.range(12.0), (2, 3, 2))))
expect_error("sequential.input_shape_unknown",
             lambda: tf.keras.Sequential([L.Dense(2)]).input_shape)
