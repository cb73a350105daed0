# After: https://github.com/YunYang1994/TensorFlow2.0-Examples (2-Basical_Models/CNN.py)
# Adapted: 32 training and 16 test images of MNIST's shape and dtype (seeded NumPy uint8
# 28x28, labels 0-9) instead of tf.keras.datasets.mnist, so that the training data is one
# batch of 32 and its shuffle decides nothing; the model called once on one image and its
# weights fixed from seeded NumPy (adapt.fixed_weights) instead of the random initializers;
# 2 epochs instead of 5; the script's body wrapped in main(), which returns every epoch's
# printed metrics and the final output layer's weights rounded to 4 decimals (TensorFlow's
# own two runs differed in their last float32 digits there).
from __future__ import absolute_import, division, print_function, unicode_literals

import numpy as np
import tensorflow as tf

from tensorflow.keras.layers import Dense, Flatten, Conv2D
from tensorflow.keras import Model
from adapt import fixed_weights


# Build the tf.keras model using the Keras model subclassing API
class MyModel(Model):
  def __init__(self):
      super(MyModel, self).__init__()
      self.conv1 = Conv2D(32, 3, activation='relu')
      self.flatten = Flatten()
      self.d1 = Dense(128, activation='relu')
      self.d2 = Dense(10, activation='softmax')

  def call(self, x):
      x = self.conv1(x)
      x = self.flatten(x)
      x = self.d1(x)
      return self.d2(x)


def main():
  # Load and prepare the MNIST dataset.

  rng = np.random.default_rng(0)
  x_train = rng.integers(0, 256, size=(32, 28, 28)).astype(np.uint8)
  y_train = rng.integers(0, 10, size=32).astype(np.uint8)
  x_test = rng.integers(0, 256, size=(16, 28, 28)).astype(np.uint8)
  y_test = rng.integers(0, 10, size=16).astype(np.uint8)
  x_train, x_test = x_train / 255.0, x_test / 255.0

  # # Add a channels dimension
  x_train = x_train[..., tf.newaxis]
  x_test  = x_test[..., tf.newaxis]

  # Use tf.data to batch and shuffle the dataset
  train_ds = tf.data.Dataset.from_tensor_slices(
          (x_train, y_train)).shuffle(10000).batch(32)
  test_ds = tf.data.Dataset.from_tensor_slices(
          (x_test, y_test)).batch(32)

  # Create an instance of the model
  model = MyModel()
  model(x_train[:1])
  fixed_weights(model.weights, seed=1, scale=0.1)

  # Choose an optimizer and loss function for training
  loss_object = tf.keras.losses.SparseCategoricalCrossentropy()
  optimizer = tf.keras.optimizers.Adam()

  # Select metrics to measure the loss and the accuracy of the model
  train_loss = tf.keras.metrics.Mean(name='train_loss')
  train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name='train_accuracy')

  test_loss = tf.keras.metrics.Mean(name='test_loss')
  test_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name='test_accuracy')

  # Use tf.GradientTape to train the model.
  @tf.function
  def train_step(images, labels):
      with tf.GradientTape() as tape:
          predictions = model(images)
          loss = loss_object(labels, predictions)
      gradients = tape.gradient(loss, model.trainable_variables)
      optimizer.apply_gradients(zip(gradients, model.trainable_variables))
      train_loss(loss)
      train_accuracy(labels, predictions)

  @tf.function
  def test_step(images, labels):
      predictions = model(images)
      t_loss = loss_object(labels, predictions)
      test_loss(t_loss)
      test_accuracy(labels, predictions)

  EPOCHS = 2

  printed = []
  for epoch in range(EPOCHS):
      for images, labels in train_ds:
          train_step(images, labels)

      for test_images, test_labels in test_ds:
          test_step(test_images, test_labels)

      template = 'Epoch {}, Loss: {}, Accuracy: {}, Test Loss: {}, Test Accuracy: {}'
      print(template.format(epoch+1,
                            train_loss.result(),
                            train_accuracy.result()*100,
                            test_loss.result(),
                            test_accuracy.result()*100))
      printed.append([train_loss.result(), train_accuracy.result()*100,
                      test_loss.result(), test_accuracy.result()*100])
      # Reset the metrics for the next epoch
      train_loss.reset_states()
      train_accuracy.reset_states()
      test_loss.reset_states()
      test_accuracy.reset_states()
  return {"printed": printed, "d2_kernel": np.round(model.d2.kernel.numpy(), 4),
          "d2_bias": np.round(model.d2.bias.numpy(), 4)}
