# After: https://github.com/mrdbourke/tensorflow-deep-learning
# (01_neural_network_regression_in_tensorflow.ipynb: tensors of house features, the one-Dense
# regressor compiled with tf.keras.losses.mae, SGD and metrics=["mae"] fit on eight points and
# predict([17.0]); the train/test split of X = np.arange(-100, 100, 4) with y = X + 10;
# Dense(1, input_shape=[1]) with summary, fit, predict and evaluate;
# tf.metrics.mean_absolute_error and mean_squared_error with and without squeeze; mae()/mse()
# helpers; model_1, model_2 (two Dense) and model_3 (more epochs) compared; model_2 saved in
# the SavedModel and HDF5 formats and both reloaded with load_model and compared; the
# insurance models of Dense(1)x2 with SGD and Dense(100)/Dense(10)/Dense(1) with Adam, fit
# and evaluate, fit again, and the normalized-features model)
# Adapted: fit's shuffle off (shuffle=False; 40 rows make two batches of 32, and the
# shuffle's order, drawn by TensorFlow's random stream, decides each step); 20 epochs instead
# of 100, 50 instead of 500, 40 instead of 200; fixed weights after each model's first call
# instead of the seeded random initializers; the insurance table (pandas.read_csv of a
# download, get_dummies, sklearn's train_test_split and column transformer: pandas and
# scikit-learn are not installed where the answers were recorded) replaced by 32 seeded
# synthetic rows of the 11 one-hot columns and charges, split 26/6, and a MinMax-scaled copy
# computed with NumPy; the saved model files written into a temporary folder; plots,
# plot_model, the results DataFrame, !ls and files.download left out.
import os
import tempfile
import tensorflow as tf
import numpy as np
from adapt import data, fixed_weights


def build(model, inputs, seed):
  model(inputs)
  fixed_weights(model.weights, seed=seed, scale=0.5)
  return model


