# After: https://www.tensorflow.org/guide/migrate/evaluator (site/en/guide/migrate/evaluator.ipynb in tensorflow/docs)
# Adapted: the guide's TensorFlow 2 cells placed in main(); its TensorFlow 1 cells (an
# Estimator's train_and_evaluate) left out, as tf.compat.v1.estimator is gone from
# TensorFlow 2.21; 320 training and 128 test images of MNIST's shape and dtype (seeded
# NumPy uint8 28x28, labels 0-9) instead of tf.keras.datasets.mnist; the Dropout layer left
# out and the model's weights fixed from seeded NumPy (adapt.fixed_weights) instead of the
# random initializers; shuffle=False in fit (the order of batches decides each step);
# main() returns the fit history and the weights after SidecarEvaluator restored the
# checkpoint into the model.
import tensorflow as tf
import numpy as np
import tempfile
import time
import os
from adapt import fixed_weights


def main():
  rng = np.random.default_rng(0)
  x_train = rng.integers(0, 256, size=(320, 28, 28)).astype(np.uint8)
  y_train = rng.integers(0, 10, size=320).astype(np.uint8)
  x_test = rng.integers(0, 256, size=(128, 28, 28)).astype(np.uint8)
  y_test = rng.integers(0, 10, size=128).astype(np.uint8)
  x_train, x_test = x_train / 255.0, x_test / 255.0

  def create_model():
    return tf.keras.models.Sequential([
      tf.keras.layers.Flatten(input_shape=(28, 28)),
      tf.keras.layers.Dense(512, activation='relu'),
      tf.keras.layers.Dense(10)
    ])

  loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

  model = create_model()
  fixed_weights(model.weights, seed=1, scale=0.05)
  model.compile(optimizer='adam',
                loss=loss,
                metrics=['accuracy'],
                steps_per_execution=10,
                run_eagerly=True)

  log_dir = tempfile.mkdtemp()
  model_checkpoint = tf.keras.callbacks.ModelCheckpoint(
      filepath=os.path.join(log_dir, 'ckpt-{epoch}'),
      save_weights_only=True)

  history = model.fit(x=x_train,
            y=y_train,
            epochs=1,
            shuffle=False,
            callbacks=[model_checkpoint])

  data = tf.data.Dataset.from_tensor_slices((x_test, y_test))
  data = data.batch(64)

  tf.keras.utils.SidecarEvaluator(
      model=model,
      data=data,
      checkpoint_dir=log_dir,
      max_evaluations=1
  ).start()
  return {"history": history.history, "kernel": model.layers[-1].kernel}
