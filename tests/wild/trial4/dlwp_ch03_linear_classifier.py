# After: https://github.com/fchollet/deep-learning-with-python-notebooks (second_edition/
# chapter03_introduction-to-keras-and-tf.ipynb: Variable assign and slicing assign, the
# GradientTape examples (a Variable, a watched constant, a second derivative), the linear
# classifier of two point clouds trained by 40 GradientTape steps, SimpleDense, and
# Sequential(Dense(1)) with compile/fit, a hand-made validation split and predict)
# Adapted: the point clouds and the permutation from NumPy's global generator seeded with
# np.random.seed(0) (the notebook leaves it unseeded), W and the Keras models' weights
# fixed (model.build(...) before compile so they can be set), SimpleDense's random_normal
# weights fixed; fit with shuffle=False (its shuffle order is the library's own) and 2
# epochs instead of 5; the plots left out.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import fixed_weights


class SimpleDense(keras.layers.Layer):

    def __init__(self, units, activation=None):
        super().__init__()
        self.units = units
        self.activation = activation

    def build(self, input_shape):
        input_dim = input_shape[-1]
        self.W = self.add_weight(shape=(input_dim, self.units),
                                 initializer="random_normal")
        self.b = self.add_weight(shape=(self.units,),
                                 initializer="zeros")

    def call(self, inputs):
        y = tf.matmul(inputs, self.W) + self.b
        if self.activation is not None:
            y = self.activation(y)
        return y


def main():
    out = {}
    np.random.seed(0)
    x = tf.ones(shape=(2, 1))
    x = tf.zeros(shape=(2, 1))
    v = tf.Variable(initial_value=tf.constant(np.random.normal(size=(3, 1)).astype("float32")))
    v.assign(tf.ones((3, 1)))
    v[0, 0].assign(3.)
    v.assign_add(tf.ones((3, 1)))
    out["v"] = v
    a = tf.ones((2, 2))
    b = tf.square(a)
    c = tf.sqrt(a)
    d = b + c
    e = tf.matmul(a, b)
    e *= d
    out["e"] = e

    input_var = tf.Variable(initial_value=3.)
    with tf.GradientTape() as tape:
       result = tf.square(input_var)
    gradient = tape.gradient(result, input_var)
    out["gradient_var"] = gradient
    input_const = tf.constant(3.)
    with tf.GradientTape() as tape:
       tape.watch(input_const)
       result = tf.square(input_const)
    gradient = tape.gradient(result, input_const)
    out["gradient_const"] = gradient
    time = tf.Variable(0.)
    with tf.GradientTape() as outer_tape:
        with tf.GradientTape() as inner_tape:
            position =  4.9 * time ** 2
        speed = inner_tape.gradient(position, time)
    acceleration = outer_tape.gradient(speed, time)
    out["speed"], out["acceleration"] = speed, acceleration

    num_samples_per_class = 1000
    negative_samples = np.random.multivariate_normal(
        mean=[0, 3],
        cov=[[1, 0.5],[0.5, 1]],
        size=num_samples_per_class)
    positive_samples = np.random.multivariate_normal(
        mean=[3, 0],
        cov=[[1, 0.5],[0.5, 1]],
        size=num_samples_per_class)
    inputs = np.vstack((negative_samples, positive_samples)).astype(np.float32)
    targets = np.vstack((np.zeros((num_samples_per_class, 1), dtype="float32"),
                         np.ones((num_samples_per_class, 1), dtype="float32")))

    input_dim = 2
    output_dim = 1
    W = tf.Variable(initial_value=tf.random.uniform(shape=(input_dim, output_dim)))
    b = tf.Variable(initial_value=tf.zeros(shape=(output_dim,)))
    fixed_weights([W], seed=1, scale=0.5)

    def model(inputs):
        return tf.matmul(inputs, W) + b

    def square_loss(targets, predictions):
        per_sample_losses = tf.square(targets - predictions)
        return tf.reduce_mean(per_sample_losses)

    learning_rate = 0.1

    def training_step(inputs, targets):
        with tf.GradientTape() as tape:
            predictions = model(inputs)
            loss = square_loss(targets, predictions)
        grad_loss_wrt_W, grad_loss_wrt_b = tape.gradient(loss, [W, b])
        W.assign_sub(grad_loss_wrt_W * learning_rate)
        b.assign_sub(grad_loss_wrt_b * learning_rate)
        return loss

    losses = []
    for step in range(40):
        loss = training_step(inputs, targets)
        print(f"Loss at step {step}: {loss:.4f}")
        losses.append(loss)
    out["linear_losses"], out["W"], out["b"] = losses, W, b
    predictions = model(inputs)
    out["predicted_positive"] = int(np.sum(predictions[:, 0] > 0.5))
    x = np.linspace(-1, 4, 100)
    y = - W[0] /  W[1] * x + (0.5 - b) / W[1]
    out["boundary"] = y

    my_dense = SimpleDense(units=32, activation=tf.nn.relu)
    input_tensor = tf.ones(shape=(2, 784))
    output_tensor = my_dense(input_tensor)
    print(output_tensor.shape)
    out["simple_dense_shape"] = list(output_tensor.shape)
    out["simple_dense_weights"] = [w.name for w in my_dense.weights]

    model = keras.Sequential([keras.layers.Dense(1)])
    model.build(input_shape=(None, 2))
    fixed_weights(model.weights, seed=2, scale=0.5)
    model.compile(optimizer=keras.optimizers.RMSprop(),
                  loss=keras.losses.MeanSquaredError(),
                  metrics=[keras.metrics.BinaryAccuracy()])
    history = model.fit(
        inputs,
        targets,
        epochs=2,
        batch_size=128,
        shuffle=False
    )
    out["history"] = history.history

    model = keras.Sequential([keras.layers.Dense(1)])
    model.build(input_shape=(None, 2))
    fixed_weights(model.weights, seed=3, scale=0.5)
    model.compile(optimizer=keras.optimizers.RMSprop(learning_rate=0.1),
                  loss=keras.losses.MeanSquaredError(),
                  metrics=[keras.metrics.BinaryAccuracy()])

    indices_permutation = np.random.permutation(len(inputs))
    shuffled_inputs = inputs[indices_permutation]
    shuffled_targets = targets[indices_permutation]

    num_validation_samples = int(0.3 * len(inputs))
    val_inputs = shuffled_inputs[:num_validation_samples]
    val_targets = shuffled_targets[:num_validation_samples]
    training_inputs = shuffled_inputs[num_validation_samples:]
    training_targets = shuffled_targets[num_validation_samples:]
    history = model.fit(
        training_inputs,
        training_targets,
        epochs=2,
        batch_size=16,
        validation_data=(val_inputs, val_targets),
        shuffle=False
    )
    out["history_val"] = history.history
    predictions = model.predict(val_inputs, batch_size=128)
    print(predictions[:10])
    out["predictions"] = predictions[:10]
    return out
