# After: https://github.com/mrdbourke/tensorflow-deep-learning
# (02_neural_network_classification_in_tensorflow.ipynb: the circles data; model_1 to model_3
# (Dense stacks with BinaryCrossentropy, SGD then Adam) fit and evaluated; model_3 refit on a
# regression line, then rebuilt with mae; model_4 to model_7 with linear, relu and sigmoid
# activations and tf.keras.losses.binary_crossentropy; the sigmoid/relu/linear functions on
# tf.range; the train/test split, model_8 fit and evaluate; model_9 with a
# LearningRateScheduler(lambda epoch: 1e-4 * 10**(epoch/20)); model_10 with Adam(0.02),
# evaluate, predict and tf.round; then Fashion-MNIST: model_11 on raw pixels and model_12 on
# pixels / 255.0 with validation_data, and model_13 with a LearningRateScheduler)
# Adapted: 64 circles drawn by seeded NumPy as sklearn's make_circles(noise=0.03) draws them
# (scikit-learn is not installed where the answers were recorded), with the 80/20 split
# X[:51]/X[51:] instead of X[:800]/X[800:] for 64 rows; 32 seeded synthetic 28x28 uint8
# Fashion-MNIST images and labels to train and to test instead of the download (one batch);
# fit's shuffle off for the circles (two batches of 32: the shuffle's order, drawn by
# TensorFlow's random stream, decides each step); epochs cut to 10 or fewer (5 of the
# notebook's 5 and 10 of its 100 and 200); fixed weights after each model's first call
# instead of the seeded random initializers; the cell the notebook shows failing (model_3,
# built for two features, refit on one) answered by its exception's class; the pandas tables, plots,
# plot_decision_boundary, sklearn's confusion_matrix and the notebook's part after model_13
# (more of the same models, the confusion matrix plot, and the weights inspection) left out.
import tensorflow as tf
import numpy as np
from adapt import data, fixed_weights, labels


def make_circles(n_samples, noise, rng):
  """sklearn.datasets.make_circles(factor=0.8, shuffle=True) in NumPy."""
  n_out, n_in = n_samples // 2, n_samples - n_samples // 2
  lin_out = np.linspace(0, 2 * np.pi, n_out, endpoint=False)
  lin_in = np.linspace(0, 2 * np.pi, n_in, endpoint=False)
  X = np.vstack([np.append(np.cos(lin_out), np.cos(lin_in) * 0.8),
                 np.append(np.sin(lin_out), np.sin(lin_in) * 0.8)]).T
  y = np.hstack([np.zeros(n_out, dtype=np.int64), np.ones(n_in, dtype=np.int64)])
  order = rng.permutation(n_samples)
  X, y = X[order], y[order]
  return X + rng.normal(scale=noise, size=X.shape), y


def build(model, inputs, seed, scale=0.5):
  model(inputs[:1])
  fixed_weights(model.weights, seed=seed, scale=scale)
  return model