def main():
  out = {}
  folder = tempfile.mkdtemp()
  print(tf.__version__) # check the version (should be 2.x+)

  house_info = tf.constant(["bedroom", "bathroom", "garage"])
  house_price = tf.constant([939700])
  print(house_info, house_price)
  out["house_info_shape"] = house_info.shape.as_list()

  X = tf.constant([-7.0, -4.0, -1.0, 2.0, 5.0, 8.0, 11.0, 14.0])
  y = tf.constant([3.0, 6.0, 9.0, 12.0, 15.0, 18.0, 21.0, 24.0])
  input_shape = X[0].shape 
  output_shape = y[0].shape
  out["shapes"] = [input_shape.as_list(), output_shape.as_list()]

  tf.random.set_seed(42)
  model = tf.keras.Sequential([
    tf.keras.layers.Dense(1)
  ])
  build(model, tf.expand_dims(X, axis=-1), 1)
  model.compile(loss=tf.keras.losses.mae, # mae is short for mean absolute error
                optimizer=tf.keras.optimizers.SGD(), # SGD is short for stochastic gradient descent
                metrics=["mae"])
  out["fit_5"] = model.fit(tf.expand_dims(X, axis=-1), y, epochs=5).history
  out["predict_5"] = model.predict([17.0])

  tf.random.set_seed(42)
  model = tf.keras.Sequential([
    tf.keras.layers.Dense(1)
  ])
  build(model, tf.expand_dims(X, axis=-1), 1)
  model.compile(loss=tf.keras.losses.mae,
                optimizer=tf.keras.optimizers.SGD(),
                metrics=["mae"])
  out["fit_20"] = model.fit(tf.expand_dims(X, axis=-1), y, epochs=20).history
  out["predict_20"] = model.predict([17.0]) # the right answer is 27.0 (y = X + 10)

  X = np.arange(-100, 100, 4)
  y = np.arange(-90, 110, 4)
  y = X + 10
  X_train = X[:40] # first 40 examples (80% of data)
  y_train = y[:40]
  X_test = X[40:] # last 10 examples (20% of data)
  y_test = y[40:]

  tf.random.set_seed(42)
  model = tf.keras.Sequential([
    tf.keras.layers.Dense(1, input_shape=[1]) # define the input_shape to our model
  ])
  fixed_weights(model.weights, seed=2, scale=0.5)
  model.compile(loss=tf.keras.losses.mae,
                optimizer=tf.keras.optimizers.SGD(),
                metrics=["mae"])
  model.summary()
  model.fit(X_train, y_train, epochs=20, verbose=0, shuffle=False) # verbose controls how much gets output
  y_preds = model.predict(X_test)
  out["y_preds"] = y_preds
  out["evaluate"] = model.evaluate(X_test, y_test)
  mae = tf.metrics.mean_absolute_error(y_true=y_test, 
                                       y_pred=y_preds)
  out["mae_unsqueezed"] = mae
  mae = tf.metrics.mean_absolute_error(y_true=y_test, 
                                       y_pred=y_preds.squeeze()) # use squeeze() to make same shape
  mse = tf.metrics.mean_squared_error(y_true=y_test,
                                      y_pred=y_preds.squeeze())
  out["mae_mse"] = [mae, mse, tf.reduce_mean(tf.abs(y_test-y_preds.squeeze()))]

  def mae(y_test, y_pred):
    """
    Calculuates mean absolute error between y_test and y_preds.
    """
    return tf.metrics.mean_absolute_error(y_test,
                                          y_pred)
    
  def mse(y_test, y_pred):
    """
    Calculates mean squared error between y_test and y_preds.
    """
    return tf.metrics.mean_squared_error(y_test,
                                         y_pred)

  tf.random.set_seed(42)
  model_1 = tf.keras.Sequential([
    tf.keras.layers.Dense(1)
  ])
  build(model_1, tf.expand_dims(X_train, axis=-1), 3)
  model_1.compile(loss=tf.keras.losses.mae,
                  optimizer=tf.keras.optimizers.SGD(),
                  metrics=['mae'])
  model_1.fit(tf.expand_dims(X_train, axis=-1), y_train, epochs=20, shuffle=False)
  y_preds_1 = model_1.predict(X_test)
  mae_1 = mae(y_test, y_preds_1.squeeze()).numpy()
  mse_1 = mse(y_test, y_preds_1.squeeze()).numpy()

  tf.random.set_seed(42)
  model_2 = tf.keras.Sequential([
    tf.keras.layers.Dense(1),
    tf.keras.layers.Dense(1) # add a second layer
  ])
  build(model_2, tf.expand_dims(X_train, axis=-1), 4)
  model_2.compile(loss=tf.keras.losses.mae,
                  optimizer=tf.keras.optimizers.SGD(),
                  metrics=['mae'])
  model_2.fit(tf.expand_dims(X_train, axis=-1), y_train, epochs=20, verbose=0, shuffle=False) # set verbose to 0 for less output
  y_preds_2 = model_2.predict(X_test)
  mae_2 = mae(y_test, y_preds_2.squeeze()).numpy()
  mse_2 = mse(y_test, y_preds_2.squeeze()).numpy()

  tf.random.set_seed(42)
  model_3 = tf.keras.Sequential([
    tf.keras.layers.Dense(1),
    tf.keras.layers.Dense(1)
  ])
  build(model_3, tf.expand_dims(X_train, axis=-1), 4)
  model_3.compile(loss=tf.keras.losses.mae,
                  optimizer=tf.keras.optimizers.SGD(),
                  metrics=['mae'])
  model_3.fit(tf.expand_dims(X_train, axis=-1), y_train, epochs=50, verbose=0, shuffle=False) # set verbose to 0 for less output
  y_preds_3 = model_3.predict(X_test)
  mae_3 = mae(y_test, y_preds_3.squeeze()).numpy()
  mse_3 = mse(y_test, y_preds_3.squeeze()).numpy()
  model_results = [["model_1", mae_1, mse_1],
                   ["model_2", mae_2, mse_2],
                   ["model_3", mae_3, mae_3]]
  out["model_results"] = model_results

  model_2.save(os.path.join(folder, 'best_model_SavedModel_format'))
  model_2.save(os.path.join(folder, "best_model_HDF5_format.h5")) # note the addition of '.h5' on the end
  loaded_saved_model = tf.keras.models.load_model(os.path.join(folder, "best_model_SavedModel_format"))
  loaded_saved_model.summary()
  model_2_preds = model_2.predict(X_test)
  saved_model_preds = loaded_saved_model.predict(X_test)
  out["saved_same"] = mae(y_test, saved_model_preds.squeeze()).numpy() == mae(y_test, model_2_preds.squeeze()).numpy()
  loaded_h5_model = tf.keras.models.load_model(os.path.join(folder, "best_model_HDF5_format.h5"))
  loaded_h5_model.summary()
  h5_model_preds = loaded_h5_model.predict(X_test)
  out["h5_same"] = mae(y_test, h5_model_preds.squeeze()).numpy() == mae(y_test, model_2_preds.squeeze()).numpy()

  # the insurance table after get_dummies: age, bmi, children and 8 one-hot columns
  rng = np.random.default_rng(5)
  age = rng.integers(18, 65, size=32).astype(np.float64)
  bmi = rng.uniform(16, 50, size=32).round(2)
  children = rng.integers(0, 5, size=32).astype(np.float64)
  onehot = np.concatenate([np.eye(2)[rng.integers(0, 2, 32)], np.eye(2)[rng.integers(0, 2, 32)],
                           np.eye(4)[rng.integers(0, 4, 32)]], axis=1)
  X = np.concatenate([np.stack([age, bmi, children], axis=1), onehot], axis=1)
  y = (250 * age + 300 * bmi + 400 * children + 20000 * onehot[:, 3]
       + rng.normal(0, 2000, size=32)).round(2)
  X_train, X_test, y_train, y_test = X[:26], X[26:], y[:26], y[26:]

  tf.random.set_seed(42)
  insurance_model = tf.keras.Sequential([
    tf.keras.layers.Dense(1),
    tf.keras.layers.Dense(1)
  ])
  build(insurance_model, X_train, 6)
  insurance_model.compile(loss=tf.keras.losses.mae,
                          optimizer=tf.keras.optimizers.SGD(),
                          metrics=['mae'])
  out["insurance_1"] = insurance_model.fit(X_train, y_train, epochs=20).history
  out["insurance_1_eval"] = insurance_model.evaluate(X_test, y_test)

  tf.random.set_seed(42)
  insurance_model_2 = tf.keras.Sequential([
    tf.keras.layers.Dense(100), # 100 units
    tf.keras.layers.Dense(10), # 10 units
    tf.keras.layers.Dense(1) # 1 unit (important for output layer)
  ])
  build(insurance_model_2, X_train, 7)
  insurance_model_2.compile(loss=tf.keras.losses.mae,
                            optimizer=tf.keras.optimizers.Adam(), # Adam works but SGD doesn't 
                            metrics=['mae'])
  history = insurance_model_2.fit(X_train, y_train, epochs=20, verbose=0)
  out["insurance_2"] = history.history
  out["insurance_2_eval"] = insurance_model_2.evaluate(X_test, y_test)
  history_2 = insurance_model_2.fit(X_train, y_train, epochs=20, verbose=0)
  insurance_model_2_loss, insurance_model_2_mae = insurance_model_2.evaluate(X_test, y_test)
  out["insurance_2_again"] = [history_2.history, insurance_model_2_loss, insurance_model_2_mae]

  # MinMaxScaler on age, bmi, children (fit on the training rows), one-hot columns as they are
  low, high = X_train[:, :3].min(axis=0), X_train[:, :3].max(axis=0)
  X_train_normal = np.concatenate([(X_train[:, :3] - low) / (high - low), X_train[:, 3:]], axis=1)
  X_test_normal = np.concatenate([(X_test[:, :3] - low) / (high - low), X_test[:, 3:]], axis=1)

  tf.random.set_seed(42)
  insurance_model_3 = tf.keras.Sequential([
    tf.keras.layers.Dense(100),
    tf.keras.layers.Dense(10),
    tf.keras.layers.Dense(1)
  ])
  build(insurance_model_3, X_train_normal, 8)
  insurance_model_3.compile(loss=tf.keras.losses.mae,
                            optimizer=tf.keras.optimizers.Adam(),
                            metrics=['mae'])
  insurance_model_3.fit(X_train_normal, y_train, epochs=40, verbose=0) 
  insurance_model_3_loss, insurance_model_3_mae = insurance_model_3.evaluate(X_test_normal, y_test)
  out["insurance_3"] = [insurance_model_2_mae, insurance_model_3_mae]
  return out
