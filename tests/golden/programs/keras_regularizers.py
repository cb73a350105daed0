# Weight regularizers: Dense(kernel_regularizer=, bias_regularizer=) by object and by name,
# add_weight(regularizer=) in a custom layer, layer.losses recomputed from the current
# weights, and their gradient in a training step
dense = tf.keras.layers.Dense(2, kernel_regularizer=tf.keras.regularizers.l2(1e-2),
                              bias_regularizer="l1")
dense(tf.ones((1, 3)))
dense.kernel.assign([[0.5, -1.0], [2.0, 0.25], [-0.5, 1.5]])
dense.bias.assign([0.3, -0.7])
report("dense.losses", dense.losses)
report("l1_l2", tf.keras.regularizers.l1_l2(l1=0.1, l2=0.2)(dense.kernel))
report("L1L2_default", tf.keras.regularizers.L1L2()(dense.kernel))
report("l1_default", tf.keras.regularizers.l1()(dense.kernel))


class Scale(tf.keras.layers.Layer):
    def build(self, shape):
        self.w = self.add_weight("w", shape=(int(shape[-1]),), initializer="ones",
                                 regularizer=tf.keras.regularizers.L2(0.5))

    def call(self, x):
        return x * self.w


model = tf.keras.Sequential([dense, Scale()])
x = tf.constant([[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]])
model(x)
report("model.losses", model.losses)
opt = tf.keras.optimizers.SGD(0.1)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(model(x) ** 2) + tf.add(model.losses[0], model.losses[1]) + \
        model.losses[2]
grads = tape.gradient(loss, model.trainable_variables)
report("loss", loss)
report("grads", grads)
opt.apply_gradients(zip(grads, model.trainable_variables))
report("losses_after_step", model.losses)
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
history = model.fit(x.numpy(), tf.ones((2, 2)).numpy(), epochs=2, batch_size=2, verbose=0,
                    shuffle=False)
report("fit_loss", history.history["loss"])
