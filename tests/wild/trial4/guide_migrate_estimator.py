# After: https://www.tensorflow.org/guide/migrate/migrating_estimator (the TensorFlow 2
# parts: the Keras Sequential([Dense(1)]) with Adagrad(learning_rate=0.05), fit on a
# batch(1) dataset and evaluate(return_dict=True); and CustomModel, a Sequential overriding
# train_step with a GradientTape, compiled_loss, compiled_metrics and self.metrics)
# Adapted: each model built with build((None, 2)) so its weights can be fixed (the guide's
# data are already three literal examples); the TensorFlow 1 Estimator parts
# (tf.compat.v1.estimator, gone from TensorFlow 2.21) left out.
import tensorflow as tf
from adapt import fixed_weights

features = [[1., 1.5], [2., 2.5], [3., 3.5]]
labels = [[0.3], [0.5], [0.7]]
eval_features = [[4., 4.5], [5., 5.5], [6., 6.5]]
eval_labels = [[0.8], [0.9], [1.]]


class CustomModel(tf.keras.Sequential):
  """A custom sequential model that overrides `Model.train_step`."""

  def train_step(self, data):
    batch_data, labels = data

    with tf.GradientTape() as tape:
      predictions = self(batch_data, training=True)
      # Compute the loss value (the loss function is configured
      # in `Model.compile`).
      loss = self.compiled_loss(labels, predictions)

    # Compute the gradients of the parameters with respect to the loss.
    gradients = tape.gradient(loss, self.trainable_variables)
    # Perform gradient descent by updating the weights/parameters.
    self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
    # Update the metrics (includes the metric that tracks the loss).
    self.compiled_metrics.update_state(labels, predictions)
    # Return a dict mapping metric names to the current values.
    return {m.name: m.result() for m in self.metrics}


def main():
  out = {}
  dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(1)
  eval_dataset = tf.data.Dataset.from_tensor_slices(
        (eval_features, eval_labels)).batch(1)

  model = tf.keras.models.Sequential([tf.keras.layers.Dense(1)])
  model.build((None, 2))
  fixed_weights(model.weights, seed=1, scale=0.5)
  optimizer = tf.keras.optimizers.Adagrad(learning_rate=0.05)

  model.compile(optimizer=optimizer, loss="mse")
  out["fit"] = model.fit(dataset).history
  out["evaluate"] = model.evaluate(eval_dataset, return_dict=True)
  out["weights"] = model.weights

  dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(1)
  eval_dataset = tf.data.Dataset.from_tensor_slices(
        (eval_features, eval_labels)).batch(1)

  model = CustomModel([tf.keras.layers.Dense(1)])
  model.build((None, 2))
  fixed_weights(model.weights, seed=2, scale=0.5)
  optimizer = tf.keras.optimizers.Adagrad(learning_rate=0.05)

  model.compile(optimizer=optimizer, loss="mse")
  out["custom_fit"] = model.fit(dataset).history
  out["custom_evaluate"] = model.evaluate(eval_dataset, return_dict=True)
  out["custom_weights"] = model.weights
  return out
