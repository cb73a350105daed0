# After: https://github.com/lmoroney/dlaicourse (Course 1 - Part 2 - Lesson 2 - Notebook.ipynb:
# the one-neuron Sequential of Dense(units=1, input_shape=[1]) compiled with 'sgd' and
# 'mean_squared_error', fit on six points of y = 2x - 1, and predict([10.0]))
# Adapted: fixed weights instead of the random initializer; 50 epochs instead of 500; the
# notebook's cells wrapped in main(), which returns the history and the prediction.
import tensorflow as tf
import numpy as np
from tensorflow import keras
from adapt import fixed_weights


def main():
  model = tf.keras.Sequential([keras.layers.Dense(units=1, input_shape=[1])])
  fixed_weights(model.weights, seed=1, scale=0.5)
  model.compile(optimizer='sgd', loss='mean_squared_error')
  xs = np.array([-1.0,  0.0, 1.0, 2.0, 3.0, 4.0], dtype=float)
  ys = np.array([-3.0, -1.0, 1.0, 3.0, 5.0, 7.0], dtype=float)
  history = model.fit(xs, ys, epochs=50)
  prediction = model.predict([10.0])
  print(prediction)
  return {"history": history.history, "prediction": prediction,
          "weights": model.get_weights()}
