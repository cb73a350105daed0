# training patterns from Keras's guides, with explicit weights: a VAE-style model whose only
# loss comes from add_loss (fit without targets), a softmax classifier compiled by names with
# Adam, a subclassed model, Datasets for training, validation and predict
x = np.stack([np.linspace(-1.0, 1.0, 12), np.sin(np.linspace(0.0, 4.0, 12)),
              np.cos(np.linspace(0.0, 2.0, 12))], axis=1).astype(np.float32)


class Encoder(tf.keras.layers.Layer):
    """Codes and a KL-like penalty on them, added with add_loss inside call."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = tf.keras.layers.Dense(2, name="code")

    def call(self, inputs):
        code = self.dense(inputs)
        self.add_loss(0.5 * tf.reduce_mean(tf.reduce_sum(tf.square(code), axis=1)))
        return code


inputs = tf.keras.Input(shape=(3,))
encoder = Encoder(name="encoder")
code = encoder(inputs)
decoded = tf.keras.layers.Dense(3, name="decoder")(code)
autoencoder = tf.keras.Model(inputs, decoded)
autoencoder.set_weights([np.array([[0.3, -0.2], [0.1, 0.4], [-0.5, 0.2]], np.float32),
                         np.zeros(2, np.float32),
                         np.array([[0.2, -0.1, 0.3], [0.4, 0.2, -0.3]], np.float32),
                         np.zeros(3, np.float32)])
autoencoder.add_loss(lambda: 0.1 * tf.reduce_sum(tf.square(autoencoder.layers[-1].kernel)))
autoencoder.compile(optimizer=tf.keras.optimizers.SGD(0.1))
report("add_loss_only.history", autoencoder.fit(x, batch_size=5, epochs=3, shuffle=False,
                                                verbose=0).history)
autoencoder.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
report("add_loss_and_mse.history", autoencoder.fit(x, x, batch_size=4, epochs=2,
                                                   shuffle=False, verbose=0).history)
autoencoder(x)
report("add_loss_and_mse.losses_after_a_call", autoencoder.losses)

labels = np.array([0, 1, 2, 1, 0, 2, 2, 1, 0, 0, 1, 2])
classifier = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu", name="h"),
                                  tf.keras.layers.Dense(3, activation="softmax", name="p")])
classifier.build((None, 3))
classifier.set_weights([
    np.array([[0.2, -0.3, 0.1, 0.5], [0.4, 0.1, -0.2, 0.3], [-0.1, 0.2, 0.3, -0.4]], np.float32),
    np.array([0.1, 0.0, 0.1, 0.0], np.float32),
    np.array([[0.3, -0.2, 0.1], [0.1, 0.4, -0.3], [-0.5, 0.2, 0.2], [0.2, 0.1, 0.3]], np.float32),
    np.zeros(3, np.float32)])
classifier.compile(optimizer=tf.keras.optimizers.Adam(0.05),
                   loss="sparse_categorical_crossentropy", metrics=["accuracy"])
train = tf.data.Dataset.from_tensor_slices((x, labels)).batch(4)
valid = tf.data.Dataset.from_tensor_slices((x[:6], labels[:6])).batch(6)
history = classifier.fit(train, validation_data=valid, epochs=3, verbose=0)
report("classifier.history", history.history)
report("classifier.predict_dataset", classifier.predict(train, verbose=0))
report("classifier.evaluate_dataset", classifier.evaluate(valid, verbose=0))


class Linear(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[0.5], [-0.5], [0.25]], name="w")
        self.b = tf.Variable([0.0], name="b")

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b


target = x @ np.array([[1.0], [2.0], [-1.0]], np.float32) + 0.5
linear = Linear()
linear.compile(optimizer=tf.keras.optimizers.SGD(0.2), loss="mean_absolute_error",
               metrics=["mse"])
report("subclassed.history", linear.fit(x, target, batch_size=6, epochs=3, shuffle=False,
                                        verbose=0).history)
report("subclassed.weights", [linear.w, linear.b])


class Mixed(tf.keras.layers.Layer):
    """Weights from tf.Variable attributes and from add_weight, in the order they are made."""

    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(2.0, name="scale")
        self.offsets = [tf.Variable(1.0, trainable=False, name="frozen"),
                        tf.Variable(0.5, name="shift")]

    def build(self, input_shape):
        self.kernel = self.add_weight(name="kernel", shape=(input_shape[-1], 1),
                                      initializer="ones")

    def call(self, inputs):
        return self.scale * tf.matmul(inputs, self.kernel) + self.offsets[0] + self.offsets[1]


mixed = Mixed()
report("mixed.output", mixed(tf.ones((1, 3))))
report("mixed.trainable", [v.name for v in mixed.trainable_weights])
report("mixed.non_trainable", [v.name for v in mixed.non_trainable_weights])

default_optimizer = tf.keras.Sequential([tf.keras.layers.Dense(1, name="lin")])
default_optimizer.build((None, 3))
default_optimizer.set_weights([np.array([[0.1], [0.2], [-0.3]], np.float32),
                               np.zeros(1, np.float32)])
default_optimizer.compile(loss="mse")                 # Keras's default optimizer: 'rmsprop'
report("rmsprop_default.history", default_optimizer.fit(x, target, batch_size=4, epochs=3,
                                                        shuffle=False, verbose=0).history)
report("rmsprop_default.optimizer", type(default_optimizer.optimizer).__name__)
for options in ({"momentum": 0.5}, {"centered": True}, {"rho": 0.8, "epsilon": 1e-3}):
    v = tf.Variable([1.0, -2.0, 0.5])
    opt = tf.keras.optimizers.RMSprop(learning_rate=0.05, **options)
    for step in range(4):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(v - tf.constant([0.3, 0.1, -0.2])) * v)
        opt.apply_gradients([(tape.gradient(loss, v), v)])
    report("rmsprop." + ",".join(sorted(options)), v)

from_lists = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])
from_lists.compile(optimizer="sgd", loss="mse")
report("python_lists.history", from_lists.fit([[1.0, 2.0], [3.0, 4.0]], [1.0, 2.0], verbose=0,
                                              shuffle=False).history)
report("python_lists.evaluate", from_lists.evaluate([[1.0, 2.0], [3.0, 4.0]], [1.0, 2.0],
                                                    verbose=0))
report("python_lists.predict", from_lists.predict([[1.0, 2.0]], verbose=0))
