# `build(input_shape)` of a Sequential whose first layer is itself a Sequential (Dive into
# Deep Learning's ResNet: `Sequential(self.b1())` then `.add(block)` and `net.build(...)`):
# the inner model's layers make their weights then, before any call.
inner = tf.keras.models.Sequential([tf.keras.layers.Conv2D(4, 3, kernel_initializer="ones"),
                                    tf.keras.layers.BatchNormalization()])
net = tf.keras.models.Sequential(inner)
net.add(tf.keras.layers.Flatten())
net.add(tf.keras.layers.Dense(2, kernel_initializer="ones"))
net.build((None, 6, 6, 1))
report("weights_after_build", [[w.name, list(w.shape)] for w in net.weights])
report("trainable_count", len(net.trainable_variables))
report("output", net(tf.reshape(tf.range(36.0), (1, 6, 6, 1)) / 36.0))
