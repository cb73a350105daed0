# After: https://github.com/lmoroney/dlaicourse (TensorFlow In Practice/Course 4 - S+P/
# S+P Week 3 Lesson 4 - LSTM.ipynb: the synthetic series, windowed_dataset, clear_session,
# the Sequential of Lambda(tf.expand_dims), two Bidirectional LSTM(32), Dense(1) and
# Lambda(x * 100.0), compiled with Huber loss, SGD with momentum and mae, fit under a
# LearningRateScheduler; the same model with mse fit, forecasts by predict over sliding
# windows and their mean_absolute_error; then two more LSTM stacks (two and three
# Bidirectional layers) fit with mse)
# Adapted: a series of 130 steps split at 100 instead of 4 * 365 + 1 split at 1000 (the same
# functions draw it; a forecast is one predict per window); shuffle_buffer_size = 1 instead
# of 1000 (a buffer of one keeps the order: the shuffle's order, drawn by TensorFlow's random
# stream, would decide every step); 2 epochs instead of 100 and 500; SGD(learning_rate=...)
# instead of SGD(lr=...), which tf-keras 2.21 refuses; fixed weights after each model's
# first call; the !pip line and the plots left out.
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


def fixed(model, dataset, seed):
  model(next(iter(dataset))[0])
  fixed_weights(model.weights, seed=seed, scale=0.15)


def main():
  out = {}
  time = np.arange(130, dtype="float32")
  baseline = 10
  series = trend(time, 0.1)  
  baseline = 10
  amplitude = 40
  slope = 0.05
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

  tf.keras.backend.clear_session()
  tf.random.set_seed(51)
  np.random.seed(51)

  tf.keras.backend.clear_session()
  dataset = windowed_dataset(x_train, window_size, batch_size, shuffle_buffer_size)

  model = tf.keras.models.Sequential([
    tf.keras.layers.Lambda(lambda x: tf.expand_dims(x, axis=-1),
                        input_shape=[None]),
      tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(32, return_sequences=True)),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(32)),
    tf.keras.layers.Dense(1),
    tf.keras.layers.Lambda(lambda x: x * 100.0)
  ])
  fixed(model, dataset, 1)

  lr_schedule = tf.keras.callbacks.LearningRateScheduler(
      lambda epoch: 1e-8 * 10**(epoch / 20))
  optimizer = tf.keras.optimizers.SGD(learning_rate=1e-8, momentum=0.9)
  model.compile(loss=tf.keras.losses.Huber(),
                optimizer=optimizer,
                metrics=["mae"])
  history = model.fit(dataset, epochs=2, callbacks=[lr_schedule])
  out["lr_sweep"] = history.history

  tf.keras.backend.clear_session()
  tf.random.set_seed(51)
  np.random.seed(51)

  tf.keras.backend.clear_session()
  dataset = windowed_dataset(x_train, window_size, batch_size, shuffle_buffer_size)

  model = tf.keras.models.Sequential([
    tf.keras.layers.Lambda(lambda x: tf.expand_dims(x, axis=-1),
                        input_shape=[None]),
     tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(32, return_sequences=True)),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(32)),
    tf.keras.layers.Dense(1),
    tf.keras.layers.Lambda(lambda x: x * 100.0)
  ])
  fixed(model, dataset, 2)

  model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(learning_rate=1e-5, momentum=0.9),metrics=["mae"])
  history = model.fit(dataset,epochs=2,verbose=0)
  out["mse_fit"] = history.history

  forecast = []
  results = []
  for time in range(len(series) - window_size):
    forecast.append(model.predict(series[time:time + window_size][np.newaxis]))

  forecast = forecast[split_time-window_size:]
  results = np.array(forecast)[:, 0, 0]
  out["results"] = results
  out["mae"] = tf.keras.metrics.mean_absolute_error(x_valid, results).numpy()

  mae=history.history['mae']
  loss=history.history['loss']

  epochs=range(len(loss)) # Get number of epochs

  tf.keras.backend.clear_session()
  dataset = windowed_dataset(x_train, window_size, batch_size, shuffle_buffer_size)

  model = tf.keras.models.Sequential([
    tf.keras.layers.Lambda(lambda x: tf.expand_dims(x, axis=-1),
                        input_shape=[None]),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(32, return_sequences=True)),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(32)),
    tf.keras.layers.Dense(1),
    tf.keras.layers.Lambda(lambda x: x * 100.0)
  ])
  fixed(model, dataset, 3)

  model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(learning_rate=1e-6, momentum=0.9))
  out["two_layers"] = model.fit(dataset,epochs=2, verbose=0).history

  tf.keras.backend.clear_session()
  dataset = windowed_dataset(x_train, window_size, batch_size, shuffle_buffer_size)

  model = tf.keras.models.Sequential([
    tf.keras.layers.Lambda(lambda x: tf.expand_dims(x, axis=-1),
                        input_shape=[None]),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(32, return_sequences=True)),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(32, return_sequences=True)),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(32)),
    tf.keras.layers.Dense(1),
    tf.keras.layers.Lambda(lambda x: x * 100.0)
  ])
  fixed(model, dataset, 4)

  model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(learning_rate=1e-6, momentum=0.9))
  out["three_layers"] = model.fit(dataset,epochs=2).history
  return out
