# After: https://www.tensorflow.org/guide/migrate/fault_tolerance (site/en/guide/migrate/fault_tolerance.ipynb in tensorflow/docs)
# Adapted: the guide's TensorFlow 2 cells placed in main(); its TensorFlow 1 cells (an
# Estimator with a SessionRunHook) left out, as tf.compat.v1.estimator is gone from
# TensorFlow 2.21; 1600 training and 100 test images of MNIST's shape and dtype (seeded
# NumPy uint8 28x28, labels 0-9) instead of tf.keras.datasets.mnist; the Dropout layer left
# out and each created model's weights fixed from seeded NumPy (adapt.fixed_weights, in
# create_model) instead of the random initializers; shuffle=False in fit (the order of
# batches decides each step); 5 epochs of 10 steps instead of 10 of 100, the step
# interruption at step 14 instead of 140 and backups every 3 steps instead of 30; main()
# returns the completed fits' histories, the custom loop's losses and the final weights.
import tensorflow as tf
import numpy as np
import tempfile
import time
from adapt import fixed_weights


def main():
  out = {"loop_losses": []}
  rng = np.random.default_rng(0)
  x_train = rng.integers(0, 256, size=(1600, 28, 28)).astype(np.uint8)
  y_train = rng.integers(0, 10, size=1600).astype(np.uint8)
  x_test = rng.integers(0, 256, size=(100, 28, 28)).astype(np.uint8)
  y_test = rng.integers(0, 10, size=100).astype(np.uint8)
  x_train, x_test = x_train / 255.0, x_test / 255.0

  class InterruptAtEpoch(tf.keras.callbacks.Callback):
    # A callback for artificially interrupting training.
    def __init__(self, interrupting_epoch=3):
      self.interrupting_epoch = interrupting_epoch

    def on_epoch_end(self, epoch, log=None):
      if epoch == self.interrupting_epoch:
        raise RuntimeError('Interruption')

  def create_model():
    model = tf.keras.models.Sequential([
      tf.keras.layers.Flatten(input_shape=(28, 28)),
      tf.keras.layers.Dense(512, activation='relu'),
      tf.keras.layers.Dense(10)
    ])
    fixed_weights(model.weights, seed=1, scale=0.05)
    return model
  loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
  model = create_model()
  model.compile(optimizer='adam',
                loss=loss,
                metrics=['accuracy'])
  log_dir = tempfile.mkdtemp()
  backup_restore_callback = tf.keras.callbacks.BackupAndRestore(
      backup_dir = log_dir)

  try:
    model.fit(x=x_train,
              y=y_train,
              epochs=5,
              steps_per_epoch=10,
              shuffle=False,
              validation_data=(x_test, y_test),
              callbacks=[backup_restore_callback, InterruptAtEpoch()])
  except Exception as e:
    print(f'{type(e).__name__}:{e}')

  model = create_model()
  model.compile(optimizer='adam',
                loss=loss,
                metrics=['accuracy'],
                steps_per_execution=10)
  history = model.fit(x=x_train,
              y=y_train,
              epochs=5,
              steps_per_epoch=10,
              shuffle=False,
              validation_data=(x_test, y_test),
              callbacks=[backup_restore_callback])
  out["resumed_at_epoch"] = history.history

  class InterruptAtStep(tf.keras.callbacks.Callback):
    # A callback for artificially interrupting training.
    def __init__(self, interrupting_step=14):
      self.total_step_count = 0
      self.interrupting_step = interrupting_step

    def on_batch_begin(self, batch, logs=None):
      self.total_step_count += 1

    def on_batch_end(self, batch, logs=None):
      if self.total_step_count == self.interrupting_step:
        print("\nInterrupting at step count", self.total_step_count)
        raise RuntimeError('Interruption')

  log_dir_2 = tempfile.mkdtemp()

  backup_restore_callback = tf.keras.callbacks.BackupAndRestore(
      backup_dir = log_dir_2, save_freq=3
  )
  model = create_model()
  model.compile(optimizer='adam',
                loss=loss,
                metrics=['accuracy'])
  try:
    model.fit(x=x_train,
              y=y_train,
              epochs=5,
              steps_per_epoch=10,
              shuffle=False,
              validation_data=(x_test, y_test),
              callbacks=[backup_restore_callback, InterruptAtStep()])
  except Exception as e:
    print(f'{type(e).__name__}:{e}')

  model = create_model()
  model.compile(optimizer='adam',
                loss=loss,
                metrics=['accuracy'],
                steps_per_execution=10)
  history = model.fit(x=x_train,
              y=y_train,
              epochs=5,
              steps_per_epoch=10,
              shuffle=False,
              validation_data=(x_test, y_test),
              callbacks=[backup_restore_callback])
  out["resumed_at_step"] = history.history

  model = create_model()
  optimizer = tf.keras.optimizers.SGD(learning_rate=0.001)
  loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
  log_dir = tempfile.mkdtemp()
  epochs = 5
  steps_per_epoch = 5

  checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
  checkpoint_manager = tf.train.CheckpointManager(
              checkpoint, log_dir, max_to_keep=2)

  for epoch in range(epochs):
    if epoch > 0:
        tf.train.load_checkpoint(save_path)
    print(f"\nStart of epoch {epoch}")

    for step in range(steps_per_epoch):
      with tf.GradientTape() as tape:

        logits = model(x_train, training=True)
        loss_value = loss_fn(y_train, logits)

        grads = tape.gradient(loss_value, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))

      save_path = checkpoint_manager.save()
      print(f"Checkpoint saved to {save_path}")
      print(f"Training loss at step {step}: {loss_value}")
      out["loop_losses"].append(loss_value)
  out["final_kernel"] = model.layers[-1].kernel
  return out
