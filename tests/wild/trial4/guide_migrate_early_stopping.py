# After: https://www.tensorflow.org/guide/migrate/early_stopping (the TensorFlow 2 parts:
# normalize_img mapped over the datasets, the Keras Sequential trained by fit with
# EarlyStopping(monitor='loss', patience=3) and validation_data, the LimitTrainingTime
# callback setting model.stop_training, and the custom loop with @tf.function train_step and
# test_step, SparseCategoricalAccuracy and SparseCategoricalCrossentropy metrics with
# reset_states, and early stopping on val_loss by hand)
# Adapted: 256 seeded synthetic 28x28 uint8 images and labels to train and 128 to test
# instead of tfds's MNIST (batched by 128 in order, as the guide's pipeline does after
# loading), 6 epochs instead of 100 (the 30-second limit is not reached); fixed weights;
# the TensorFlow 1 Estimator part (tf.compat.v1.estimator, gone from TensorFlow 2.21) left
# out.
import time
import numpy as np
import tensorflow as tf
from adapt import data, fixed_weights, labels


def normalize_img(image, label):
  return tf.cast(image, tf.float32) / 255., label


class LimitTrainingTime(tf.keras.callbacks.Callback):
  def __init__(self, max_time_s):
    super().__init__()
    self.max_time_s = max_time_s
    self.start_time = None

  def on_train_begin(self, logs):
    self.start_time = time.time()

  def on_train_batch_end(self, batch, logs):
    now = time.time()
    if now - self.start_time >  self.max_time_s:
      self.model.stop_training = True


def main():
  out = {}
  train_images = data(1, 256, 28, 28, low=0, high=255).round().astype(np.uint8)
  train_labels = labels(2, 256, 10).astype(np.int64)
  test_images = data(3, 128, 28, 28, low=0, high=255).round().astype(np.uint8)
  test_labels = labels(4, 128, 10).astype(np.int64)
  ds_train = tf.data.Dataset.from_tensor_slices((train_images, train_labels))
  ds_test = tf.data.Dataset.from_tensor_slices((test_images, test_labels))

  ds_train = ds_train.map(
      normalize_img, num_parallel_calls=tf.data.AUTOTUNE)
  ds_train = ds_train.batch(128)

  ds_test = ds_test.map(
      normalize_img, num_parallel_calls=tf.data.AUTOTUNE)
  ds_test = ds_test.batch(128)

  model = tf.keras.models.Sequential([
    tf.keras.layers.Flatten(input_shape=(28, 28)),
    tf.keras.layers.Dense(128, activation='relu'),
    tf.keras.layers.Dense(10)
  ])
  fixed_weights(model.weights, seed=5, scale=0.05)

  model.compile(
      optimizer=tf.keras.optimizers.Adam(0.005),
      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
      metrics=[tf.keras.metrics.SparseCategoricalAccuracy()],
  )
  callback = tf.keras.callbacks.EarlyStopping(monitor='loss', patience=3)

  history = model.fit(
      ds_train,
      epochs=6,
      validation_data=ds_test,
      callbacks=[callback]
  )
  out["early_stopping"] = history.history
  out["epochs_run"] = len(history.history['loss'])

  # Limit the training time to 30 seconds.
  callback = LimitTrainingTime(30)
  history = model.fit(
      ds_train,
      epochs=6,
      validation_data=ds_test,
      callbacks=[callback]
  )
  out["time_limited"] = history.history

  model = tf.keras.models.Sequential([
    tf.keras.layers.Flatten(input_shape=(28, 28)),
    tf.keras.layers.Dense(128, activation='relu'),
    tf.keras.layers.Dense(10)
  ])
  fixed_weights(model.weights, seed=6, scale=0.05)

  optimizer = tf.keras.optimizers.Adam(0.005)
  loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

  train_acc_metric = tf.keras.metrics.SparseCategoricalAccuracy()
  train_loss_metric = tf.keras.metrics.SparseCategoricalCrossentropy()
  val_acc_metric = tf.keras.metrics.SparseCategoricalAccuracy()
  val_loss_metric = tf.keras.metrics.SparseCategoricalCrossentropy()

  @tf.function
  def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss_value = loss_fn(y, logits)
    grads = tape.gradient(loss_value, model.trainable_weights)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    train_acc_metric.update_state(y, logits)
    train_loss_metric.update_state(y, logits)
    return loss_value

  @tf.function
  def test_step(x, y):
    logits = model(x, training=False)
    val_acc_metric.update_state(y, logits)
    val_loss_metric.update_state(y, logits)

  epochs = 6
  patience = 5
  wait = 0
  best = float('inf')
  log = []

  for epoch in range(epochs):
      print("\nStart of epoch %d" % (epoch,))
      start_time = time.time()

      for step, (x_batch_train, y_batch_train) in enumerate(ds_train):
        loss_value = train_step(x_batch_train, y_batch_train)
        if step % 200 == 0:
          print("Training loss at step %d: %.4f" % (step, loss_value.numpy()))
          print("Seen so far: %s samples" % ((step + 1) * 128))
      train_acc = train_acc_metric.result()
      train_loss = train_loss_metric.result()
      train_acc_metric.reset_states()
      train_loss_metric.reset_states()
      print("Training acc over epoch: %.4f" % (train_acc.numpy()))

      for x_batch_val, y_batch_val in ds_test:
        test_step(x_batch_val, y_batch_val)
      val_acc = val_acc_metric.result()
      val_loss = val_loss_metric.result()
      val_acc_metric.reset_states()
      val_loss_metric.reset_states()
      print("Validation acc: %.4f" % (float(val_acc),))
      print("Time taken: %.2fs" % (time.time() - start_time))
      log.append([loss_value, train_acc, train_loss, val_acc, val_loss])

      # The early stopping strategy: stop the training if `val_loss` does not
      # decrease over a certain number of epochs.
      wait += 1
      if val_loss < best:
        best = val_loss
        wait = 0
      if wait >= patience:
        break
  out["custom_loop"] = log
  out["best"] = best
  return out
