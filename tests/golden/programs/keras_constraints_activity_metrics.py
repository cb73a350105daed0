# Keras's weight constraints (applied by the optimizer after each update), activity
# regularizers (the penalty of a layer's output over its batch size, in `losses` and in the
# fit loss) and `add_metric` (a metric object's result, or a named mean), as the keras.io
# regularizer/constraint pages, the sparse autoencoder of the Keras blog and the endpoint
# layer recipe use them.
w = tf.constant([[3.0, -0.1, 0.0], [4.0, 0.2, -2.0]])
report("max_norm", tf.keras.constraints.MaxNorm(2.0)(w))
report("max_norm.axis1", tf.keras.constraints.MaxNorm(1.0, axis=1)(w))
report("non_neg", tf.keras.constraints.NonNeg()(w))
report("unit_norm", tf.keras.constraints.UnitNorm()(w))
report("min_max_norm", tf.keras.constraints.MinMaxNorm(0.5, 1.0, rate=0.5)(w))
report("max_norm.config", tf.keras.constraints.MaxNorm(2.0).get_config())
report("get.names", [type(tf.keras.constraints.get(n)).__name__
                     for n in ("max_norm", "non_neg", "unit_norm")])

x = np.array([[1.0, -2.0, 0.5], [0.25, 1.0, -1.5], [2.0, 0.0, 1.0], [-1.0, 1.0, 1.0]], np.float32)
y = np.array([[1.0], [-1.0], [0.5], [2.0]], np.float32)
dense = tf.keras.layers.Dense(2, kernel_constraint=tf.keras.constraints.MaxNorm(0.6),
                              bias_constraint=tf.keras.constraints.NonNeg())
model = tf.keras.Sequential([tf.keras.Input((3,)), dense,
                             tf.keras.layers.Dense(1, kernel_constraint="non_neg")])
for v, value in zip(model.trainable_weights,
                    [[[0.5, -0.3], [0.2, 0.4], [-0.1, 0.3]], [0.1, -0.1], [[0.7], [-0.2]], [0.0]]):
    v.assign(value)
report("constraint.before_step", model.trainable_weights)
model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="mse")
history = model.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0)
report("constraint.history", history.history)
report("constraint.after_fit", model.trainable_weights)
report("variable.constraint", dense.kernel.constraint is not None)

conv = tf.keras.layers.Conv2D(1, 2, kernel_constraint=tf.keras.constraints.UnitNorm(axis=[0, 1, 2]))
images = tf.constant(np.arange(18, dtype=np.float32).reshape(1, 3, 3, 2) / 10.0)
conv(images)
conv.kernel.assign(np.full((2, 2, 2, 1), 0.5, np.float32))
opt = tf.keras.optimizers.SGD(0.1)
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(conv(images))
grads = tape.gradient(loss, conv.trainable_variables)
opt.apply_gradients(zip(grads, conv.trainable_variables))
report("conv.unit_norm_kernel", conv.kernel)

inp = tf.keras.Input(shape=(3,))
hidden = tf.keras.layers.Dense(2, activation="relu",
                               activity_regularizer=tf.keras.regularizers.l1(0.1))(inp)
out = tf.keras.layers.Dense(1)(hidden)
ae = tf.keras.Model(inp, out)
for v, value in zip(ae.trainable_weights,
                    [[[0.5, -0.3], [0.2, 0.4], [-0.1, 0.3]], [0.1, 0.2], [[0.7], [-0.2]], [0.0]]):
    v.assign(value)
with tf.GradientTape() as tape:
    pred = ae(x)
    penalties = ae.losses
    total = tf.reduce_mean(tf.square(pred - y)) + tf.add_n(penalties)
report("activity.losses", penalties)
report("activity.grads", tape.gradient(total, ae.trainable_weights))
ae.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
report("activity.fit", ae.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0).history)
report("activity.evaluate", ae.evaluate(x, y, batch_size=4, verbose=0))


class Endpoint(tf.keras.layers.Layer):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.accuracy_fn = tf.keras.metrics.BinaryAccuracy(name="accuracy")

    def call(self, logits, targets=None):
        if targets is not None:
            self.add_loss(tf.reduce_mean(tf.square(targets - logits)))
            self.add_metric(self.accuracy_fn(targets, tf.sigmoid(logits)))
            self.add_metric(tf.math.reduce_std(logits), name="std_of_logits", aggregation="mean")
        return tf.sigmoid(logits)


features = tf.keras.Input((3,), name="features")
targets = tf.keras.Input((1,), name="targets")
logits = tf.keras.layers.Dense(1)(features)
endpoint_model = tf.keras.Model([features, targets], Endpoint()(logits, targets))
for v, value in zip(endpoint_model.trainable_weights, [[[0.5], [-0.3], [0.2]], [0.1]]):
    v.assign(value)
endpoint_model.compile(optimizer=tf.keras.optimizers.SGD(0.1))
data = {"features": x, "targets": (y > 0).astype(np.float32)}
report("add_metric.fit", endpoint_model.fit(data, batch_size=2, epochs=2, shuffle=False,
                                            verbose=0).history)
report("add_metric.evaluate", endpoint_model.evaluate(data, batch_size=2, verbose=0,
                                                       return_dict=True))
expect_error("add_metric.no_name",
             lambda: tf.keras.layers.Layer().add_metric(tf.constant(1.0)))
