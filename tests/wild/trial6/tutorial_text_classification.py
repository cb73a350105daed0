# After: https://www.tensorflow.org/tutorials/keras/text_classification (site/en/tutorials/keras/text_classification.ipynb in tensorflow/docs)
# Adapted: instead of downloading the IMDB archive with tf.keras.utils.get_file, a small
# tree of its form (aclImdb/train/{pos,neg,unsup} and aclImdb/test/{pos,neg}, 40, 40, 2,
# 16 and 16 reviews, among them train/pos/1181_9.txt) written to a temporary folder, each
# review 20 to 60 words drawn by seeded NumPy from a short vocabulary with '<br />' and
# punctuation; the Dropout layers left out and the model built for (None, 250) with its
# weights fixed from seeded NumPy (adapt.fixed_weights) instead of the random
# initializers; 3 epochs instead of 10; the vocabulary entries 1287 and 313 printed only
# if the small vocabulary has them (else its last); the plotting (matplotlib) left out; the cells
# placed in main(), which returns the vocabulary size, the history, the evaluations and
# the export model's predictions.
import os
import re
import shutil
import string
import tempfile
import numpy as np
import tensorflow as tf

from tensorflow.keras import layers
from tensorflow.keras import losses
from adapt import fixed_weights

WORDS = ("the movie film was great good bad terrible awful plot acting story loved hated "
         "boring fun actor scene ending best worst and but not very really it I").split()


def write_imdb_like(root):
  rng = np.random.default_rng(0)
  counts = {"train": {"pos": 40, "neg": 40, "unsup": 2}, "test": {"pos": 16, "neg": 16}}
  for split, labels in counts.items():
    for label, n in labels.items():
      folder = os.path.join(root, "aclImdb", split, label)
      os.makedirs(folder)
      for i in range(n):
        words = list(rng.choice(WORDS, size=rng.integers(20, 60)))
        words[rng.integers(len(words))] += rng.choice(["!", ".", ",", " <br />"])
        name = "1181_9.txt" if (split, label, i) == ("train", "pos", 0) else "%d_%d.txt" % (i, 1 + i % 10)
        with open(os.path.join(folder, name), "w") as f:
          f.write(" ".join(words) + ".")


def main():
  out = {}
  print(tf.__version__)
  root = tempfile.mkdtemp()
  write_imdb_like(os.path.join(root, 'aclImdb_v1'))
  dataset = os.path.join(root, 'aclImdb_v1')

  dataset_dir = os.path.join(os.path.dirname(dataset), 'aclImdb_v1')
  os.listdir(dataset_dir)
  train_dir = os.path.join(dataset_dir, 'aclImdb', 'train')
  test_dir = os.path.join(dataset_dir, 'aclImdb', 'test')
  os.listdir(train_dir)
  sample_file = os.path.join(train_dir, 'pos', '1181_9.txt')
  with open(sample_file) as f:
    print(f.read())
  remove_dir = os.path.join(train_dir, 'unsup')
  shutil.rmtree(remove_dir)
  batch_size = 32
  seed = 42

  raw_train_ds = tf.keras.utils.text_dataset_from_directory(
      train_dir,
      batch_size=batch_size,
      validation_split=0.2,
      subset='training',
      seed=seed)
  for text_batch, label_batch in raw_train_ds.take(1):
    for i in range(3):
      print("Review", text_batch.numpy()[i])
      print("Label", label_batch.numpy()[i])
  print("Label 0 corresponds to", raw_train_ds.class_names[0])
  print("Label 1 corresponds to", raw_train_ds.class_names[1])
  raw_val_ds = tf.keras.utils.text_dataset_from_directory(
      train_dir,
      batch_size=batch_size,
      validation_split=0.2,
      subset='validation',
      seed=seed)
  raw_test_ds = tf.keras.utils.text_dataset_from_directory(
      test_dir,
      batch_size=batch_size)
  def custom_standardization(input_data):
    lowercase = tf.strings.lower(input_data)
    stripped_html = tf.strings.regex_replace(lowercase, '<br />', ' ')
    return tf.strings.regex_replace(stripped_html,
                                    '[%s]' % re.escape(string.punctuation),
                                    '')
  max_features = 10000
  sequence_length = 250

  vectorize_layer = layers.TextVectorization(
      standardize=custom_standardization,
      max_tokens=max_features,
      output_mode='int',
      output_sequence_length=sequence_length)
  # Make a text-only dataset (without labels), then call adapt
  train_text = raw_train_ds.map(lambda x, y: x)
  vectorize_layer.adapt(train_text)
  def vectorize_text(text, label):
    text = tf.expand_dims(text, -1)
    return vectorize_layer(text), label
  # retrieve a batch (of 32 reviews and labels) from the dataset
  text_batch, label_batch = next(iter(raw_train_ds))
  first_review, first_label = text_batch[0], label_batch[0]
  print("Review", first_review)
  print("Label", raw_train_ds.class_names[first_label])
  print("Vectorized review", vectorize_text(first_review, first_label))
  print("1287 ---> ",vectorize_layer.get_vocabulary()[min(1287, len(vectorize_layer.get_vocabulary()) - 1)])
  print(" 313 ---> ",vectorize_layer.get_vocabulary()[min(313, len(vectorize_layer.get_vocabulary()) - 1)])
  print('Vocabulary size: {}'.format(len(vectorize_layer.get_vocabulary())))
  out["vocabulary_size"] = len(vectorize_layer.get_vocabulary())
  train_ds = raw_train_ds.map(vectorize_text)
  val_ds = raw_val_ds.map(vectorize_text)
  test_ds = raw_test_ds.map(vectorize_text)
  AUTOTUNE = tf.data.AUTOTUNE

  train_ds = train_ds.cache().prefetch(buffer_size=AUTOTUNE)
  val_ds = val_ds.cache().prefetch(buffer_size=AUTOTUNE)
  test_ds = test_ds.cache().prefetch(buffer_size=AUTOTUNE)
  embedding_dim = 16
  model = tf.keras.Sequential([
    layers.Embedding(max_features, embedding_dim),
    layers.GlobalAveragePooling1D(),
    layers.Dense(1, activation='sigmoid')])
  model.build((None, sequence_length))
  fixed_weights(model.weights, seed=1, scale=0.1)

  model.summary()
  model.compile(loss=losses.BinaryCrossentropy(),
                optimizer='adam',
                metrics=[tf.metrics.BinaryAccuracy(threshold=0.5)])
  epochs = 3
  history = model.fit(
      train_ds,
      validation_data=val_ds,
      epochs=epochs)
  loss, accuracy = model.evaluate(test_ds)

  print("Loss: ", loss)
  print("Accuracy: ", accuracy)
  out["history"] = history.history
  out["evaluate"] = [loss, accuracy]
  export_model = tf.keras.Sequential([
    vectorize_layer,
    model,
    layers.Activation('sigmoid')
  ])

  export_model.compile(
      loss=losses.BinaryCrossentropy(from_logits=False), optimizer="adam", metrics=['accuracy']
  )

  # Test it with `raw_test_ds`, which yields raw strings
  metrics = export_model.evaluate(raw_test_ds, return_dict=True)
  print(metrics)
  out["export_evaluate"] = metrics
  examples = tf.constant([
    "The movie was great!",
    "The movie was okay.",
    "The movie was terrible..."
  ])

  out["predict"] = export_model.predict(examples)
  return out
