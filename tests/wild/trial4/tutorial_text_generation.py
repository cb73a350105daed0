# After: https://www.tensorflow.org/text/tutorials/text_generation (sequences by
# batch(seq_length+1, drop_remainder=True), split_input_target, shuffle/batch/prefetch,
# MyModel of Embedding, GRU(return_sequences=True, return_state=True) with
# get_initial_state and Dense, the mean loss of an example batch, compile with adam and
# SparseCategoricalCrossentropy(from_logits=True), fit with a ModelCheckpoint callback
# saving weights per epoch, then CustomTraining's @tf.function train_step with a
# GradientTape, fit for one epoch, and the custom loop with tf.metrics.Mean, reset_states and
# save_weights)
# Adapted: 808 seeded synthetic character ids (8 sequences of 101, one batch) instead of the
# Shakespeare text turned into ids by StringLookup over tf.strings.unicode_split (string
# tensors, data loading; vocab_size is 66 as the tutorial's); a small model
# (embedding_dim 16, rnn_units 64, BATCH_SIZE 8) instead of 256, 1024 and 64; 2 epochs
# instead of 20 and 10; checkpoints written to a temporary folder; fixed weights (the model
# is called on the example batch first, as the tutorial does); the random sampling
# (tf.random.categorical), OneStep's string generation and tf.saved_model left out.
import os
import tempfile
import time

import numpy as np
import tensorflow as tf
from adapt import fixed_weights


def split_input_target(sequence):
    input_text = sequence[:-1]
    target_text = sequence[1:]
    return input_text, target_text


class MyModel(tf.keras.Model):
  def __init__(self, vocab_size, embedding_dim, rnn_units):
    super().__init__(self)
    self.embedding = tf.keras.layers.Embedding(vocab_size, embedding_dim)
    self.gru = tf.keras.layers.GRU(rnn_units,
                                   return_sequences=True,
                                   return_state=True)
    self.dense = tf.keras.layers.Dense(vocab_size)

  def call(self, inputs, states=None, return_state=False, training=False):
    x = inputs
    x = self.embedding(x, training=training)
    if states is None:
      states = self.gru.get_initial_state(x)
    x, states = self.gru(x, initial_state=states, training=training)
    x = self.dense(x, training=training)

    if return_state:
      return x, states
    else:
      return x


def main():
  out = {}
  vocab_size = 66
  all_ids = np.random.default_rng(1).integers(1, vocab_size, size=808).astype(np.int64)
  ids_dataset = tf.data.Dataset.from_tensor_slices(all_ids)
  seq_length = 100

  sequences = ids_dataset.batch(seq_length+1, drop_remainder=True)
  out["split"] = split_input_target(list("Tensorflow"))
  dataset = sequences.map(split_input_target)
  # Batch size
  BATCH_SIZE = 8

  # Buffer size to shuffle the dataset
  BUFFER_SIZE = 10000

  dataset = (
      dataset
      .shuffle(BUFFER_SIZE)
      .batch(BATCH_SIZE, drop_remainder=True)
      .prefetch(tf.data.experimental.AUTOTUNE))

  # The embedding dimension
  embedding_dim = 16

  # Number of RNN units
  rnn_units = 64
  model = MyModel(
      vocab_size=vocab_size,
      embedding_dim=embedding_dim,
      rnn_units=rnn_units)
  for input_example_batch, target_example_batch in dataset.take(1):
      example_batch_predictions = model(input_example_batch)
      print(example_batch_predictions.shape, "# (batch_size, sequence_length, vocab_size)")
  model.summary()
  fixed_weights(model.weights, seed=2, scale=0.2)
  example_batch_predictions = model(input_example_batch)

  loss = tf.losses.SparseCategoricalCrossentropy(from_logits=True)
  example_batch_mean_loss = loss(target_example_batch, example_batch_predictions)
  print("Prediction shape: ", example_batch_predictions.shape, " # (batch_size, sequence_length, vocab_size)")
  print("Mean loss:        ", example_batch_mean_loss)
  out["example_loss"] = example_batch_mean_loss
  out["perplexity"] = tf.exp(example_batch_mean_loss).numpy()
  model.compile(optimizer='adam', loss=loss)
  # Directory where the checkpoints will be saved
  checkpoint_dir = tempfile.mkdtemp()
  # Name of the checkpoint files
  checkpoint_prefix = os.path.join(checkpoint_dir, "ckpt_{epoch}")

  checkpoint_callback = tf.keras.callbacks.ModelCheckpoint(
      filepath=checkpoint_prefix,
      save_weights_only=True)
  EPOCHS = 2
  history = model.fit(dataset, epochs=EPOCHS, callbacks=[checkpoint_callback])
  out["history"] = history.history

  class CustomTraining(MyModel):
    @tf.function
    def train_step(self, inputs):
        inputs, labels = inputs
        with tf.GradientTape() as tape:
            predictions = self(inputs, training=True)
            loss = self.loss(labels, predictions)
        grads = tape.gradient(loss, model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, model.trainable_variables))

        return {'loss': loss}

  model = CustomTraining(
      vocab_size=vocab_size,
      embedding_dim=embedding_dim,
      rnn_units=rnn_units)
  model(input_example_batch)
  fixed_weights(model.weights, seed=3, scale=0.2)
  model.compile(optimizer = tf.keras.optimizers.Adam(),
                loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
  out["custom_fit"] = model.fit(dataset, epochs=1).history

  EPOCHS = 2

  mean = tf.metrics.Mean()
  losses = []

  for epoch in range(EPOCHS):
      start = time.time()

      mean.reset_states()
      for (batch_n, (inp, target)) in enumerate(dataset):
          logs = model.train_step([inp, target])
          mean.update_state(logs['loss'])

          if batch_n % 50 == 0:
              template = f"Epoch {epoch+1} Batch {batch_n} Loss {logs['loss']:.4f}"
              print(template)

      # saving (checkpoint) the model every 5 epochs
      if (epoch + 1) % 5 == 0:
          model.save_weights(checkpoint_prefix.format(epoch=epoch))

      print()
      print(f'Epoch {epoch+1} Loss: {mean.result().numpy():.4f}')
      print(f'Time taken for 1 epoch {time.time() - start:.2f} sec')
      print("_"*80)
      losses.append(mean.result())

  model.save_weights(checkpoint_prefix.format(epoch=epoch))
  out["custom_loop_losses"] = losses
  # which checkpoints were written (each library writes its own files for one)
  out["checkpoints"] = sorted({name.split(".")[0] for name in os.listdir(checkpoint_dir)
                               if name.startswith("ckpt_")})
  return out
