# After: https://www.tensorflow.org/tutorials/audio/simple_audio (squeeze, shard into
# validation and test sets, get_spectrogram with tf.signal.stft and tf.abs, make_spec_ds,
# cache/shuffle/prefetch, Normalization.adapt over a mapped dataset, the Sequential of Input,
# Resizing(32, 32), the Normalization layer, two Conv2D, MaxPooling2D, Flatten and Dense,
# fit with an EarlyStopping callback, evaluate(return_dict=True), predict, the confusion
# matrix, and a prediction for one waveform)
# Adapted: 48 seeded synthetic one-second waveforms (sums of sines plus noise, 16000
# samples, shaped (n, 16000, 1) as audio_dataset_from_directory gives them) in the 8
# commands' classes instead of the mini Speech Commands download, batched by 64 (so each
# split is one batch and the shuffle cannot change a step); 3 epochs instead of 10; fixed
# weights; the Dropout layers left out (random masks); the plots, audio playback, reading a
# .wav file, and the ExportModel with a string signature and tf.saved_model left out.
import numpy as np
import tensorflow as tf

from tensorflow.keras import layers
from tensorflow.keras import models
from adapt import fixed_weights


def get_spectrogram(waveform):
  # Convert the waveform to a spectrogram via a STFT.
  spectrogram = tf.signal.stft(
      waveform, frame_length=255, frame_step=128)
  # Obtain the magnitude of the STFT.
  spectrogram = tf.abs(spectrogram)
  # Add a `channels` dimension, so that the spectrogram can be used
  # as image-like input data with convolution layers (which expect
  # shape (`batch_size`, `height`, `width`, `channels`).
  spectrogram = spectrogram[..., tf.newaxis]
  return spectrogram


def waveforms(seed, n):
  rng = np.random.default_rng(seed)
  t = np.arange(16000) / 16000.0
  freqs = rng.uniform(100, 2000, size=(n, 3, 1))
  audio = np.sin(2 * np.pi * freqs * t).sum(axis=1) / 3
  audio = audio + rng.normal(0, 0.05, size=audio.shape)
  return audio[..., np.newaxis].astype(np.float32), rng.integers(0, 8, size=n).astype(np.int32)


def main():
  out = {}
  # Set the seed value for experiment reproducibility.
  seed = 42
  tf.random.set_seed(seed)
  np.random.seed(seed)
  label_names = np.array(['down', 'go', 'left', 'no', 'right', 'stop', 'up', 'yes'])
  audio, audio_labels = waveforms(1, 48)
  train_ds = tf.data.Dataset.from_tensor_slices((audio[:32], audio_labels[:32])).batch(64)
  val_ds = tf.data.Dataset.from_tensor_slices((audio[32:], audio_labels[32:])).batch(8)

  def squeeze(audio, labels):
    audio = tf.squeeze(audio, axis=-1)
    return audio, labels

  train_ds = train_ds.map(squeeze, tf.data.AUTOTUNE)
  val_ds = val_ds.map(squeeze, tf.data.AUTOTUNE)
  test_ds = val_ds.shard(num_shards=2, index=0)
  val_ds = val_ds.shard(num_shards=2, index=1)
  for example_audio, example_labels in train_ds.take(1):
    print(example_audio.shape)
    print(example_labels.shape)
  out["labels"] = list(label_names[[1,1,3,0]])

  for i in range(3):
    label = label_names[example_labels[i]]
    waveform = example_audio[i]
    spectrogram = get_spectrogram(waveform)
    print('Label:', label)
    print('Waveform shape:', waveform.shape)
    print('Spectrogram shape:', spectrogram.shape)
  out["spectrogram"] = spectrogram[:3, :5]

  def make_spec_ds(ds):
    return ds.map(
        map_func=lambda audio,label: (get_spectrogram(audio), label),
        num_parallel_calls=tf.data.AUTOTUNE)
  train_spectrogram_ds = make_spec_ds(train_ds)
  val_spectrogram_ds = make_spec_ds(val_ds)
  test_spectrogram_ds = make_spec_ds(test_ds)
  for example_spectrograms, example_spect_labels in train_spectrogram_ds.take(1):
    break

  train_spectrogram_ds = train_spectrogram_ds.cache().shuffle(10000).prefetch(tf.data.AUTOTUNE)
  val_spectrogram_ds = val_spectrogram_ds.cache().prefetch(tf.data.AUTOTUNE)
  test_spectrogram_ds = test_spectrogram_ds.cache().prefetch(tf.data.AUTOTUNE)
  input_shape = example_spectrograms.shape[1:]
  print('Input shape:', input_shape)
  out["input_shape"] = list(input_shape)
  num_labels = len(label_names)

  # Instantiate the `tf.keras.layers.Normalization` layer.
  norm_layer = layers.Normalization()
  # Fit the state of the layer to the spectrograms
  # with `Normalization.adapt`.
  norm_layer.adapt(data=train_spectrogram_ds.map(map_func=lambda spec, label: spec))

  model = models.Sequential([
      layers.Input(shape=input_shape),
      # Downsample the input.
      layers.Resizing(32, 32),
      # Normalize.
      norm_layer,
      layers.Conv2D(32, 3, activation='relu'),
      layers.Conv2D(64, 3, activation='relu'),
      layers.MaxPooling2D(),
      layers.Flatten(),
      layers.Dense(128, activation='relu'),
      layers.Dense(num_labels),
  ])
  fixed_weights(model.trainable_variables, seed=2, scale=0.05)

  model.summary()
  model.compile(
      optimizer=tf.keras.optimizers.Adam(),
      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
      metrics=['accuracy'],
  )
  EPOCHS = 3
  history = model.fit(
      train_spectrogram_ds,
      validation_data=val_spectrogram_ds,
      epochs=EPOCHS,
      callbacks=tf.keras.callbacks.EarlyStopping(verbose=1, patience=2),
  )
  out["history"] = history.history
  out["evaluate"] = model.evaluate(test_spectrogram_ds, return_dict=True)
  y_pred = model.predict(test_spectrogram_ds)
  y_pred = tf.argmax(y_pred, axis=1)
  y_true = tf.concat(list(test_spectrogram_ds.map(lambda s,lab: lab)), axis=0)
  confusion_mtx = tf.math.confusion_matrix(y_true, y_pred)
  out["confusion_mtx"] = confusion_mtx

  x, _ = waveforms(3, 1)
  x = tf.squeeze(x, axis=-1)
  x = get_spectrogram(x)
  prediction = model(x)
  out["prediction"] = tf.nn.softmax(prediction[0])
  return out
