# After: https://www.tensorflow.org/guide/migrate/migration_debugging (site/en/guide/migrate/migration_debugging.ipynb in tensorflow/docs)
# Adapted: the guide's TensorFlow 2 cells placed in main(); its TensorFlow 1 cells (a
# model_fn run in a tf.compat.v1 Session, with tf.estimator.ModeKeys and EstimatorSpec),
# the comparisons of the two runs' logs and the unittest class that repeats both left
# out, as tf.estimator is gone from TensorFlow 2.21; SimpleModel's three Dense layers built
# inside the DeterministicRandomTestTool scope and their weights fixed from seeded NumPy
# (adapt.fixed_weights) instead of the tool's deterministic random initializers, and so
# the PrintLayer model's and the last get_model's weights; main() returns SimpleModel's
# logged learning rates, losses, gradients and layer outputs, dummy_func's result, the
# PrintLayer model's fit history and the dict-output model's outputs.
import sys
import unittest
import numpy as np

import tensorflow as tf
import tensorflow.compat.v1 as v1
from adapt import fixed_weights

params = {
    'input_size': 3,
    'num_classes': 3,
    'layer_1_size': 2,
    'layer_2_size': 2,
    'num_train_steps': 100,
    'init_lr': 1e-3,
    'end_lr': 0.0,
    'decay_steps': 1000,
    'lr_power': 1.0,
}

fake_x = np.ones((2, params['input_size']), dtype=np.float32)
fake_y = np.zeros((2, params['num_classes']), dtype=np.int32)
fake_y[0][0] = 1
fake_y[1][1] = 1

step_num = 3


class SimpleModel(tf.keras.Model):
  def __init__(self, params, *args, **kwargs):
    super(SimpleModel, self).__init__(*args, **kwargs)
    # define the model
    self.dense_1 = tf.keras.layers.Dense(params['layer_1_size'])
    self.dense_2 = tf.keras.layers.Dense(params['layer_2_size'])
    self.out = tf.keras.layers.Dense(params['num_classes'])
    learning_rate_fn = tf.keras.optimizers.schedules.PolynomialDecay(
      initial_learning_rate=params['init_lr'],
      decay_steps=params['decay_steps'],
      end_learning_rate=params['end_lr'],
      power=params['lr_power'])
    self.optimizer = tf.keras.optimizers.legacy.SGD(learning_rate_fn)
    self.compiled_loss = tf.keras.losses.CategoricalCrossentropy(from_logits=True)
    self.logs = {
        'lr': [],
        'loss': [],
        'grads': [],
        'weights': [],
        'layer_out': []}

  def call(self, inputs):
    out_1 = self.dense_1(inputs)
    out_2 = self.dense_2(out_1)
    logits = self.out(out_2)
    # log output features for every layer for comparison
    layer_wise_out = {
        'layer_1': out_1,
        'layer_2': out_2,
        'logits': logits}
    self.logs['layer_out'].append(layer_wise_out)
    return logits

  def train_step(self, data):
    x, y = data
    with tf.GradientTape() as tape:
      logits = self(x)
      loss = self.compiled_loss(y, logits)
    grads = tape.gradient(loss, self.trainable_weights)
    # log training statistics
    step = self.optimizer.iterations.numpy()
    self.logs['lr'].append(self.optimizer.learning_rate(step).numpy())
    self.logs['loss'].append(loss.numpy())
    self.logs['grads'].append(grads)
    self.logs['weights'].append(self.trainable_weights)
    # update model
    self.optimizer.apply_gradients(zip(grads, self.trainable_weights))
    return


def main():
  out = {}
  random_tool = v1.keras.utils.DeterministicRandomTestTool(mode='num_random_ops')
  with random_tool.scope():
    model_tf2 = SimpleModel(params)
    model_tf2.dense_1.build((None, 3)); model_tf2.dense_2.build((None, 2)); model_tf2.out.build((None, 2))
    fixed_weights(model_tf2.weights, seed=1, scale=0.5)
    for step in range(step_num):
      model_tf2.train_step([fake_x, fake_y])
  out["lr"] = model_tf2.logs['lr']
  out["loss"] = model_tf2.logs['loss']
  out["grads"] = [list(g) for g in model_tf2.logs['grads']]
  out["layer_out"] = model_tf2.logs['layer_out']

  # `print` prints info of tensor object
  # `tf.print` prints the tensor value
  @tf.function
  def dummy_func(num):
    num += 1
    print(num)
    tf.print(num)
    return num

  _ = dummy_func(tf.constant([1.0]))
  out["dummy_func"] = _

  # Output:
  # Tensor("add:0", shape=(1,), dtype=float32)
  # [2]
  class PrintLayer(tf.keras.layers.Layer):
    def call(self, inputs):
      tf.print(inputs)
      return inputs

  def get_model():
    inputs = tf.keras.layers.Input(shape=(1,))
    out_1 = tf.keras.layers.Dense(4)(inputs)
    out_2 = tf.keras.layers.Dense(1)(out_1)
    # use custom layer to tf.print intermediate features
    out_3 = PrintLayer()(out_2)
    model = tf.keras.Model(inputs=inputs, outputs=out_3)
    return model

  model = get_model()
  fixed_weights(model.weights, seed=2, scale=0.5)
  model.compile(optimizer="adam", loss="mse")
  history = model.fit([1, 2, 3], [0.0, 0.0, 1.0])
  out["print_layer_fit"] = history.history

  def get_model():
    inputs = tf.keras.layers.Input(shape=(1,))
    out_1 = tf.keras.layers.Dense(4)(inputs)
    out_2 = tf.keras.layers.Dense(1)(out_1)
    # include intermediate values in model outputs
    model = tf.keras.Model(
        inputs=inputs,
        outputs={
            'inputs': inputs,
            'out_1': out_1,
            'out_2': out_2})
    return model

  model = get_model()
  fixed_weights(model.weights, seed=3, scale=0.5)
  out["dict_outputs"] = model(tf.constant([[1.0], [2.0]]))
  return out
