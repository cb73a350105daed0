# After: https://github.com/mrdbourke/tensorflow-deep-learning
# (10_time_series_forecasting_in_tensorflow.ipynb, up to model_5: the 80/20 split in time,
# the naive forecast, mean_absolute_scaled_error and evaluate_preds with Keras's metric
# functions, get_labelled_windows and make_windows, make_train_test_splits,
# create_model_checkpoint (ModelCheckpoint with save_best_only), model_1 (Dense, window 7),
# model_2 (window 30), model_3 (horizon 7, with the reworked evaluate_preds), model_4
# (Lambda expand_dims, causal Conv1D) and model_5 (functional Input, Lambda, LSTM with relu),
# each fit with validation_data, evaluated, reloaded from its checkpoint with load_model,
# evaluated again and asked for predictions by make_preds)
# Adapted: 160 seeded synthetic daily prices instead of the CoinDesk Bitcoin CSV read with
# pandas and with csv (pandas and scikit-learn are not installed where the answers were
# recorded; with 160 prices every training split is one batch of 128, so fit's shuffle
# cannot change a step); sklearn's random train_test_split demo and the plots left out; 5
# epochs instead of 100; fixed weights after each model's first call; the checkpoints
# written inside a temporary folder; the notebook's later models (block rewards, N-BEATS,
# ensembles, future forecasts) left out.
import os
import tempfile
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers
from adapt import fixed_weights


def mean_absolute_scaled_error(y_true, y_pred):
  """
  Implement MASE (assuming no seasonality of data).
  """
  mae = tf.reduce_mean(tf.abs(y_true - y_pred))

  # Find MAE of naive forecast (no seasonality)
  mae_naive_no_season = tf.reduce_mean(tf.abs(y_true[1:] - y_true[:-1])) # our seasonality is 1 day (hence the shifting of 1 day)

  return mae / mae_naive_no_season


def get_labelled_windows(x, horizon=1):
  """
  Creates labels for windowed dataset.

  E.g. if horizon=1 (default)
  Input: [1, 2, 3, 4, 5, 6] -> Output: ([1, 2, 3, 4, 5], [6])
  """
  return x[:, :-horizon], x[:, -horizon:]


def make_windows(x, window_size=7, horizon=1):
  """
  Turns a 1D array into a 2D array of sequential windows of window_size.
  """
  window_step = np.expand_dims(np.arange(window_size+horizon), axis=0)
  window_indexes = window_step + np.expand_dims(np.arange(len(x)-(window_size+horizon-1)), axis=0).T # create 2D array of windows of size window_size
  windowed_array = x[window_indexes]
  windows, labels = get_labelled_windows(windowed_array, horizon=horizon)
  return windows, labels


def make_train_test_splits(windows, labels, test_split=0.2):
  """
  Splits matching pairs of windows and labels into train and test splits.
  """
  split_size = int(len(windows) * (1-test_split)) # this will default to 80% train/20% test
  train_windows = windows[:split_size]
  train_labels = labels[:split_size]
  test_windows = windows[split_size:]
  test_labels = labels[split_size:]
  return train_windows, test_windows, train_labels, test_labels


def create_model_checkpoint(model_name, save_path="model_experiments"):
  return tf.keras.callbacks.ModelCheckpoint(filepath=os.path.join(save_path, model_name), # create filepath to save model
                                            verbose=0, # only output a limited amount of text
                                            save_best_only=True) # save only the best model to file


def make_preds(model, input_data):
  """
  Uses model to make predictions on input_data.

  Parameters
  ----------
  model: trained model 
  input_data: windowed input data (same kind of data model was trained on)

  Returns model predictions on input_data.
  """
  forecast = model.predict(input_data)
  return tf.squeeze(forecast) # return 1D array of predictions


def main():
  home = os.getcwd()
  os.chdir(tempfile.mkdtemp())
  try:
    return run()
  finally:
    os.chdir(home)


