# After: https://www.tensorflow.org/tutorials/load_data/pandas_dataframe ("A DataFrame as an
# array": a Normalization layer adapted to the numeric features, get_basic_model compiled
# with adam, BinaryCrossentropy(from_logits=True) and accuracy, fit; "A DataFrame as a
# dictionary": stack_dict, one tf.keras.Input per column, tf.concat of the inputs in a
# functional model, fit on the dict of columns with run_eagerly=True)
# Adapted: 40 seeded synthetic rows of the tutorial's five numeric columns (age, thalach,
# trestbps, chol, oldpeak) as a dict of NumPy columns instead of the heart-disease CSV in
# pandas; BATCH_SIZE 40 (one batch per epoch, so fit's shuffle cannot change a step),
# 4 epochs; fixed weights.
import numpy as np
import tensorflow as tf
from adapt import data, fixed_weights

BATCH_SIZE = 40


def get_basic_model():
  model = tf.keras.Sequential([
    normalizer,
    tf.keras.layers.Dense(10, activation='relu'),
    tf.keras.layers.Dense(10, activation='relu'),
    tf.keras.layers.Dense(1)
  ])

  model.compile(optimizer='adam',
                loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
                metrics=['accuracy'])
  return model


def stack_dict(inputs, fun=tf.stack):
    values = []
    for key in sorted(inputs.keys()):
      values.append(tf.cast(inputs[key], tf.float32))

    return fun(values, axis=-1)


normalizer = None


def main():
  global normalizer
  numeric_feature_names = ['age', 'thalach', 'trestbps',  'chol', 'oldpeak']
  lows, highs = [29, 71, 94, 126, 0], [77, 202, 200, 564, 6]
  numeric_features = {name: np.round(data(i + 1, 40, low=lo, high=hi), 1)
                      for i, (name, lo, hi) in enumerate(zip(numeric_feature_names, lows, highs))}
  target = (numeric_features['oldpeak'] + data(9, 40, low=-1, high=1) > 2.5).astype(np.int64)
  numeric_array = np.stack([numeric_features[n] for n in numeric_feature_names], axis=-1)

  normalizer = tf.keras.layers.Normalization(axis=-1)
  normalizer.adapt(numeric_array)
  normalized_head = normalizer(numeric_array[:3])

  model = get_basic_model()
  model.build((None, 5))
  fixed_weights(model.trainable_variables, seed=3)
  history = model.fit(numeric_array, target, epochs=4, batch_size=BATCH_SIZE, verbose=0)

  inputs = {}
  for name, column in numeric_features.items():
    inputs[name] = tf.keras.Input(
        shape=(1,), name=name, dtype=tf.float32)

  x = stack_dict(inputs, fun=tf.concat)

  normalizer = tf.keras.layers.Normalization(axis=-1)
  normalizer.adapt(stack_dict(dict(numeric_features)))

  x = normalizer(x)
  x = tf.keras.layers.Dense(10, activation='relu')(x)
  x = tf.keras.layers.Dense(10, activation='relu')(x)
  x = tf.keras.layers.Dense(1)(x)

  model = tf.keras.Model(inputs, x)
  fixed_weights(model.trainable_variables, seed=4)

  model.compile(optimizer='adam',
                loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
                metrics=['accuracy'],
                run_eagerly=True)
  dict_history = model.fit(dict(numeric_features), target, epochs=4, batch_size=BATCH_SIZE,
                           verbose=0)
  return {"normalized_head": normalized_head, "array": history.history,
          "dict": dict_history.history, "dict_mean": normalizer.mean}
