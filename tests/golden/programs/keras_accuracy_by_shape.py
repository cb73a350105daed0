# compile(metrics=["accuracy"]) and ["crossentropy"]: tf-keras picks the binary, sparse or
# categorical form from the shapes of labels and outputs alone, whatever the loss (binary
# crossentropy over four one-hot sigmoid outputs is measured by categorical accuracy)
x = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(6, 4)
onehot = np.eye(4, dtype=np.float32)[[1, 2, 3, 2, 3, 1]]
labels = np.array([1, 2, 3, 2, 3, 1], np.int32)
column = labels[:, None]
binary = (x[:, :1] > 0).astype(np.float32)


def model(units, activation):
    m = tf.keras.Sequential([tf.keras.layers.Dense(units, activation=activation,
                                                   input_shape=(4,))])
    w = np.sin(np.arange(4 * units, dtype=np.float32)).reshape(4, units) * 0.3
    m.set_weights([w, np.zeros(units, np.float32)])
    return m


def run(name, units, activation, loss, metrics, y):
    m = model(units, activation)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss=loss, metrics=metrics)
    history = m.fit(x, y, epochs=3, batch_size=6, shuffle=False, verbose=0).history
    report(name, history)
    report(name + ".evaluate", m.evaluate(x, y, verbose=0))


run("binary_loss_onehot", 4, "sigmoid", "binary_crossentropy", ["accuracy"], onehot)
run("sparse_loss_column", 4, "softmax", "sparse_categorical_crossentropy", ["acc"], column)
run("binary_loss_one_unit", 1, "sigmoid", "binary_crossentropy", ["accuracy"], binary)
run("categorical_loss_onehot", 4, "softmax", "categorical_crossentropy",
    ["accuracy", "crossentropy"], onehot)
run("sparse_loss_labels", 4, "softmax", "sparse_categorical_crossentropy",
    ["Accuracy", "ce"], labels)
run("mse_one_unit", 1, "sigmoid", "mse", ["accuracy", "crossentropy"], binary)
run("mse_onehot", 4, "sigmoid", "mse", ["acc"], onehot)