def main():
  out = {}
  print(tf.__version__)
  n_samples = 64
  X, y = make_circles(n_samples, noise=0.03, rng=np.random.default_rng(42))
  print(X.shape, y.shape)

  tf.random.set_seed(42)
  model_1 = tf.keras.Sequential([
    tf.keras.layers.Dense(1)
  ])
  build(model_1, X, 1)
  model_1.compile(loss=tf.keras.losses.BinaryCrossentropy(), # binary since we are working with 2 clases (0 & 1)
                  optimizer=tf.keras.optimizers.SGD(),
                  metrics=['accuracy'])
  out["model_1"] = model_1.fit(X, y, epochs=5, shuffle=False).history
  model_1.fit(X, y, epochs=10, verbose=0, shuffle=False) # set verbose=0 to remove training updates
  out["model_1_eval"] = model_1.evaluate(X, y)

  tf.random.set_seed(42)
  model_2 = tf.keras.Sequential([
    tf.keras.layers.Dense(1), # add an extra layer
    tf.keras.layers.Dense(1)
  ])
  build(model_2, X, 2)
  model_2.compile(loss=tf.keras.losses.BinaryCrossentropy(),
                  optimizer=tf.keras.optimizers.SGD(),
                  metrics=['accuracy'])
  model_2.fit(X, y, epochs=10, verbose=0, shuffle=False) # set verbose=0 to make the output print less
  out["model_2_eval"] = model_2.evaluate(X, y)

  tf.random.set_seed(42)
  model_3 = tf.keras.Sequential([
    tf.keras.layers.Dense(100), # add 100 dense neurons
    tf.keras.layers.Dense(10), # add another layer with 10 neurons
    tf.keras.layers.Dense(1)
  ])
  build(model_3, X, 3, 0.2)
  model_3.compile(loss=tf.keras.losses.BinaryCrossentropy(),
                  optimizer=tf.keras.optimizers.Adam(), # use Adam instead of SGD
                  metrics=['accuracy'])
  out["model_3"] = model_3.fit(X, y, epochs=10, verbose=1, shuffle=False).history # fit for 100 passes of the data

  tf.random.set_seed(42)
  X_regression = np.arange(0, 1000, 5)
  y_regression = np.arange(100, 1100, 5)
  X_reg_train = X_regression[:150]
  X_reg_test = X_regression[150:]
  y_reg_train = y_regression[:150]
  y_reg_test = y_regression[150:]
  try:
    model_3.fit(tf.expand_dims(X_reg_train, axis=-1),
                y_reg_train,
                epochs=10, shuffle=False)
    out["refit_error"] = None
  except ValueError as e:
    # the notebook shows this cell's error: the model was built for 2 features
    out["refit_error"] = type(e).__name__

  tf.random.set_seed(42)
  model_3 = tf.keras.Sequential([
    tf.keras.layers.Dense(100),
    tf.keras.layers.Dense(10),
    tf.keras.layers.Dense(1)
  ])
  build(model_3, tf.expand_dims(X_reg_train, axis=-1), 4, 0.2)
  model_3.compile(loss=tf.keras.losses.mae, # change the loss function to be regression-specific
                  optimizer=tf.keras.optimizers.Adam(),
                  metrics=['mae']) # change the metric to be regression-specific
  out["model_3_reg"] = model_3.fit(tf.expand_dims(X_reg_train, axis=-1),
              y_reg_train,
              epochs=10, shuffle=False).history
  y_reg_preds = model_3.predict(X_reg_test)
  out["y_reg_preds"] = y_reg_preds[:5]

  tf.random.set_seed(42)
  model_4 = tf.keras.Sequential([
    tf.keras.layers.Dense(1, activation=tf.keras.activations.linear), # 1 hidden layer with linear activation
    tf.keras.layers.Dense(1) # output layer
  ])
  build(model_4, X, 5)
  model_4.compile(loss=tf.keras.losses.binary_crossentropy,
                  optimizer=tf.keras.optimizers.Adam(learning_rate=0.001), # note: "lr" used to be what was used, now "learning_rate" is favoured
                  metrics=["accuracy"])
  out["model_4"] = model_4.fit(X, y, epochs=10, shuffle=False).history

  tf.random.set_seed(42)
  model_5 = tf.keras.Sequential([
    tf.keras.layers.Dense(1, activation=tf.keras.activations.relu), # can also do activation='relu'
    tf.keras.layers.Dense(1) # output layer
  ])
  build(model_5, X, 6)
  model_5.compile(loss=tf.keras.losses.binary_crossentropy,
                optimizer=tf.keras.optimizers.Adam(),
                metrics=["accuracy"])
  out["model_5"] = model_5.fit(X, y, epochs=10, shuffle=False).history

  tf.random.set_seed(42)
  model_6 = tf.keras.Sequential([
    tf.keras.layers.Dense(4, activation=tf.keras.activations.relu), # hidden layer 1, 4 neurons, ReLU activation
    tf.keras.layers.Dense(4, activation=tf.keras.activations.relu), # hidden layer 2, 4 neurons, ReLU activation
    tf.keras.layers.Dense(1) # ouput layer
  ])
  build(model_6, X, 7)
  model_6.compile(loss=tf.keras.losses.binary_crossentropy,
                  optimizer=tf.keras.optimizers.Adam(learning_rate=0.001), # Adam's default learning rate is 0.001
                  metrics=['accuracy'])
  out["model_6"] = model_6.fit(X, y, epochs=10, shuffle=False).history
  out["model_6_eval"] = model_6.evaluate(X, y)

  tf.random.set_seed(42)
  model_7 = tf.keras.Sequential([
    tf.keras.layers.Dense(4, activation=tf.keras.activations.relu), # hidden layer 1, ReLU activation
    tf.keras.layers.Dense(4, activation=tf.keras.activations.relu), # hidden layer 2, ReLU activation
    tf.keras.layers.Dense(1, activation=tf.keras.activations.sigmoid) # ouput layer, sigmoid activation
  ])
  build(model_7, X, 8)
  model_7.compile(loss=tf.keras.losses.binary_crossentropy,
                  optimizer=tf.keras.optimizers.Adam(),
                  metrics=['accuracy'])
  model_7.fit(X, y, epochs=10, verbose=0, shuffle=False)
  out["model_7_eval"] = model_7.evaluate(X, y)

  A = tf.cast(tf.range(-10, 10), tf.float32)
  def sigmoid(x):
    return 1 / (1 + tf.exp(-x))
  def relu(x):
    return tf.maximum(0, x)
  out["activations"] = [sigmoid(A), relu(A), tf.keras.activations.linear(A),
                        A == tf.keras.activations.linear(A)]

  X_train, y_train = X[:51], y[:51] # 80% of the data for the training set
  X_test, y_test = X[51:], y[51:] # 20% of the data for the test set

  tf.random.set_seed(42)
  model_8 = tf.keras.Sequential([
    tf.keras.layers.Dense(4, activation="relu"), # hidden layer 1, using "relu" for activation (same as tf.keras.activations.relu)
    tf.keras.layers.Dense(4, activation="relu"),
    tf.keras.layers.Dense(1, activation="sigmoid") # output layer, using 'sigmoid' for the output
  ])
  build(model_8, X, 9)
  model_8.compile(loss=tf.keras.losses.binary_crossentropy,
                  optimizer=tf.keras.optimizers.Adam(learning_rate=0.01), # increase learning rate from 0.001 to 0.01 for faster learning
                  metrics=['accuracy'])
  history = model_8.fit(X_train, y_train, epochs=5, shuffle=False)
  loss, accuracy = model_8.evaluate(X_test, y_test)
  print(f"Model loss on the test set: {loss}")
  print(f"Model accuracy on the test set: {100*accuracy:.2f}%")
  out["model_8"] = [history.history, loss, accuracy]

  tf.random.set_seed(42)
  model_9 = tf.keras.Sequential([
    tf.keras.layers.Dense(4, activation="relu"),
    tf.keras.layers.Dense(4, activation="relu"),
    tf.keras.layers.Dense(1, activation="sigmoid")
  ])
  build(model_9, X, 10)
  model_9.compile(loss="binary_crossentropy", # we can use strings here too
                optimizer="Adam", # same as tf.keras.optimizers.Adam() with default settings
                metrics=["accuracy"])
  lr_scheduler = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 1e-4 * 10**(epoch/20)) # traverse a set of learning rate values starting from 1e-4, increasing by 10**(epoch/20) every epoch
  history = model_9.fit(X_train,
                        y_train,
                        epochs=10,
                        callbacks=[lr_scheduler], shuffle=False)
  out["model_9"] = history.history

  tf.random.set_seed(42)
  model_10 = tf.keras.Sequential([
    tf.keras.layers.Dense(4, activation="relu"),
    tf.keras.layers.Dense(4, activation="relu"),
    tf.keras.layers.Dense(1, activation="sigmoid")
  ])
  build(model_10, X, 11)
  model_10.compile(loss="binary_crossentropy",
                  optimizer=tf.keras.optimizers.Adam(learning_rate=0.02), # to adjust the learning rate, you need to use tf.keras.optimizers.Adam (not "adam")
                  metrics=["accuracy"])
  history = model_10.fit(X_train, y_train, epochs=10, shuffle=False)
  out["model_10"] = history.history
  loss, accuracy = model_10.evaluate(X_test, y_test)
  print(f"Model loss on test set: {loss}")
  print(f"Model accuracy on test set: {(accuracy*100):.2f}%")
  y_preds = model_10.predict(X_test)
  out["model_10_preds"] = [y_preds[:10], tf.round(y_preds)[:10]]

  train_data = data(1, 32, 28, 28, low=0, high=255).round().astype(np.uint8)
  train_labels = labels(2, 32, 10).astype(np.uint8)
  test_data = data(3, 32, 28, 28, low=0, high=255).round().astype(np.uint8)
  test_labels = labels(4, 32, 10).astype(np.uint8)
  print(f"Training sample:\n{train_data[0]}\n")
  print(f"Training label: {train_labels[0]}")
  class_names = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat',
                 'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle boot']

  tf.random.set_seed(42)
  model_11 = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=(28, 28)), # input layer (we had to reshape 28x28 to 784, the Flatten layer does this for us)
    tf.keras.layers.Dense(4, activation="relu"),
    tf.keras.layers.Dense(4, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax") # output shape is 10, activation is softmax
  ])
  fixed_weights(model_11.weights, seed=12, scale=0.05)
  model_11.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(), # different loss function for multiclass classifcation
                   optimizer=tf.keras.optimizers.Adam(),
                   metrics=["accuracy"])
  non_norm_history = model_11.fit(train_data,
                                  train_labels,
                                  epochs=5,
                                  validation_data=(test_data, test_labels)) # see how the model performs on the test set during training
  model_11.summary()
  out["model_11"] = non_norm_history.history

  train_data = train_data / 255.0
  test_data = test_data / 255.0
  out["data_range"] = [train_data.min(), train_data.max()]

  tf.random.set_seed(42)
  model_12 = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=(28, 28)), # input layer (we had to reshape 28x28 to 784)
    tf.keras.layers.Dense(4, activation="relu"),
    tf.keras.layers.Dense(4, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax") # output shape is 10, activation is softmax
  ])
  fixed_weights(model_12.weights, seed=12, scale=0.3)
  model_12.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(),
                   optimizer=tf.keras.optimizers.Adam(),
                   metrics=["accuracy"])
  norm_history = model_12.fit(train_data,
                              train_labels,
                              epochs=5,
                              validation_data=(test_data, test_labels))
  out["model_12"] = norm_history.history

  tf.random.set_seed(42)
  model_13 = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=(28, 28)), # input layer (we had to reshape 28x28 to 784)
    tf.keras.layers.Dense(4, activation="relu"),
    tf.keras.layers.Dense(4, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax") # output shape is 10, activation is softmax
  ])
  fixed_weights(model_13.weights, seed=13, scale=0.3)
  model_13.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(),
                   optimizer=tf.keras.optimizers.Adam(),
                   metrics=["accuracy"])
  lr_scheduler = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 1e-3 * 10**(epoch/20))
  find_lr_history = model_13.fit(train_data,
                                 train_labels,
                                 epochs=8, # model already doing pretty good with current LR, probably don't need 100 epochs
                                 validation_data=(test_data, test_labels),
                                 callbacks=[lr_scheduler])
  out["model_13"] = find_lr_history.history
  return out
