# A layer's `training` given by position (`self.bn(x, training)`, `self.encoder(x, training)`,
# as public ResNet and autoencoder code writes it) is the call's training mode; None given by
# position falls back to the enclosing call's mode, as a keyword None does
class Block(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(3, kernel_initializer="ones")
        self.bn = tf.keras.layers.BatchNormalization()

    def call(self, x, training=False):
        return self.bn(self.dense(x), training)


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.out_layer = tf.keras.layers.Dense(1, kernel_initializer="ones")

    def call(self, x, training=False):
        return self.out_layer(self.block(x, training))


x = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5], [2.0, 0.0]], np.float32)
y = np.array([[1.0], [0.0], [1.0], [0.0]], np.float32)
net = Net()
report("inference", net(x, False))
report("training", net(x, True))
report("moving_mean_after_training_call", net.block.bn.moving_mean)
report("default", net(x))
report("positional_none", net.block(x, None))
net.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
report("fit", net.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0).history)
report("moving_mean_after_fit", net.block.bn.moving_mean)
report("evaluate", net.evaluate(x, y, verbose=0))
bn = tf.keras.layers.BatchNormalization()
report("bn_positional_true", bn(x, True))
report("bn_positional_false", bn(x, False))
