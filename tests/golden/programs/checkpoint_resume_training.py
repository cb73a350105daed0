# A training run checkpointed after 3 steps and resumed in fresh objects (a new model and
# optimizer, restored before the model is built, as a restarted script does) for 2 more:
# the losses, weights and optimizer step TensorFlow gives, for a Sequential model with Adam
# and a functional model with SGD and momentum; and Model.save_weights / load_weights.
import os
import tempfile

directory = tempfile.mkdtemp()
x = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(8, 3)
y = (x @ np.array([[0.5], [-1.0], [2.0]], np.float32) + 0.3).astype(np.float32)


def start_weights(model):
    return [np.full(w.shape, 0.1 * (i + 1), np.float32)
            + np.arange(w.size, dtype=np.float32).reshape(w.shape) * 0.01
            for i, w in enumerate(model.get_weights())]


def sequential():
    return tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"),
                                tf.keras.layers.Dense(1)])


def functional():
    inputs = tf.keras.Input(shape=(3,))
    hidden = tf.keras.layers.Dense(4, activation="relu")(inputs)
    return tf.keras.Model(inputs, tf.keras.layers.Dense(1)(hidden))


def train(model, optimizer, steps):
    losses = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        losses.append(loss)
    return losses


for name, make_model, make_optimizer in [
        ("sequential_adam", sequential, lambda: tf.keras.optimizers.Adam(0.05)),
        ("functional_sgd", functional, lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9))]:
    model, optimizer = make_model(), make_optimizer()
    model(x[:1])
    model.set_weights(start_weights(model))
    first = train(model, optimizer, 3)
    manager = tf.train.CheckpointManager(
        tf.train.Checkpoint(model=model, optimizer=optimizer),
        os.path.join(directory, name), max_to_keep=2)
    report(name + "_saved", os.path.basename(manager.save()))

    new_model, new_optimizer = make_model(), make_optimizer()
    status = tf.train.Checkpoint(model=new_model, optimizer=new_optimizer).restore(
        tf.train.latest_checkpoint(os.path.join(directory, name)))
    rest = train(new_model, new_optimizer, 2)
    report(name + "_consumed", type(status.assert_consumed()).__name__)
    report(name + "_losses", first + rest)
    report(name + "_iterations", new_optimizer.iterations)
    report(name + "_weights", new_model.get_weights())

model = sequential()
model(x[:1])
model.set_weights(start_weights(model))
weights_path = os.path.join(directory, "weights", "model")
report("save_weights", model.save_weights(weights_path))
report("latest_after_save_weights",
       os.path.relpath(tf.train.latest_checkpoint(os.path.dirname(weights_path)), directory))
other = sequential()
other(x[:1])
report("load_weights", type(other.load_weights(weights_path)).__name__)
report("loaded_predictions", other(x))
