# After: https://www.tensorflow.org/text/tutorials/transformer (CustomSchedule, a
# LearningRateSchedule with rsqrt warmup; masked_loss and masked_accuracy for padded targets;
# Adam with beta_2=0.98, epsilon=1e-9; compile and fit)
# Adapted: a small Embedding + Dense token model with fixed weights stands in for the
# Transformer (the schedule, losses, metric and optimizer are the tutorial's), 24 seeded
# synthetic padded sequences instead of the Portuguese-English data set, 2 epochs of batch 8.
import numpy as np
import tensorflow as tf
from adapt import fixed_weights


class CustomSchedule(tf.keras.optimizers.schedules.LearningRateSchedule):
  def __init__(self, d_model, warmup_steps=4000):
    super().__init__()

    self.d_model = d_model
    self.d_model = tf.cast(self.d_model, tf.float32)

    self.warmup_steps = warmup_steps

  def __call__(self, step):
    step = tf.cast(step, dtype=tf.float32)
    arg1 = tf.math.rsqrt(step)
    arg2 = step * (self.warmup_steps ** -1.5)

    return tf.math.rsqrt(self.d_model) * tf.math.minimum(arg1, arg2)


def masked_loss(label, pred):
  mask = label != 0
  loss_object = tf.keras.losses.SparseCategoricalCrossentropy(
    from_logits=True, reduction='none')
  loss = loss_object(label, pred)

  mask = tf.cast(mask, dtype=loss.dtype)
  loss *= mask

  loss = tf.reduce_sum(loss)/tf.reduce_sum(mask)
  return loss


def masked_accuracy(label, pred):
  pred = tf.argmax(pred, axis=2)
  label = tf.cast(label, pred.dtype)
  match = label == pred

  mask = label != 0

  match = match & mask

  match = tf.cast(match, dtype=tf.float32)
  mask = tf.cast(mask, dtype=tf.float32)
  return tf.reduce_sum(match)/tf.reduce_sum(mask)


def main():
    d_model = 16
    vocab = 20
    learning_rate = CustomSchedule(d_model, warmup_steps=4)
    rates = [learning_rate(tf.range(1, 9, dtype=tf.float32))]

    optimizer = tf.keras.optimizers.Adam(learning_rate, beta_1=0.9, beta_2=0.98,
                                         epsilon=1e-9)
    rng = np.random.default_rng(0)
    tokens = rng.integers(1, vocab, size=(24, 6)).astype(np.int64)
    lengths = rng.integers(3, 7, size=24)
    tokens[np.arange(6)[None, :] >= lengths[:, None]] = 0
    targets = np.roll(tokens, -1, axis=1)
    targets[:, -1] = 0

    model = tf.keras.Sequential([
        tf.keras.layers.Embedding(vocab, d_model),
        tf.keras.layers.Dense(d_model, activation="relu"),
        tf.keras.layers.Dense(vocab),
    ])
    model.build((None, 6))
    fixed_weights(model.trainable_variables, seed=2)
    model.compile(
        loss=masked_loss,
        optimizer=optimizer,
        metrics=[masked_accuracy])
    history = model.fit(tokens, targets, batch_size=8, epochs=2, shuffle=False, verbose=0)
    return {"rates": rates, "history": history.history,
            "iterations": optimizer.iterations,
            "current_lr": learning_rate(optimizer.iterations)}
