# In a graph (a tf.function, Keras's compiled fit/evaluate steps) Keras's crossentropies also
# read the logits of any Softmax (last axis) or Sigmoid op's output: `Dense(3,
# activation=tf.nn.softmax)` trains from its logits under fit, and from clipped probabilities
# with run_eagerly=True. A tensor a tf.function returns is a new eager tensor, without logits.
logits = tf.constant([[30.0, 0.0, -30.0], [-5.0, 40.0, 5.0]])
labels = tf.constant([2, 0])
targets = tf.constant([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]])


@tf.function
def sparse_of_nn_softmax(l):
    return tf.keras.losses.sparse_categorical_crossentropy(labels, tf.nn.softmax(l))


@tf.function
def sparse_of_axis_1(l):
    return tf.keras.losses.sparse_categorical_crossentropy(labels, tf.nn.softmax(l, axis=1))


@tf.function
def categorical_of_axis_0(l):
    return tf.keras.losses.categorical_crossentropy(tf.transpose(tf.one_hot(labels, 3)),
                                                    tf.nn.softmax(tf.transpose(l), axis=0),
                                                    axis=0)


@tf.function
def binary_of_sigmoids(l):
    return (tf.keras.losses.binary_crossentropy(targets, tf.sigmoid(l)),
            tf.keras.losses.binary_crossentropy(targets, tf.nn.sigmoid(l)),
            tf.keras.losses.binary_crossentropy(targets, tf.math.sigmoid(l)),
            tf.keras.losses.BinaryCrossentropy()(targets, tf.sigmoid(l)))


@tf.function
def probabilities(l):
    return tf.nn.softmax(l), tf.keras.activations.softmax(l)


report("function.nn_softmax", sparse_of_nn_softmax(logits))
report("function.axis_1", sparse_of_axis_1(logits))
report("function.axis_0", categorical_of_axis_0(logits))
report("function.sigmoids", binary_of_sigmoids(logits))
p_nn, p_keras = probabilities(logits)
report("returned.nn", tf.keras.losses.sparse_categorical_crossentropy(labels, p_nn))
report("returned.keras", tf.keras.losses.sparse_categorical_crossentropy(labels, p_keras))
report("eager.nn_softmax", tf.keras.losses.sparse_categorical_crossentropy(
    labels, tf.nn.softmax(logits)))

tf.config.run_functions_eagerly(True)
report("functions_run_eagerly.nn_softmax", sparse_of_nn_softmax(logits))
tf.config.run_functions_eagerly(False)

data_x = np.array([[1.0, 2.0], [-1.0, 0.5], [2.0, -1.0], [0.0, 1.0]], np.float32)
data_y = np.array([2, 0, 1, 2])


def trained(run_eagerly, activation, loss="sparse_categorical_crossentropy", units=3, y=data_y):
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"),
                                 tf.keras.layers.Dense(units, activation=activation)])
    model.build((None, 2))
    for i, w in enumerate(model.weights):
        w.assign(np.linspace(-1.0, 1.0 + i, int(np.prod(w.shape)),
                             dtype=np.float32).reshape(w.shape))
    model.compile(optimizer=tf.keras.optimizers.RMSprop(1.0), loss=loss,
                  run_eagerly=run_eagerly)
    history = model.fit(data_x, y, epochs=3, batch_size=4, shuffle=False, verbose=0)
    return model, history.history["loss"]


for eager in (False, True):
    model, losses = trained(eager, tf.nn.softmax)
    report(f"fit.nn_softmax.eager_{eager}.loss", losses)
    report(f"fit.nn_softmax.eager_{eager}.evaluate", model.evaluate(data_x, data_y, verbose=0))
    report(f"fit.nn_softmax.eager_{eager}.test_on_batch", model.test_on_batch(data_x, data_y))
    report(f"fit.nn_softmax.eager_{eager}.train_on_batch",
           model.train_on_batch(data_x, data_y))

model, losses = trained(False, tf.nn.sigmoid, loss="binary_crossentropy", units=1,
                        y=(data_y == 2).astype(np.float32).reshape(4, 1))
report("fit.nn_sigmoid.loss", losses)
