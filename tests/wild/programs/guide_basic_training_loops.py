# After: https://www.tensorflow.org/guide/basic_training_loops (synthetic data
# y = 3x + 2 + noise, MyModel as a tf.Module with w and b variables, loss as
# tf.reduce_mean(tf.square(...)), train() with a GradientTape and assign_sub,
# training_loop over epochs; then the same with a tf.keras.Model subclass, compile and fit)
# Adapted: the noise comes from a seeded NumPy generator instead of tf.random.normal,
# 201 points, 10 epochs, fit with shuffle=False.
import numpy as np
import tensorflow as tf

# The actual line
TRUE_W = 3.0
TRUE_B = 2.0

NUM_EXAMPLES = 201

# A vector of 201 points spaced evenly from -2 to 2
x = tf.linspace(-2, 2, NUM_EXAMPLES)
x = tf.cast(x, tf.float32)


def f(x):
    return x * TRUE_W + TRUE_B


# Generate some noise
noise = tf.constant(np.random.default_rng(0).normal(size=[NUM_EXAMPLES]).astype(np.float32))

# Calculate y
y = f(x) + noise


class MyModel(tf.Module):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        # Initialize the weights to `5.0` and the bias to `0.0`
        # In practice, these should be randomly initialized
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)

    def __call__(self, x):
        return self.w * x + self.b


# This computes a single loss value for an entire batch
def loss(target_y, predicted_y):
    return tf.reduce_mean(tf.square(target_y - predicted_y))


# Given a callable model, inputs, outputs, and a learning rate...
def train(model, x, y, learning_rate):
    with tf.GradientTape() as t:
        # Trainable variables are automatically tracked by GradientTape
        current_loss = loss(y, model(x))

    # Use GradientTape to calculate the gradients with respect to W and b
    dw, db = t.gradient(current_loss, [model.w, model.b])

    # Subtract the gradient scaled by the learning rate
    model.w.assign_sub(learning_rate * dw)
    model.b.assign_sub(learning_rate * db)


class MyModelKeras(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        # Initialize the weights to `5.0` and the bias to `0.0`
        # In practice, these should be randomly initialized
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)

    def call(self, x):
        return self.w * x + self.b


def main():
    model = MyModel()
    # Collect the history of W-values and b-values to plot later
    weights = []
    biases = []
    epochs = range(10)

    # Define a training loop
    def report(model, loss):
        return f"W = {model.w.numpy():1.2f}, b = {model.b.numpy():1.2f}, loss={loss:2.5f}"

    def training_loop(model, x, y):
        lines = []
        for epoch in epochs:
            # Update the model with the single giant batch
            train(model, x, y, learning_rate=0.1)

            # Track this before I update
            weights.append(model.w.numpy())
            biases.append(model.b.numpy())
            current_loss = loss(y, model(x))
            lines.append(f"Epoch {epoch:2d}:" + "    " + report(model, current_loss))
        return lines

    lines = training_loop(model, x, y)

    keras_model = MyModelKeras()
    # compile sets the training parameters
    keras_model.compile(
        # By default, fit() uses tf.function().  You can
        # turn that off for debugging, but it is on now.
        run_eagerly=False,

        # Using a built-in optimizer, configuring as an object
        optimizer=tf.keras.optimizers.SGD(learning_rate=0.1),

        # Keras comes with built-in MSE error
        # However, you could use the loss function
        # defined above
        loss=tf.keras.losses.mean_squared_error,
    )
    history = keras_model.fit(x, y, epochs=10, batch_size=1000, verbose=0, shuffle=False)
    return {"weights": np.array(weights), "biases": np.array(biases), "n_lines": len(lines),
            "keras_loss": history.history["loss"], "keras_w": keras_model.w,
            "keras_b": keras_model.b}
