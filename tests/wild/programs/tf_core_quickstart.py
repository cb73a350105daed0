# After: https://www.tensorflow.org/guide/core/quickstart_core (onehot_origin, the Normalize
# tf.Module, the LinearRegression tf.Module whose @tf.function __call__ builds its variables
# on the first call, mse_loss, tf.data batches and the hand-written GradientTape loop with
# assign_sub)
# Adapted: 60 seeded synthetic rows of 6 features and an origin code in {1, 2, 3} instead of
# the Auto MPG CSV, 10 epochs instead of 100; the variables fixed after the first call built
# them; the training split is smaller than batch_size, so shuffle's order cannot change a
# step.
import numpy as np
import tensorflow as tf
from adapt import data, fixed_weights


def onehot_origin(x):
  origin = tf.cast(x[:, -1], tf.int32)
  # Use `origin - 1` to account for 1-indexed feature
  origin_oh = tf.one_hot(origin - 1, 3)
  x_ohe = tf.concat([x[:, :-1], origin_oh], axis = 1)
  return x_ohe


class Normalize(tf.Module):
  def __init__(self, x):
    # Initialize the mean and standard deviation for normalization
    self.mean = tf.math.reduce_mean(x, axis=0)
    self.std = tf.math.reduce_std(x, axis=0)

  def norm(self, x):
    # Normalize the input
    return (x - self.mean)/self.std

  def unnorm(self, x):
    # Unnormalize the input
    return (x * self.std) + self.mean


class LinearRegression(tf.Module):

  def __init__(self):
    self.built = False

  @tf.function
  def __call__(self, x):
    # Initialize the model parameters on the first call
    if not self.built:
      # Randomly generate the weight vector and bias term
      rand_w = tf.random.uniform(shape=[x.shape[-1], 1])
      rand_b = tf.random.uniform(shape=[])
      self.w = tf.Variable(rand_w)
      self.b = tf.Variable(rand_b)
      self.built = True
    y = tf.add(tf.matmul(x, self.w), self.b)
    return tf.squeeze(y, axis=1)


def mse_loss(y_pred, y):
  return tf.reduce_mean(tf.square(y_pred - y))


def main():
  tf.random.set_seed(22)
  features = data(1, 60, 6, low=1.0, high=20.0)
  origin = np.random.default_rng(2).integers(1, 4, size=(60, 1)).astype(np.float32)
  mpg = (40.0 - features[:, 0] * 0.8 + features[:, 3] * 0.3 + origin[:, 0]).astype(np.float32)
  dataset = tf.constant(np.concatenate([mpg[:, None], features, origin], axis=1))
  dataset = tf.cast(dataset, tf.float32)
  x_train, x_test = dataset[:45, 1:], dataset[45:, 1:]
  y_train, y_test = dataset[:45, 0], dataset[45:, 0]
  x_train, x_test = onehot_origin(x_train), onehot_origin(x_test)

  norm_x = Normalize(x_train)
  x_train_norm, x_test_norm = norm_x.norm(x_train), norm_x.norm(x_test)
  norm_y = Normalize(y_train)
  y_train_norm, y_test_norm = norm_y.norm(y_train), norm_y.norm(y_test)

  lin_reg = LinearRegression()
  prediction = lin_reg(x_train_norm[:1])
  fixed_weights(lin_reg.variables, seed=3, scale=0.5)
  prediction_unnorm = norm_y.unnorm(lin_reg(x_train_norm[:1]))

  batch_size = 64
  train_dataset = tf.data.Dataset.from_tensor_slices((x_train_norm, y_train_norm))
  train_dataset = train_dataset.shuffle(buffer_size=x_train.shape[0]).batch(batch_size)
  test_dataset = tf.data.Dataset.from_tensor_slices((x_test_norm, y_test_norm))
  test_dataset = test_dataset.shuffle(buffer_size=x_test.shape[0]).batch(batch_size)

  # Set training parameters
  epochs = 10
  learning_rate = 0.01
  train_losses, test_losses = [], []

  # Format training loop
  for epoch in range(epochs):
    batch_losses_train, batch_losses_test = [], []

    # Iterate through the training data
    for x_batch, y_batch in train_dataset:
      with tf.GradientTape() as tape:
        batch_loss = mse_loss(lin_reg(x_batch), y_batch)
      # Update parameters with respect to the gradient calculations
      grads = tape.gradient(batch_loss, lin_reg.variables)
      for g,v in zip(grads, lin_reg.variables):
        v.assign_sub(learning_rate * g)
      # Keep track of batch-level training performance
      batch_losses_train.append(batch_loss)

    # Iterate through the testing data
    for x_batch, y_batch in test_dataset:
      y_pred_batch = lin_reg(x_batch)
      batch_loss = mse_loss(y_pred_batch, y_batch)
      # Keep track of batch-level testing performance
      batch_losses_test.append(batch_loss)

    # Keep track of epoch-level performance
    train_loss = tf.reduce_mean(batch_losses_train)
    test_loss = tf.reduce_mean(batch_losses_test)
    train_losses.append(train_loss)
    test_losses.append(test_loss)

  return {"x_train_shape": list(x_train.shape), "mean": norm_x.mean, "std": norm_x.std,
          "prediction_shape": list(prediction.shape), "prediction_unnorm": prediction_unnorm,
          "train_losses": train_losses, "test_losses": [float(t) for t in test_losses],
          "variables": [v.numpy() for v in lin_reg.variables]}