def fixed(model, windows, seed):
  model(windows[:1])
  fixed_weights(model.weights, seed=seed, scale=0.05)


def run():
  out = {}
  rng = np.random.default_rng(3)
  prices = (100 + np.cumsum(rng.normal(0.5, 4.0, size=160))).round(2)
  timesteps = np.arange(np.datetime64("2013-10-01"), np.datetime64("2013-10-01") + 160)

  split_size = int(0.8 * len(prices)) # 80% train, 20% test
  X_train, y_train = timesteps[:split_size], prices[:split_size]
  X_test, y_test = timesteps[split_size:], prices[split_size:]

  naive_forecast = y_test[:-1] # Naïve forecast equals every value excluding the last value

  def evaluate_preds(y_true, y_pred):
    # Make sure float32 (for metric calculations)
    y_true = tf.cast(y_true, dtype=tf.float32)
    y_pred = tf.cast(y_pred, dtype=tf.float32)

    # Calculate various metrics
    mae = tf.keras.metrics.mean_absolute_error(y_true, y_pred)
    mse = tf.keras.metrics.mean_squared_error(y_true, y_pred) # puts and emphasis on outliers (all errors get squared)
    rmse = tf.sqrt(mse)
    mape = tf.keras.metrics.mean_absolute_percentage_error(y_true, y_pred)
    mase = mean_absolute_scaled_error(y_true, y_pred)
    
    return {"mae": mae.numpy(),
            "mse": mse.numpy(),
            "rmse": rmse.numpy(),
            "mape": mape.numpy(),
            "mase": mase.numpy()}

  naive_results = evaluate_preds(y_true=y_test[1:],
                                 y_pred=naive_forecast)
  out["naive_results"] = naive_results
  out["mean_test"] = tf.reduce_mean(y_test).numpy()

  HORIZON = 1 # predict 1 step at a time
  WINDOW_SIZE = 7 # use a week worth of timesteps to predict the horizon

  test_window, test_label = get_labelled_windows(tf.expand_dims(tf.range(8)+1, axis=0), horizon=HORIZON)
  print(f"Window: {tf.squeeze(test_window).numpy()} -> Label: {tf.squeeze(test_label).numpy()}")
  out["test_window"] = [test_window, test_label]

  full_windows, full_labels = make_windows(prices, window_size=WINDOW_SIZE, horizon=HORIZON)
  train_windows, test_windows, train_labels, test_labels = make_train_test_splits(full_windows, full_labels)
  out["splits"] = [len(train_windows), len(test_windows), len(train_labels), len(test_labels)]
  out["labels_equal"] = np.array_equal(np.squeeze(train_labels[:-HORIZON-1]), y_train[WINDOW_SIZE:])

  tf.random.set_seed(42)

  # Construct model
  model_1 = tf.keras.Sequential([
    layers.Dense(128, activation="relu"),
    layers.Dense(HORIZON, activation="linear") # linear activation is the same as having no activation                        
  ], name="model_1_dense") # give the model a name so we can save it
  fixed(model_1, train_windows, 1)

  # Compile model
  model_1.compile(loss="mae",
                  optimizer=tf.keras.optimizers.Adam(),
                  metrics=["mae"]) # we don't necessarily need this when the loss function is already MAE

  # Fit model
  out["model_1_fit"] = model_1.fit(x=train_windows, # train windows of 7 timesteps of Bitcoin prices
              y=train_labels, # horizon value of 1 (using the previous 7 timesteps to predict next day)
              epochs=5,
              verbose=1,
              batch_size=128,
              validation_data=(test_windows, test_labels),
              callbacks=[create_model_checkpoint(model_name=model_1.name)]).history # create ModelCheckpoint callback to save best model
  out["model_1_eval"] = model_1.evaluate(test_windows, test_labels)
  model_1 = tf.keras.models.load_model("model_experiments/model_1_dense")
  out["model_1_loaded_eval"] = model_1.evaluate(test_windows, test_labels)
  model_1_preds = make_preds(model_1, test_windows)
  model_1_results = evaluate_preds(y_true=tf.squeeze(test_labels), # reduce to right shape
                                   y_pred=model_1_preds)
  out["model_1_results"] = model_1_results

  HORIZON = 1 # predict one step at a time
  WINDOW_SIZE = 30 # use 30 timesteps in the past

  full_windows, full_labels = make_windows(prices, window_size=WINDOW_SIZE, horizon=HORIZON)
  train_windows, test_windows, train_labels, test_labels = make_train_test_splits(windows=full_windows, labels=full_labels)

  tf.random.set_seed(42)

  # Create model (same model as model 1 but data input will be different)
  model_2 = tf.keras.Sequential([
    layers.Dense(128, activation="relu"),
    layers.Dense(HORIZON) # need to predict horizon number of steps into the future
  ], name="model_2_dense")
  fixed(model_2, train_windows, 2)

  model_2.compile(loss="mae",
                  optimizer=tf.keras.optimizers.Adam())

  out["model_2_fit"] = model_2.fit(train_windows,
              train_labels,
              epochs=5,
              batch_size=128,
              verbose=0,
              validation_data=(test_windows, test_labels),
              callbacks=[create_model_checkpoint(model_name=model_2.name)]).history
  out["model_2_eval"] = model_2.evaluate(test_windows, test_labels)
  model_2 = tf.keras.models.load_model("model_experiments/model_2_dense/")
  out["model_2_loaded_eval"] = model_2.evaluate(test_windows, test_labels)
  model_2_preds = make_preds(model_2,
                             input_data=test_windows)
  out["model_2_results"] = evaluate_preds(y_true=tf.squeeze(test_labels), # remove 1 dimension of test labels
                                   y_pred=model_2_preds)

  HORIZON = 7
  WINDOW_SIZE = 30

  full_windows, full_labels = make_windows(prices, window_size=WINDOW_SIZE, horizon=HORIZON)
  train_windows, test_windows, train_labels, test_labels = make_train_test_splits(windows=full_windows, labels=full_labels, test_split=0.2)

  tf.random.set_seed(42)

  # Create model (same as model_1 except with different data input size)
  model_3 = tf.keras.Sequential([
    layers.Dense(128, activation="relu"),
    layers.Dense(HORIZON)
  ], name="model_3_dense")
  fixed(model_3, train_windows, 3)

  model_3.compile(loss="mae",
                  optimizer=tf.keras.optimizers.Adam())

  out["model_3_fit"] = model_3.fit(train_windows,
              train_labels,
              batch_size=128,
              epochs=5,
              verbose=0,
              validation_data=(test_windows, test_labels),
              callbacks=[create_model_checkpoint(model_name=model_3.name)]).history
  out["model_3_eval"] = model_3.evaluate(test_windows, test_labels)
  model_3 = tf.keras.models.load_model("model_experiments/model_3_dense/")
  out["model_3_loaded_eval"] = model_3.evaluate(test_windows, test_labels)
  model_3_preds = make_preds(model_3,
                             input_data=test_windows)
  out["model_3_preds"] = model_3_preds[:5]

  def evaluate_preds(y_true, y_pred):
    # Make sure float32 (for metric calculations)
    y_true = tf.cast(y_true, dtype=tf.float32)
    y_pred = tf.cast(y_pred, dtype=tf.float32)

    # Calculate various metrics
    mae = tf.keras.metrics.mean_absolute_error(y_true, y_pred)
    mse = tf.keras.metrics.mean_squared_error(y_true, y_pred)
    rmse = tf.sqrt(mse)
    mape = tf.keras.metrics.mean_absolute_percentage_error(y_true, y_pred)
    mase = mean_absolute_scaled_error(y_true, y_pred)

    # Account for different sized metrics (for longer horizons, reduce to single number)
    if mae.ndim > 0: # if mae isn't already a scalar, reduce it to one by aggregating tensors to mean
      mae = tf.reduce_mean(mae)
      mse = tf.reduce_mean(mse)
      rmse = tf.reduce_mean(rmse)
      mape = tf.reduce_mean(mape)
      mase = tf.reduce_mean(mase)

    return {"mae": mae.numpy(),
            "mse": mse.numpy(),
            "rmse": rmse.numpy(),
            "mape": mape.numpy(),
            "mase": mase.numpy()}

  out["model_3_results"] = evaluate_preds(y_true=tf.squeeze(test_labels),
                                   y_pred=model_3_preds)

  HORIZON = 1 # predict next day
  WINDOW_SIZE = 7 # use previous week worth of data

  full_windows, full_labels = make_windows(prices, window_size=WINDOW_SIZE, horizon=HORIZON)
  train_windows, test_windows, train_labels, test_labels = make_train_test_splits(full_windows, full_labels)

  x = tf.constant(train_windows[0])
  expand_dims_layer = layers.Lambda(lambda x: tf.expand_dims(x, axis=1)) # add an extra dimension for timesteps
  print(f"Original shape: {x.shape}") # (WINDOW_SIZE)
  print(f"Expanded shape: {expand_dims_layer(x).shape}") # (WINDOW_SIZE, input_dim) 
  print(f"Original values with expanded shape:\n {expand_dims_layer(x)}")
  out["expanded"] = expand_dims_layer(x)

  tf.random.set_seed(42)

  # Create model
  model_4 = tf.keras.Sequential([
    # Create Lambda layer to reshape inputs, without this layer, the model will error
    layers.Lambda(lambda x: tf.expand_dims(x, axis=1)), # resize the inputs to adjust for window size / Conv1D 3D input requirements
    layers.Conv1D(filters=128, kernel_size=5, padding="causal", activation="relu"),
    layers.Dense(HORIZON)
  ], name="model_4_conv1D")
  fixed(model_4, train_windows, 4)

  # Compile model
  model_4.compile(loss="mae",
                  optimizer=tf.keras.optimizers.Adam())

  # Fit model
  out["model_4_fit"] = model_4.fit(train_windows,
              train_labels,
              batch_size=128, 
              epochs=5,
              verbose=0,
              validation_data=(test_windows, test_labels),
              callbacks=[create_model_checkpoint(model_name=model_4.name)]).history
  model_4.summary()
  model_4 = tf.keras.models.load_model("model_experiments/model_4_conv1D")
  out["model_4_loaded_eval"] = model_4.evaluate(test_windows, test_labels)
  model_4_preds = make_preds(model_4, test_windows)
  out["model_4_results"] = evaluate_preds(y_true=tf.squeeze(test_labels),
                                   y_pred=model_4_preds)

  tf.random.set_seed(42)

  # Let's build an LSTM model with the Functional API
  inputs = layers.Input(shape=(WINDOW_SIZE))
  x = layers.Lambda(lambda x: tf.expand_dims(x, axis=1))(inputs) # expand input dimension to be compatible with LSTM
  x = layers.LSTM(128, activation="relu")(x) # using the tanh loss function results in a massive error
  output = layers.Dense(HORIZON)(x)
  model_5 = tf.keras.Model(inputs=inputs, outputs=output, name="model_5_lstm")
  fixed(model_5, train_windows, 5)

  # Compile model
  model_5.compile(loss="mae",
                  optimizer=tf.keras.optimizers.Adam())

  out["model_5_fit"] = model_5.fit(train_windows,
              train_labels,
              epochs=5,
              verbose=0,
              batch_size=128,
              validation_data=(test_windows, test_labels),
              callbacks=[create_model_checkpoint(model_name=model_5.name)]).history
  model_5 = tf.keras.models.load_model("model_experiments/model_5_lstm/")
  out["model_5_loaded_eval"] = model_5.evaluate(test_windows, test_labels)
  model_5_preds = make_preds(model_5, test_windows)
  out["model_5_results"] = evaluate_preds(y_true=tf.squeeze(test_labels),
                                   y_pred=model_5_preds)
  return out
