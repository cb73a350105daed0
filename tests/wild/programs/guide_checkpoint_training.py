# After: https://www.tensorflow.org/guide/checkpoint ("Writing checkpoints": the Net model,
# toy_dataset, train_step with a GradientTape, tf.train.Checkpoint over step, optimizer, net
# and iterator, tf.train.CheckpointManager with max_to_keep=3, train_and_checkpoint, restoring)
# Adapted: a temporary directory instead of ./tf_ckpts, 10 steps then 10 more after a restore;
# the Dense layer's weights fixed after building.
import os
import tempfile

import numpy as np
import tensorflow as tf
from adapt import fixed_weights


class Net(tf.keras.Model):
  """A simple linear model."""

  def __init__(self):
    super(Net, self).__init__()
    self.l1 = tf.keras.layers.Dense(5)

  def call(self, x):
    return self.l1(x)


def toy_dataset():
  inputs = tf.range(10.)[:, None]
  labels = inputs * 5. + tf.range(5.)[None, :]
  return tf.data.Dataset.from_tensor_slices(
    dict(x=inputs, y=labels)).repeat().batch(2)


def train_step(net, example, optimizer):
  """Trains `net` on `example` using `optimizer`."""
  with tf.GradientTape() as tape:
    output = net(example['x'])
    loss = tf.reduce_mean(tf.abs(output - example['y']))
  variables = net.trainable_variables
  gradients = tape.gradient(loss, variables)
  optimizer.apply_gradients(zip(gradients, variables))
  return loss


def main():
    tmp = tempfile.mkdtemp()
    net = Net()
    net(tf.zeros((1, 1)))
    fixed_weights(net.trainable_variables, seed=1)
    opt = tf.keras.optimizers.Adam(0.1)
    dataset = toy_dataset()
    iterator = iter(dataset)
    ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net, iterator=iterator)
    manager = tf.train.CheckpointManager(ckpt, os.path.join(tmp, 'tf_ckpts'), max_to_keep=3)
    log = []

    def train_and_checkpoint(net, manager):
      ckpt.restore(manager.latest_checkpoint)
      if manager.latest_checkpoint:
        log.append("Restored from {}".format(os.path.basename(manager.latest_checkpoint)))
      else:
        log.append("Initializing from scratch.")

      for _ in range(10):
        example = next(iterator)
        loss = train_step(net, example, opt)
        ckpt.step.assign_add(1)
        if int(ckpt.step) % 2 == 0:
          save_path = manager.save()
          log.append("Saved checkpoint for step {}: {}".format(int(ckpt.step),
                                                               os.path.basename(save_path)))
          log.append("loss {:1.2f}".format(loss.numpy()))

    train_and_checkpoint(net, manager)
    first = [v.numpy() for v in net.trainable_variables]
    opt = tf.keras.optimizers.Adam(0.1)
    net = Net()
    dataset = toy_dataset()
    iterator = iter(dataset)
    ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net, iterator=iterator)
    manager = tf.train.CheckpointManager(ckpt, os.path.join(tmp, 'tf_ckpts'), max_to_keep=3)
    train_and_checkpoint(net, manager)
    kept = sorted(os.path.basename(p) for p in manager.checkpoints)
    return {"log": log, "first": first, "after": net.trainable_variables, "kept": kept,
            "step": ckpt.step}
