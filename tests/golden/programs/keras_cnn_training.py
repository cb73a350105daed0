# A small CNN (Conv2D, BatchNormalization, MaxPooling2D, Flatten, Dense) trained 3 steps with a
# GradientTape and 3 steps with compile/fit, weights set from NumPy: values, gradients, the
# moving statistics, inference after training; the same as a functional and a subclassed model
images = np.sin(np.arange(6 * 6 * 6) * 0.37).reshape(6, 6, 6, 1).astype(np.float32)
labels = np.array([0, 2, 1, 1, 0, 2])
WEIGHTS = {
    "conv": [np.cos(np.arange(3 * 3 * 1 * 4) * 0.9).reshape(3, 3, 1, 4).astype(np.float32) * 0.5,
             np.array([0.1, -0.1, 0.05, 0.0], np.float32)],
    "bn": [np.array([1.0, 1.2, 0.8, 1.1], np.float32), np.array([0.0, 0.1, -0.1, 0.2], np.float32),
           np.array([0.1, 0.0, -0.1, 0.2], np.float32), np.array([1.0, 0.5, 2.0, 1.5], np.float32)],
    "dense": [np.sin(np.arange(16 * 3) * 0.61).reshape(16, 3).astype(np.float32) * 0.3,
              np.array([0.0, 0.1, -0.1], np.float32)],
}


def layers():
    return [tf.keras.layers.Conv2D(4, 3, name="conv"),
            tf.keras.layers.BatchNormalization(momentum=0.5, name="bn"),
            tf.keras.layers.Activation("relu", name="relu"),
            tf.keras.layers.MaxPooling2D(name="pool"),
            tf.keras.layers.Flatten(name="flat"),
            tf.keras.layers.Dense(3, name="dense")]


def set_weights(model):
    for name, values in WEIGHTS.items():
        model.get_layer(name).set_weights(values)
    return model


def sequential():
    return set_weights(tf.keras.Sequential([tf.keras.Input(shape=(6, 6, 1))] + layers()))


loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

model = sequential()
report("weight_names", [w.name for w in model.weights])
report("trainable_names", [w.name for w in model.trainable_weights])
report("non_trainable_names", [w.name for w in model.non_trainable_weights])
report("get_weights_order", model.get_weights())
report("output_shapes", [list(layer.compute_output_shape((None, 6, 6, 1)))
                         for layer in model.layers[:1]])
opt = tf.keras.optimizers.SGD(learning_rate=0.1)
for step in range(3):
    xb, yb = images[2 * step:2 * step + 2], labels[2 * step:2 * step + 2]
    with tf.GradientTape() as tape:
        logits = model(xb, training=True)
        loss = loss_fn(yb, logits)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    report(f"tape.step{step}.logits", logits)
    report(f"tape.step{step}.loss", loss)
    report(f"tape.step{step}.grads", grads)
    report(f"tape.step{step}.moving", [model.get_layer("bn").moving_mean,
                                       model.get_layer("bn").moving_variance])
report("tape.weights_after", model.get_weights())
report("tape.inference", model(images[:3], training=False))
report("tape.default_call_is_inference", model(images[:3]))

fitted = sequential()
fitted.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1), loss=loss_fn,
               metrics=["accuracy"])
history = fitted.fit(images, labels, batch_size=2, epochs=1, shuffle=False, verbose=0)
report("fit.history", history.history)
report("fit.weights_after", fitted.get_weights())
report("fit.predict", fitted.predict(images[:3], verbose=0))
report("fit.evaluate", fitted.evaluate(images, labels, verbose=0))
report("fit.equals_tape", [float(np.max(np.abs(a - b))) < 1e-5 for a, b in
                           zip(fitted.get_weights(), model.get_weights())])

inputs = tf.keras.Input(shape=(6, 6, 1))
x = inputs
for layer in layers():
    x = layer(x)
functional = set_weights(tf.keras.Model(inputs, x))
report("functional.output_shape", list(functional.output_shape))
functional.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1), loss=loss_fn)
report("functional.history", functional.fit(images, labels, batch_size=3, epochs=2,
                                            shuffle=False, verbose=0).history)
report("functional.weights_after", functional.get_weights())


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv = tf.keras.layers.Conv2D(4, 3, name="conv")
        self.bn = tf.keras.layers.BatchNormalization(momentum=0.5, name="bn")
        self.pool = tf.keras.layers.MaxPooling2D(name="pool")
        self.flat = tf.keras.layers.Flatten(name="flat")
        self.dense = tf.keras.layers.Dense(3, name="dense")

    def call(self, x, training=False):
        # the batch normalization is called without `training`: it follows the model's call
        return self.dense(self.flat(self.pool(tf.nn.relu(self.bn(self.conv(x))))))


net = Net()
net(images[:1])
for name, values in WEIGHTS.items():
    getattr(net, name).set_weights(values)
report("subclassed.inference_keeps_moving", [net(images[:2]), net.bn.moving_mean])
report("subclassed.training_call", [net(images[:2], training=True), net.bn.moving_mean,
                                    net.bn.moving_variance])
net.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1), loss=loss_fn)
report("subclassed.history", net.fit(images, labels, batch_size=6, epochs=2, shuffle=False,
                                     verbose=0).history)
report("subclassed.moving_after_fit", [net.bn.moving_mean, net.bn.moving_variance])


class TrainsByDefault(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.bn = tf.keras.layers.BatchNormalization(momentum=0.5)

    def call(self, x, training=True):
        # the layers inside follow the call's default when no training= is given
        return self.bn(x)


by_default = TrainsByDefault()
report("call_default_training", [by_default(np.array([[1.0], [3.0]], np.float32)),
                                 by_default.bn.moving_mean])
report("call_default_overridden", [by_default(np.array([[5.0], [7.0]], np.float32),
                                              training=False), by_default.bn.moving_mean])
