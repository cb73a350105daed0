# After: https://github.com/lmoroney/dlaicourse (Course 1 - Part 6 - Lesson 2 - Notebook.ipynb:
# the Dense baseline, then the convnet of Conv2D(64, (3,3)), MaxPooling2D(2, 2), Conv2D(64,
# (3,3)), MaxPooling2D(2,2), Flatten, Dense(128), Dense(10, softmax) on images reshaped to
# (n, 28, 28, 1) with summary, fit and evaluate; the activation model of
# tf.keras.models.Model(inputs = model.input, outputs = layer_outputs) predicting one image
# at a time; and the exercise convnet with one Conv2D(32))
# Adapted: 32 seeded synthetic 28x28 uint8 images and labels instead of Fashion-MNIST and
# MNIST (one batch of 32, so fit's shuffle cannot change a step; reshape(32, ...) instead of
# reshape(60000, ...) and reshape(10000, ...)), 2 epochs instead of 5 and 10; fixed weights;
# the activations answered as numbers rounded to 4 decimals (TensorFlow's own two runs
# differ in their last float32 digits) instead of drawn with plt.subplots and imshow.
import tensorflow as tf
import numpy as np
from adapt import data, fixed_weights, labels


def main():
  out = {}
  training_images = data(1, 32, 28, 28, low=0, high=255).round().astype(np.uint8)
  training_labels = labels(2, 32, 10).astype(np.uint8)
  test_images = data(3, 32, 28, 28, low=0, high=255).round().astype(np.uint8)
  test_labels = labels(4, 32, 10).astype(np.uint8)
  raw = (training_images, training_labels, test_images, test_labels)

  training_images=training_images / 255.0
  test_images=test_images / 255.0
  model = tf.keras.models.Sequential([
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(128, activation=tf.nn.relu),
    tf.keras.layers.Dense(10, activation=tf.nn.softmax)
  ])
  model(training_images[:1])
  fixed_weights(model.weights, seed=5, scale=0.05)
  model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])
  out["dense"] = model.fit(training_images, training_labels, epochs=2).history

  test_loss = model.evaluate(test_images, test_labels)
  out["dense_eval"] = test_loss

  print(tf.__version__)
  (training_images, training_labels, test_images, test_labels) = raw
  training_images=training_images.reshape(32, 28, 28, 1)
  training_images=training_images / 255.0
  test_images = test_images.reshape(32, 28, 28, 1)
  test_images=test_images/255.0
  model = tf.keras.models.Sequential([
    tf.keras.layers.Conv2D(64, (3,3), activation='relu', input_shape=(28, 28, 1)),
    tf.keras.layers.MaxPooling2D(2, 2),
    tf.keras.layers.Conv2D(64, (3,3), activation='relu'),
    tf.keras.layers.MaxPooling2D(2,2),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(128, activation='relu'),
    tf.keras.layers.Dense(10, activation='softmax')
  ])
  fixed_weights(model.weights, seed=6, scale=0.05)
  model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])
  model.summary()
  out["conv"] = model.fit(training_images, training_labels, epochs=2).history
  test_loss = model.evaluate(test_images, test_labels)
  out["conv_eval"] = test_loss

  print(test_labels[:100])

  FIRST_IMAGE=0
  SECOND_IMAGE=7
  THIRD_IMAGE=26
  CONVOLUTION_NUMBER = 1
  from tensorflow.keras import models
  layer_outputs = [layer.output for layer in model.layers]
  activation_model = tf.keras.models.Model(inputs = model.input, outputs = layer_outputs)
  activations = []
  for x in range(0,4):
    f1 = activation_model.predict(test_images[FIRST_IMAGE].reshape(1, 28, 28, 1))[x]
    f2 = activation_model.predict(test_images[SECOND_IMAGE].reshape(1, 28, 28, 1))[x]
    f3 = activation_model.predict(test_images[THIRD_IMAGE].reshape(1, 28, 28, 1))[x]
    activations.append([np.round(f[0, :4, :4, CONVOLUTION_NUMBER], 4) for f in (f1, f2, f3)])
  out["activations"] = activations

  print(tf.__version__)
  (training_images, training_labels, test_images, test_labels) = raw
  training_images=training_images.reshape(32, 28, 28, 1)
  training_images=training_images / 255.0
  test_images = test_images.reshape(32, 28, 28, 1)
  test_images=test_images/255.0
  model = tf.keras.models.Sequential([
    tf.keras.layers.Conv2D(32, (3,3), activation='relu', input_shape=(28, 28, 1)),
    tf.keras.layers.MaxPooling2D(2, 2),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(128, activation='relu'),
    tf.keras.layers.Dense(10, activation='softmax')
  ])
  fixed_weights(model.weights, seed=7, scale=0.05)
  model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])
  out["exercise"] = model.fit(training_images, training_labels, epochs=2).history
  test_loss, test_acc = model.evaluate(test_images, test_labels)
  print(test_acc)
  out["exercise_eval"] = [test_loss, test_acc]
  return out
