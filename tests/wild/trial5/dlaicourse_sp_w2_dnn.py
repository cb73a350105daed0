# After: https://github.com/lmoroney/dlaicourse (TensorFlow In Practice/Course 4 - S+P/
# S+P Week 2 Lesson 3.ipynb: the synthetic series of trend, seasonality and noise,
# windowed_dataset (from_tensor_slices, window with shift and drop_remainder, flat_map of
# window.batch, shuffle, map into features and label, batch, prefetch), the Dense(10)/
# Dense(10)/Dense(1) forecaster compiled with mse and SGD with momentum and fit, forecasts by
# predict over sliding windows and their mean_absolute_error; the LearningRateScheduler
# sweep; the model on windows of 30 and its loss history)
# Adapted: a series of 130 steps split at 100 instead of 4 * 365 + 1 split at 1000 (the same
# functions draw it; a forecast is one predict per window); shuffle_buffer_size = 1 instead
# of 1000 (a buffer of one keeps the order: the shuffle's order, drawn by TensorFlow's random
# stream, would decide every step); 5 epochs instead of 100 and 500; SGD(learning_rate=...)
# instead of SGD(lr=...), which tf-keras 2.21 refuses; fixed weights; the %tensorflow_version
# magic and the plots left out.
import tensorflow as tf
import numpy as np
from adapt import fixed_weights
print(tf.__version__)


def trend(time, slope=0):
    return slope * time

def seasonal_pattern(season_time):
    """Just an arbitrary pattern, you can change it if you wish"""
    return np.where(season_time < 0.4,
                    np.cos(season_time * 2 * np.pi),
                    1 / np.exp(3 * season_time))

def seasonality(time, period, amplitude=1, phase=0):
    """Repeats the same pattern at each period"""
    season_time = ((time + phase) % period) / period
    return amplitude * seasonal_pattern(season_time)

def noise(time, noise_level=1, seed=None):
    rnd = np.random.RandomState(seed)
    return rnd.randn(len(time)) * noise_level


def windowed_dataset(series, window_size, batch_size, shuffle_buffer):
  dataset = tf.data.Dataset.from_tensor_slices(series)
  dataset = dataset.window(window_size + 1, shift=1, drop_remainder=True)
  dataset = dataset.flat_map(lambda window: window.batch(window_size + 1))
  dataset = dataset.shuffle(shuffle_buffer).map(lambda window: (window[:-1], window[-1]))
  dataset = dataset.batch(batch_size).prefetch(1)
  return dataset


def main():
  out = {}
  time = np.arange(130, dtype="float32")
  baseline = 10
  series = trend(time, 0.1)  
  baseline = 10
  amplitude = 20
  slope = 0.09
  noise_level = 5

  # Create the series
  series = baseline + trend(time, slope) + seasonality(time, period=365, amplitude=amplitude)
  # Update with noise
  series += noise(time, noise_level, seed=42)

  split_time = 100
  time_train = time[:split_time]
  x_train = series[:split_time]
  time_valid = time[split_time:]
  x_valid = series[split_time:]

  window_size = 20
  batch_size = 32
  shuffle_buffer_size = 1

  dataset = windowed_dataset(x_train, window_size, batch_size, shuffle_buffer_size)
  out["first_batch"] = [t[:2] for t in next(iter(dataset))]

  model = tf.keras.models.Sequential([
      tf.keras.layers.Dense(10, input_shape=[window_size], activation="relu"), 
      tf.keras.layers.Dense(10, activation="relu"), 
      tf.keras.layers.Dense(1)
  ])
  fixed_weights(model.weights, seed=1, scale=0.2)

  model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(learning_rate=1e-6, momentum=0.9))
  out["fit"] = model.fit(dataset,epochs=5,verbose=0).history

  forecast = []
  for time in range(len(series) - window_size):
    forecast.append(model.predict(series[time:time + window_size][np.newaxis]))

  forecast = forecast[split_time-window_size:]
  results = np.array(forecast)[:, 0, 0]
  out["results"] = results
  out["mae"] = tf.keras.metrics.mean_absolute_error(x_valid, results).numpy()

  dataset = windowed_dataset(x_train, window_size, batch_size, shuffle_buffer_size)

  model = tf.keras.models.Sequential([
      tf.keras.layers.Dense(10, input_shape=[window_size], activation="relu"), 
      tf.keras.layers.Dense(10, activation="relu"), 
      tf.keras.layers.Dense(1)
  ])
  fixed_weights(model.weights, seed=2, scale=0.2)

  lr_schedule = tf.keras.callbacks.LearningRateScheduler(
      lambda epoch: 1e-8 * 10**(epoch / 20))
  optimizer = tf.keras.optimizers.SGD(learning_rate=1e-8, momentum=0.9)
  model.compile(loss="mse", optimizer=optimizer)
  history = model.fit(dataset, epochs=5, callbacks=[lr_schedule], verbose=0)
  out["lr_sweep"] = history.history

  lrs = 1e-8 * (10 ** (np.arange(100) / 20))

  window_size = 30
  dataset = windowed_dataset(x_train, window_size, batch_size, shuffle_buffer_size)

  model = tf.keras.models.Sequential([
    tf.keras.layers.Dense(10, activation="relu", input_shape=[window_size]),
    tf.keras.layers.Dense(10, activation="relu"),
    tf.keras.layers.Dense(1)
  ])
  fixed_weights(model.weights, seed=3, scale=0.2)

  optimizer = tf.keras.optimizers.SGD(learning_rate=8e-6, momentum=0.9)
  model.compile(loss="mse", optimizer=optimizer)
  history = model.fit(dataset, epochs=5, verbose=0)

  loss = history.history['loss']
  epochs = range(len(loss))

  # Plot all but the first 10
  loss = history.history['loss']
  epochs = range(10, len(loss))
  plot_loss = loss[10:]
  print(plot_loss)
  out["loss30"] = loss

  forecast = []
  for time in range(len(series) - window_size):
    forecast.append(model.predict(series[time:time + window_size][np.newaxis]))

  forecast = forecast[split_time-window_size:]
  results = np.array(forecast)[:, 0, 0]
  out["results30"] = results
  out["mae30"] = tf.keras.metrics.mean_absolute_error(x_valid, results).numpy()
  return out
