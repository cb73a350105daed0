# After: https://github.com/lmoroney/dlaicourse (Course 1 - Part 4 - Lesson 2 - Notebook.ipynb:
# Fashion-MNIST scaled by 255.0, the Sequential of Flatten, Dense(128, tf.nn.relu) and
# Dense(10, tf.nn.softmax) compiled with tf.optimizers.Adam() and
# 'sparse_categorical_crossentropy' with accuracy, fit, evaluate and predict; then the
# exercise cells: Dense(1024), a Dense(5) output, two layers of 512 and 256, and Dense(512))
# Adapted: 32 seeded synthetic 28x28 uint8 images and labels instead of Fashion-MNIST and
# MNIST (one batch of 32, so fit's shuffle cannot change a step), 2 epochs instead of 5 (and
# of 30); fixed weights after the first call builds each model (a model built by fit is
# built on a batch of the data first); the exercise without Flatten left out (it is there
# to show the error TensorFlow raises: 28 rows of logits per image); the 5-class exercise
# given labels below 5 (labels % 5; the notebook shows its error with MNIST's labels);
# plt.imshow left out.
import tensorflow as tf
import numpy as np
from adapt import data, fixed_weights, labels


def fresh(model, images, seed):
  model(images[:1])
  fixed_weights(model.weights, seed=seed, scale=0.05)
  return model


def main():
  out = {}
  training_images = data(1, 32, 28, 28, low=0, high=255).round().astype(np.uint8)
  training_labels = labels(2, 32, 10).astype(np.uint8)
  test_images = data(3, 32, 28, 28, low=0, high=255).round().astype(np.uint8)
  test_labels = labels(4, 32, 10).astype(np.uint8)
  np.set_printoptions(linewidth=200)
  print(training_labels[0])
  print(training_images[0])
  training_images  = training_images / 255.0
  test_images = test_images / 255.0
  model = tf.keras.models.Sequential([tf.keras.layers.Flatten(), 
                                      tf.keras.layers.Dense(128, activation=tf.nn.relu), 
                                      tf.keras.layers.Dense(10, activation=tf.nn.softmax)])
  fresh(model, training_images, 5)
  model.compile(optimizer = tf.optimizers.Adam(),
                loss = 'sparse_categorical_crossentropy',
                metrics=['accuracy'])

  out["fashion"] = model.fit(training_images, training_labels, epochs=2).history
  out["fashion_eval"] = model.evaluate(test_images, test_labels)
  classifications = model.predict(test_images)
  print(classifications[0])
  print(test_labels[0])
  out["fashion_pred"] = classifications[:4]

  # the exercises, each on MNIST in the notebook
  exercises = [
      ("dense1024", [tf.keras.layers.Flatten(),
                     tf.keras.layers.Dense(1024, activation=tf.nn.relu),
                     tf.keras.layers.Dense(10, activation=tf.nn.softmax)], 10),
      ("five_outputs", [tf.keras.layers.Flatten(),
                        tf.keras.layers.Dense(64, activation=tf.nn.relu),
                        tf.keras.layers.Dense(5, activation=tf.nn.softmax)], 5),
      ("two_hidden", [tf.keras.layers.Flatten(),
                      tf.keras.layers.Dense(512, activation=tf.nn.relu),
                      tf.keras.layers.Dense(256, activation=tf.nn.relu),
                      tf.keras.layers.Dense(10, activation=tf.nn.softmax)], 10),
      ("dense512", [tf.keras.layers.Flatten(),
                    tf.keras.layers.Dense(512, activation=tf.nn.relu),
                    tf.keras.layers.Dense(10, activation=tf.nn.softmax)], 10),
  ]
  for i, (name, layers, classes) in enumerate(exercises):
    train_y = training_labels % classes
    test_y = test_labels % classes
    model = tf.keras.models.Sequential(layers)
    fresh(model, training_images, 10 + i)
    model.compile(optimizer = 'adam',
                  loss = 'sparse_categorical_crossentropy')
    history = model.fit(training_images, train_y, epochs=2)
    evaluation = model.evaluate(test_images, test_y)
    classifications = model.predict(test_images)
    print(classifications[0])
    print(test_y[0])
    out[name] = [history.history, evaluation, classifications[0]]
  return out
