# tf-keras's Nadam inside a user's own @tf.function: the traced update reads Nadam's Python
# counter once per variable while tracing, so at run time the momentum product is multiplied
# once per variable per step (after ageron/handson-ml2 chapter 13's `train` function over a
# dataset, and the usual decorated train_step)
def make():
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(3, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    model.set_weights([np.array([[0.5, -0.3, 0.2], [0.1, 0.4, -0.6]], np.float32),
                       np.array([0.1, 0.0, -0.1], np.float32),
                       np.array([[0.3], [-0.2], [0.5]], np.float32), np.array([0.05], np.float32)])
    return model


xs = np.array([[1.0, 2.0], [0.5, -1.0], [-1.5, 0.5], [2.0, 1.0], [0.0, -2.0], [1.0, 1.0]],
              np.float32)
ys = np.array([[1.0], [0.0], [-1.0], [2.0], [0.5], [1.5]], np.float32)

model = make()
optimizer = tf.keras.optimizers.Nadam(learning_rate=0.05)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


report("train_step.losses", [train_step(xs[:3], ys[:3]) for _ in range(4)])
report("train_step.weights", model.weights)
report("train_step.other_shape", train_step(xs, ys))      # a retrace: a new batch shape
report("train_step.weights_after_retrace", model.weights)

model = make()
optimizer = tf.keras.optimizers.Nadam(learning_rate=0.05)


@tf.function
def train(model, n_epochs):
    dataset = tf.data.Dataset.from_tensor_slices((xs, ys)).repeat(n_epochs).batch(2)
    for x_batch, y_batch in dataset:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x_batch) - y_batch))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))


train(model, 3)
report("dataset_loop.weights", model.weights)

model = make()
optimizer = tf.keras.optimizers.Nadam(learning_rate=0.05)
tf.config.run_functions_eagerly(True)
report("eager.losses", [train_step(xs[:3], ys[:3]) for _ in range(4)])
report("eager.weights", model.weights)
tf.config.run_functions_eagerly(False)
