# After: https://www.tensorflow.org/guide/core/logistic_regression_core (Normalize and
# LogisticRegression as tf.Module, log_loss, accuracy, the tf.data training loop)
# Adapted: 48 seeded synthetic rows with 6 features instead of the breast cancer data set,
# 20 epochs instead of 200, the random initial weights replaced by fixed ones after the
# first call (tf.random.uniform's stream differs).
import numpy as np
import tensorflow as tf
from adapt import data, fixed_weights


class Normalize(tf.Module):
  def __init__(self, x):
    # Initialize the mean and standard deviation for normalization
    self.mean = tf.Variable(tf.math.reduce_mean(x, axis=0))
    self.std = tf.Variable(tf.math.reduce_std(x, axis=0))

  def norm(self, x):
    # Normalize the input
    return (x - self.mean)/self.std

  def unnorm(self, x):
    # Unnormalize the input
    return (x * self.std) + self.mean


def log_loss(y_pred, y):
  # Compute the log loss function
  ce = tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=y_pred)
  return tf.reduce_mean(ce)


class LogisticRegression(tf.Module):

  def __init__(self):
    self.built = False

  def __call__(self, x, train=True):
    # Initialize the model parameters on the first call
    if not self.built:
      # Randomly generate the weights and the bias term
      rand_w = tf.random.uniform(shape=[x.shape[-1], 1], seed=22)
      rand_b = tf.random.uniform(shape=[], seed=22)
      self.w = tf.Variable(rand_w)
      self.b = tf.Variable(rand_b)
      self.built = True
    # Compute the model output
    z = tf.add(tf.matmul(x, self.w), self.b)
    z = tf.squeeze(z, axis=1)
    if train:
      return z
    return tf.sigmoid(z)


def predict_class(y_pred, thresh=0.5):
  # Return a tensor with  `1` if `y_pred` > `0.5`, and `0` otherwise
  return tf.cast(y_pred > thresh, tf.float32)


def accuracy(y_pred, y):
  # Return the proportion of matches between `y_pred` and `y`
  y_pred = tf.math.sigmoid(y_pred)
  y_pred_class = predict_class(y_pred)
  check_equal = tf.cast(y_pred_class == y,tf.float32)
  acc_val = tf.reduce_mean(check_equal)
  return acc_val


def main():
    x_np = data(1, 60, 6, low=0.0, high=20.0)
    y_np = (x_np[:, 0] + 0.5 * x_np[:, 3] > 15.0).astype(np.float32)
    x_train, y_train = tf.convert_to_tensor(x_np[:48]), tf.convert_to_tensor(y_np[:48])
    x_test, y_test = tf.convert_to_tensor(x_np[48:]), tf.convert_to_tensor(y_np[48:])
    norm_x = Normalize(x_train)
    x_train_norm, x_test_norm = norm_x.norm(x_train), norm_x.norm(x_test)

    log_reg = LogisticRegression()
    y_pred = log_reg(x_train_norm[:5], train=False)
    fixed_weights(log_reg.variables, seed=2)

    batch_size = 64
    train_dataset = tf.data.Dataset.from_tensor_slices((x_train_norm, y_train))
    train_dataset = train_dataset.shuffle(buffer_size=x_train.shape[0]).batch(batch_size)
    test_dataset = tf.data.Dataset.from_tensor_slices((x_test_norm, y_test))
    test_dataset = test_dataset.shuffle(buffer_size=x_test.shape[0]).batch(batch_size)

    # Set training parameters
    epochs = 20
    learning_rate = 0.01
    train_losses, test_losses = [], []
    train_accs, test_accs = [], []

    # Set up the training loop and begin training
    for epoch in range(epochs):
      batch_losses_train, batch_accs_train = [], []
      batch_losses_test, batch_accs_test = [], []

      # Iterate over the training data
      for x_batch, y_batch in train_dataset:
        with tf.GradientTape() as tape:
          y_pred_batch = log_reg(x_batch)
          batch_loss = log_loss(y_pred_batch, y_batch)
        batch_acc = accuracy(y_pred_batch, y_batch)
        # Update the parameters with respect to the gradient calculations
        grads = tape.gradient(batch_loss, log_reg.variables)
        for g,v in zip(grads, log_reg.variables):
          v.assign_sub(learning_rate * g)
        # Keep track of batch-level training performance
        batch_losses_train.append(batch_loss)
        batch_accs_train.append(batch_acc)

      # Iterate over the testing data
      for x_batch, y_batch in test_dataset:
        y_pred_batch = log_reg(x_batch)
        batch_loss = log_loss(y_pred_batch, y_batch)
        batch_acc = accuracy(y_pred_batch, y_batch)
        # Keep track of batch-level testing performance
        batch_losses_test.append(batch_loss)
        batch_accs_test.append(batch_acc)

      # Keep track of epoch-level model performance
      train_loss, train_acc = tf.reduce_mean(batch_losses_train), tf.reduce_mean(batch_accs_train)
      test_loss, test_acc = tf.reduce_mean(batch_losses_test), tf.reduce_mean(batch_accs_test)
      train_losses.append(train_loss)
      train_accs.append(train_acc)
      test_losses.append(test_loss)
      test_accs.append(test_acc)
    return {"train_losses": train_losses, "test_losses": test_losses, "train_accs": train_accs,
            "w": log_reg.w, "b": log_reg.b, "first_pred_shape": list(y_pred.shape),
            "names": [v.name for v in log_reg.variables],
            "unnorm": norm_x.unnorm(x_test_norm[:2])}
