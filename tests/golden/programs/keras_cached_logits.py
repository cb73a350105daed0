# Keras's softmax and sigmoid activations keep their logits on their output, and the
# crossentropies use those logits as if from_logits=True: a saturated softmax gives a loss far
# above the -log(1e-7) = 16.1 of clipped probabilities, and gradients that do not vanish (the
# RMSprop(1.) run of Deep Learning with Python's chapter 5 diverges to a loss of 290 000 in
# TensorFlow). An op on the output, or tf.nn.softmax in eager code, gives plain probabilities.
logits = tf.constant([[30.0, 0.0, -30.0], [-5.0, 40.0, 5.0]])
labels = tf.constant([2, 0])
onehot = tf.one_hot(labels, 3)

probs = tf.keras.activations.softmax(logits)
report("activations_softmax.sparse", tf.keras.losses.sparse_categorical_crossentropy(labels, probs))
report("activations_softmax.categorical", tf.keras.losses.categorical_crossentropy(onehot, probs))
report("activations_softmax.object", tf.keras.losses.SparseCategoricalCrossentropy()(labels, probs))
report("activations_softmax.from_logits_too",
       tf.keras.losses.sparse_categorical_crossentropy(labels, probs, from_logits=True))
report("backend_softmax", tf.keras.losses.sparse_categorical_crossentropy(
    labels, tf.keras.backend.softmax(logits)))
report("softmax_layer", tf.keras.losses.sparse_categorical_crossentropy(
    labels, tf.keras.layers.Softmax()(logits)))
report("activation_layer", tf.keras.losses.sparse_categorical_crossentropy(
    labels, tf.keras.layers.Activation("softmax")(logits)))
report("tuple_axis", tf.keras.losses.categorical_crossentropy(
    onehot, tf.keras.activations.softmax(logits, axis=(1,))))
report("nn_softmax_eager", tf.keras.losses.sparse_categorical_crossentropy(
    labels, tf.nn.softmax(logits)))
report("after_an_op", tf.keras.losses.sparse_categorical_crossentropy(labels, probs * 1.0))
report("backend_sparse", tf.keras.backend.sparse_categorical_crossentropy(labels, probs))
report("metric_sparse", tf.keras.metrics.sparse_categorical_crossentropy(labels, probs))

z = tf.constant([[25.0], [-30.0], [0.5]])
y = tf.constant([[0.0], [1.0], [1.0]])
sig = tf.keras.activations.sigmoid(z)
report("sigmoid.binary", tf.keras.losses.binary_crossentropy(y, sig))
report("sigmoid.object", tf.keras.losses.BinaryCrossentropy()(y, sig))
# labels of rank 1 against (3, 1) predictions: the loss squeezes the predictions first, a new
# tensor without the logits
report("sigmoid.object_squeezed", tf.keras.losses.BinaryCrossentropy()(tf.reshape(y, [3]), sig))
report("backend_sigmoid", tf.keras.backend.binary_crossentropy(y, tf.keras.backend.sigmoid(z)))
report("nn_sigmoid_eager", tf.keras.losses.binary_crossentropy(y, tf.sigmoid(z)))
report("sigmoid_layer", tf.keras.losses.binary_crossentropy(
    y, tf.keras.layers.Activation("sigmoid")(z)))
metric = tf.keras.metrics.BinaryCrossentropy()
metric.update_state(y, sig)
report("metric_object", metric.result())

# the gradient through a Dense softmax layer in a GradientTape, saturated
dense = tf.keras.layers.Dense(3, activation="softmax")
x = tf.constant([[1.0, -2.0], [3.0, 0.5]])
dense.build((None, 2))
dense.kernel.assign([[20.0, 0.0, -20.0], [-3.0, 10.0, 4.0]])
dense.bias.assign([0.0, 1.0, -1.0])
with tf.GradientTape() as tape:
    loss = tf.keras.losses.SparseCategoricalCrossentropy()(labels, dense(x))
report("dense_softmax.loss", loss)
report("dense_softmax.grads", tape.gradient(loss, dense.trainable_weights))

# fit with a huge learning rate: the loss is free to grow past 16.1
model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"),
                             tf.keras.layers.Dense(3, activation="softmax")])
model.build((None, 2))
for i, w in enumerate(model.weights):
    w.assign(np.linspace(-1.0, 1.0 + i, int(np.prod(w.shape)), dtype=np.float32).reshape(w.shape))
model.compile(optimizer=tf.keras.optimizers.RMSprop(1.0), loss="sparse_categorical_crossentropy")
data_x = np.array([[1.0, 2.0], [-1.0, 0.5], [2.0, -1.0], [0.0, 1.0]], np.float32)
data_y = np.array([2, 0, 1, 2])
history = model.fit(data_x, data_y, epochs=3, batch_size=4, shuffle=False, verbose=0)
report("fit_rmsprop_1.loss", history.history["loss"])
report("fit_rmsprop_1.evaluate", model.evaluate(data_x, data_y, verbose=0))
