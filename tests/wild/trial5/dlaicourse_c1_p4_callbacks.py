# After: https://github.com/lmoroney/dlaicourse (Course 1 - Part 4 - Lesson 4 - Notebook.ipynb:
# myCallback.on_epoch_end setting self.model.stop_training when logs.get('loss') < 0.4, the
# Fashion-MNIST Sequential of Flatten, Dense(512, tf.nn.relu), Dense(10, tf.nn.softmax)
# compiled with 'adam' and fit with callbacks=[callbacks]; then the exercise cell whose
# callback stops at logs.get('accuracy') > 0.6, with Flatten(input_shape=(28, 28)) and
# tf.optimizers.Adam())
# Adapted: 32 seeded synthetic 28x28 uint8 images and labels (3 classes, so a small model
# can pass the thresholds within a few epochs) instead of Fashion-MNIST (one batch of 32,
# so fit's shuffle cannot change a step), 8 epochs instead of 5 and 10, so that each
# callback stops training before the last epoch; fixed weights.
import tensorflow as tf
import numpy as np
from adapt import data, fixed_weights, labels


def main():
  out = {}
  print(tf.__version__)

  class myCallback(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs={}):
      if(logs.get('loss')<0.4):
        print("\nReached 60% accuracy so cancelling training!")
        self.model.stop_training = True

  callbacks = myCallback()
  training_images = data(1, 32, 28, 28, low=0, high=255).round().astype(np.uint8)
  training_labels = labels(2, 32, 3).astype(np.uint8)
  test_images = data(3, 32, 28, 28, low=0, high=255).round().astype(np.uint8)
  test_labels = labels(4, 32, 3).astype(np.uint8)
  training_images=training_images/255.0
  test_images=test_images/255.0
  model = tf.keras.models.Sequential([
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(512, activation=tf.nn.relu),
    tf.keras.layers.Dense(10, activation=tf.nn.softmax)
  ])
  model(training_images[:1])
  fixed_weights(model.weights, seed=5, scale=0.05)
  model.compile(optimizer='adam', loss='sparse_categorical_crossentropy')
  out["loss_callback"] = model.fit(training_images, training_labels, epochs=8,
                                   callbacks=[callbacks]).history

  class myCallback(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs={}):
      if(logs.get('accuracy')>0.6):
        print("\nReached 60% accuracy so cancelling training!")
        self.model.stop_training = True

  x_train, y_train, x_test, y_test = (training_images * 255.0, training_labels,
                                      test_images * 255.0, test_labels)
  x_train, x_test = x_train / 255.0, x_test / 255.0

  callbacks = myCallback()

  model = tf.keras.models.Sequential([
    tf.keras.layers.Flatten(input_shape=(28, 28)),
    tf.keras.layers.Dense(512, activation=tf.nn.relu),
    tf.keras.layers.Dense(10, activation=tf.nn.softmax)
  ])
  fixed_weights(model.weights, seed=6, scale=0.05)
  model.compile(optimizer=tf.optimizers.Adam(),
                loss='sparse_categorical_crossentropy',
                metrics=['accuracy'])

  out["accuracy_callback"] = model.fit(x_train, y_train, epochs=8,
                                       callbacks=[callbacks]).history
  out["weights"] = model.get_weights()[-1]
  return out
