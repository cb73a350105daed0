# After: https://www.tensorflow.org/guide/basics ("Modules, layers, and models" and "Training
# loops": f(x) = x**2 + 2*x - 5 data, MyModel(tf.keras.Model) with a tf.function call and
# tf.Variable weights, the manual GradientTape loop with the Adam optimizer, then compile/fit
# of a new MyModel with MSE and batch_size=32)
# Adapted: the 201 points of noise use a seeded NumPy generator (tf.random.normal there), the
# initial weights are fixed, 30 steps instead of 1000 and 2 epochs instead of 100.
import numpy as np
import tensorflow as tf
from adapt import fixed_weights


def f(x):
  y = x**2 + 2*x - 5
  return y


class Model(tf.keras.Model):
  def __init__(self, units):
    super().__init__()
    self.dense1 = tf.keras.layers.Dense(units=units,
                                        activation=tf.nn.relu,
                                        kernel_initializer=tf.random.normal,
                                        bias_initializer=tf.random.normal)
    self.dense2 = tf.keras.layers.Dense(1)

  def call(self, x, training=True):
    # For Keras layers/models, implement `call` instead of `__call__`.
    x = x[:, tf.newaxis]
    x = self.dense1(x)
    x = self.dense2(x)
    return tf.squeeze(x, axis=1)


def main():
    x = tf.linspace(-2, 2, 201)
    x = tf.cast(x, tf.float32)
    y = f(x) + tf.constant(np.random.default_rng(0).normal(size=[201]).astype(np.float32))

    model = Model(64)
    model(x)
    fixed_weights(model.trainable_variables, seed=1, scale=0.8)
    untrained = model(x)[:5]

    variables = model.variables
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)

    losses = []
    for step in range(30):
      with tf.GradientTape() as tape:
        prediction = model(x)
        error = (y-prediction)**2
        mean_error = tf.reduce_mean(error)
      gradient = tape.gradient(mean_error, variables)
      optimizer.apply_gradients(zip(gradient, variables))

      if step % 10 == 0:
        print(f'Mean squared error: {mean_error.numpy():0.3f}')
      losses.append(mean_error)

    new_model = Model(64)
    new_model(x)
    fixed_weights(new_model.trainable_variables, seed=1, scale=0.8)
    new_model.compile(
        loss=tf.keras.losses.MSE,
        optimizer=tf.keras.optimizers.SGD(learning_rate=0.01))

    history = new_model.fit(x, y,
                            epochs=2,
                            batch_size=32,
                            shuffle=False,
                            verbose=0)
    return {"untrained": untrained, "losses": losses, "history": history.history,
            "final": new_model(x[:5])}
