# After: https://www.tensorflow.org/tutorials/distribute/keras (MirroredStrategy and
# num_replicas_in_sync, a scale map, cache, shuffle and batch of BATCH_SIZE_PER_REPLICA
# times the replicas, a Sequential convnet built and compiled in strategy.scope(), the
# TensorBoard, ModelCheckpoint(save_weights_only=True), LearningRateScheduler(decay) and
# PrintLR callbacks, fit, load_weights(tf.train.latest_checkpoint(...)), evaluate;
# model.save to a SavedModel and tf.keras.models.load_model, evaluated outside and inside
# the strategy's scope)
# Adapted: 64 training and 32 test seeded synthetic uint8 28x28x1 images in
# tf.data.Dataset.from_tensor_slices instead of tfds' MNIST, 4 epochs instead of 12 (one
# batch per epoch, so the shuffle cannot change a step); fixed weights; the checkpoints,
# and saved model written to a temporary folder; the TensorBoard callback left out
# (TensorBoard was not installed where TensorFlow's answers were recorded).
import os
import tempfile

import numpy as np
import tensorflow as tf
from adapt import data, fixed_weights, labels


def main():
    out = {}
    work = tempfile.mkdtemp()
    mnist_train = tf.data.Dataset.from_tensor_slices(
        (np.round(data(1, 64, 28, 28, 1, low=0, high=255)).astype(np.uint8), labels(2, 64, 10).astype(np.int64)))
    mnist_test = tf.data.Dataset.from_tensor_slices(
        (np.round(data(3, 32, 28, 28, 1, low=0, high=255)).astype(np.uint8), labels(4, 32, 10).astype(np.int64)))

    strategy = tf.distribute.MirroredStrategy()
    print('Number of devices: {}'.format(strategy.num_replicas_in_sync))

    # You can also do info.splits.total_num_examples to get the total
    # number of examples in the dataset.

    BUFFER_SIZE = 10000

    BATCH_SIZE_PER_REPLICA = 64
    BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync

    def scale(image, label):
      image = tf.cast(image, tf.float32)
      image /= 255

      return image, label

    train_dataset = mnist_train.map(scale).cache().shuffle(BUFFER_SIZE).batch(BATCH_SIZE)
    eval_dataset = mnist_test.map(scale).batch(BATCH_SIZE)

    with strategy.scope():
      model = tf.keras.Sequential([
          tf.keras.layers.Conv2D(32, 3, activation='relu', input_shape=(28, 28, 1)),
          tf.keras.layers.MaxPooling2D(),
          tf.keras.layers.Flatten(),
          tf.keras.layers.Dense(64, activation='relu'),
          tf.keras.layers.Dense(10)
      ])
      fixed_weights(model.trainable_variables, seed=5, scale=0.1)

      model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                    optimizer=tf.keras.optimizers.Adam(),
                    metrics=['accuracy'])

    # Define the checkpoint directory to store the checkpoints.
    checkpoint_dir = os.path.join(work, 'training_checkpoints')
    # Define the name of the checkpoint files.
    checkpoint_prefix = os.path.join(checkpoint_dir, "ckpt_{epoch}")

    # Define a function for decaying the learning rate.
    # You can define any decay function you need.
    def decay(epoch):
      if epoch < 3:
        return 1e-3
      elif epoch >= 3 and epoch < 7:
        return 1e-4
      else:
        return 1e-5

    rates = []

    # Define a callback for printing the learning rate at the end of each epoch.
    class PrintLR(tf.keras.callbacks.Callback):
      def on_epoch_end(self, epoch, logs=None):
        print('\nLearning rate for epoch {} is {}'.format(        epoch + 1, model.optimizer.lr.numpy()))
        rates.append(model.optimizer.lr.numpy())

    # Put all the callbacks together.
    callbacks = [
        tf.keras.callbacks.ModelCheckpoint(filepath=checkpoint_prefix,
                                           save_weights_only=True),
        tf.keras.callbacks.LearningRateScheduler(decay),
        PrintLR()
    ]

    EPOCHS = 4

    history = model.fit(train_dataset, epochs=EPOCHS, callbacks=callbacks)
    out["history"] = history.history
    out["rates"] = rates

    model.load_weights(tf.train.latest_checkpoint(checkpoint_dir))

    eval_loss, eval_acc = model.evaluate(eval_dataset)

    print('Eval loss: {}, Eval accuracy: {}'.format(eval_loss, eval_acc))
    out["eval"] = [eval_loss, eval_acc]

    path = os.path.join(work, 'saved_model/')
    model.save(path, save_format='tf')

    unreplicated_model = tf.keras.models.load_model(path)

    unreplicated_model.compile(
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        optimizer=tf.keras.optimizers.Adam(),
        metrics=['accuracy'])

    eval_loss, eval_acc = unreplicated_model.evaluate(eval_dataset)

    print('Eval loss: {}, Eval Accuracy: {}'.format(eval_loss, eval_acc))
    out["eval_unreplicated"] = [eval_loss, eval_acc]

    with strategy.scope():
      replicated_model = tf.keras.models.load_model(path)
      replicated_model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                               optimizer=tf.keras.optimizers.Adam(),
                               metrics=['accuracy'])

      eval_loss, eval_acc = replicated_model.evaluate(eval_dataset)
      print ('Eval loss: {}, Eval Accuracy: {}'.format(eval_loss, eval_acc))
      out["eval_replicated"] = [eval_loss, eval_acc]
    return out
