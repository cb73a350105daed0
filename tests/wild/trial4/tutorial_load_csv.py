# After: https://www.tensorflow.org/tutorials/load_data/csv (the abalone regression on a
# NumPy array with fit, then with a Normalization layer adapted to the features; the
# symbolic calc model 2*input + 1; the Titanic preprocessing head built from a dict of
# keras.Input per column, Concatenate, Normalization, the string-column loop, titanic_model
# with BinaryCrossentropy(from_logits=True) fit on a dict of columns; from_tensor_slices of
# the dict and fit on shuffled batches)
# Adapted: 32 seeded synthetic abalone rows (7 features and an age) and 32 synthetic
# Titanic passengers with numeric columns only (age, n_siblings_spouses, parch, fare) as
# NumPy arrays instead of pandas.read_csv of the downloads (pandas is not installed where
# the answers were recorded; with no string column, the tutorial's StringLookup loop runs
# over nothing; norm.adapt gets the numeric columns stacked by NumPy instead of
# titanic[numeric_inputs.keys()], a DataFrame); one batch of 32 per epoch, so the shuffles
# cannot change a step; 2 epochs instead of 10 and 5; each Sequential built with
# build(...) and its trainable weights fixed; plot_model, model.save/load_model (whole-
# model saving), make_csv_dataset and the caching and fonts parts (file reading) left out.
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers
from adapt import data, fixed_weights


def main():
  out = {}
  np.set_printoptions(precision=3, suppress=True)
  abalone_features = data(1, 32, 7, low=0.05, high=1.0).astype(np.float64)
  abalone_labels = np.round(data(2, 32, low=3, high=20)).astype(np.int64)

  abalone_model = tf.keras.Sequential([
    layers.Dense(64, activation='relu'),
    layers.Dense(1)
  ])
  abalone_model.build((None, 7))
  fixed_weights(abalone_model.trainable_variables, seed=3, scale=0.3)
  abalone_model.compile(loss = tf.keras.losses.MeanSquaredError(),
                        optimizer = tf.keras.optimizers.Adam())
  out["abalone"] = abalone_model.fit(abalone_features, abalone_labels, epochs=2).history

  normalize = layers.Normalization()
  normalize.adapt(abalone_features)
  norm_abalone_model = tf.keras.Sequential([
    normalize,
    layers.Dense(64, activation='relu'),
    layers.Dense(1)
  ])
  norm_abalone_model.build((None, 7))
  fixed_weights(norm_abalone_model.trainable_variables, seed=4, scale=0.3)
  norm_abalone_model.compile(loss = tf.keras.losses.MeanSquaredError(),
                             optimizer = tf.keras.optimizers.Adam())
  out["norm_abalone"] = norm_abalone_model.fit(abalone_features, abalone_labels,
                                               epochs=2).history
  out["normalize_mean"] = normalize.mean

  rng = np.random.default_rng(5)
  titanic_features = {
      "age": rng.integers(1, 70, size=32).astype(np.float64),
      "n_siblings_spouses": rng.integers(0, 4, size=32),
      "parch": rng.integers(0, 3, size=32),
      "fare": np.round(rng.uniform(5, 100, size=32), 2),
  }
  titanic_labels = rng.integers(0, 2, size=32)

  # Create a symbolic input
  input = tf.keras.Input(shape=(), dtype=tf.float32)
  # Perform a calculation using the input
  result = 2*input + 1
  calc = tf.keras.Model(inputs=input, outputs=result)
  print(calc(np.array([1])).numpy())
  print(calc(np.array([2])).numpy())
  out["calc"] = [calc(np.array([1])), calc(np.array([2]))]

  inputs = {}
  for name, column in titanic_features.items():
    dtype = column.dtype
    if dtype == object:
      dtype = tf.string
    else:
      dtype = tf.float32

    inputs[name] = tf.keras.Input(shape=(1,), name=name, dtype=dtype)

  numeric_inputs = {name:input for name,input in inputs.items()
                    if input.dtype==tf.float32}

  x = layers.Concatenate()(list(numeric_inputs.values()))
  norm = layers.Normalization()
  norm.adapt(np.array([titanic_features[name] for name in numeric_inputs.keys()]).T)
  all_numeric_inputs = norm(x)

  preprocessed_inputs = [all_numeric_inputs]
  for name, input in inputs.items():
    if input.dtype == tf.float32:
      continue

    lookup = layers.StringLookup(vocabulary=np.unique(titanic_features[name]))
    one_hot = layers.CategoryEncoding(num_tokens=lookup.vocabulary_size())

    x = lookup(input)
    x = one_hot(x)
    preprocessed_inputs.append(x)
  preprocessed_inputs_cat = layers.Concatenate()(preprocessed_inputs)

  titanic_preprocessing = tf.keras.Model(inputs, preprocessed_inputs_cat)
  titanic_features_dict = {name: np.array(value)
                           for name, value in titanic_features.items()}
  features_dict = {name:values[:1] for name, values in titanic_features_dict.items()}
  out["preprocessed"] = titanic_preprocessing(features_dict)

  def titanic_model(preprocessing_head, inputs):
    body = tf.keras.Sequential([
      layers.Dense(64, activation='relu'),
      layers.Dense(1)
    ])

    preprocessed_inputs = preprocessing_head(inputs)
    result = body(preprocessed_inputs)
    model = tf.keras.Model(inputs, result)

    model.compile(loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
                  optimizer=tf.keras.optimizers.Adam())
    return model

  titanic_model = titanic_model(titanic_preprocessing, inputs)
  fixed_weights(titanic_model.trainable_variables, seed=6, scale=0.3)
  out["titanic"] = titanic_model.fit(x=titanic_features_dict, y=titanic_labels,
                                     epochs=2).history
  out["titanic_predict"] = titanic_model(features_dict)

  features_ds = tf.data.Dataset.from_tensor_slices(titanic_features_dict)
  for example in features_ds:
    for name, value in example.items():
      print(f"{name:19s}: {value}")
    out["first_example"] = example
    break
  titanic_ds = tf.data.Dataset.from_tensor_slices((titanic_features_dict, titanic_labels))
  titanic_batches = titanic_ds.shuffle(len(titanic_labels)).batch(32)
  out["titanic_batches"] = titanic_model.fit(titanic_batches, epochs=2).history
  return out
