# After: https://www.tensorflow.org/text/tutorials/word2vec
# Adapted: seeded synthetic (target, context, label) triples instead of skip-grams with
# sampled negatives from Shakespeare, a 30-word vocabulary, embedding_dim 8, fixed
# starting weights, 2 epochs of 3 batches, shuffle left out (its order is not TF's).
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers
from adapt import fixed_weights

BATCH_SIZE = 8
vocab_size = 30
num_ns = 4
rng = np.random.default_rng(2)
targets = rng.integers(1, vocab_size, 24).astype(np.int64)
contexts = rng.integers(1, vocab_size, (24, num_ns + 1)).astype(np.int64)
labels = np.tile(np.array([1] + [0] * num_ns, dtype=np.int64), (24, 1))

class Word2Vec(tf.keras.Model):
  def __init__(self, vocab_size, embedding_dim):
    super(Word2Vec, self).__init__()
    self.target_embedding = layers.Embedding(vocab_size,
                                      embedding_dim,
                                      name="w2v_embedding")
    self.context_embedding = layers.Embedding(vocab_size,
                                       embedding_dim)

  def call(self, pair):
    target, context = pair
    # target: (batch, dummy?)  # The dummy axis doesn't exist in TF2.7+
    # context: (batch, context)
    if len(target.shape) == 2:
      target = tf.squeeze(target, axis=1)
    # target: (batch,)
    word_emb = self.target_embedding(target)
    # word_emb: (batch, embed)
    context_emb = self.context_embedding(context)
    # context_emb: (batch, context, embed)
    dots = tf.einsum('be,bce->bc', word_emb, context_emb)
    # dots: (batch, context)
    return dots

def main():
  dataset = tf.data.Dataset.from_tensor_slices(((targets, contexts), labels))
  dataset = dataset.batch(BATCH_SIZE, drop_remainder=True)
  dataset = dataset.cache().prefetch(buffer_size=tf.data.AUTOTUNE)
  embedding_dim = 8
  word2vec = Word2Vec(vocab_size, embedding_dim)
  word2vec.compile(optimizer='adam',
                   loss=tf.keras.losses.CategoricalCrossentropy(from_logits=True),
                   metrics=['accuracy'])
  word2vec((targets[:2], contexts[:2]))
  fixed_weights(word2vec.trainable_variables, seed=3)
  history = word2vec.fit(dataset, epochs=2, verbose=0)
  weights = word2vec.get_layer('w2v_embedding').get_weights()[0]
  return {"history": history.history, "weights": weights}
