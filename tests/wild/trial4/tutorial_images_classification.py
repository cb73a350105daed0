# After: https://www.tensorflow.org/tutorials/images/classification (the flowers CNN:
# cache/shuffle/prefetch with AUTOTUNE, a Rescaling map over the dataset, Sequential of
# Rescaling with input_shape, three Conv2D 'same' + MaxPooling2D, Flatten, Dense(128),
# Dense(num_classes); compile with SparseCategoricalCrossentropy(from_logits=True), summary,
# fit with validation_data; predict on one image and softmax its score)
# Adapted: 40 seeded synthetic 180x180 RGB images in 5 classes (32 to train, 8 to validate,
# batched by 32, so train_ds has one batch and its shuffle cannot change a step) made into
# datasets with from_tensor_slices(...).batch(32) instead of image_dataset_from_directory on
# the flowers download, and one synthetic image instead of the sunflower; 2 epochs instead
# of 10; fixed weights; the data-augmentation model (RandomFlip, RandomRotation, RandomZoom
# and Dropout: random draws), the plots and the TensorFlow Lite conversion left out.
import numpy as np
import tensorflow as tf

from tensorflow import keras
from tensorflow.keras import layers
from tensorflow.keras.models import Sequential
from adapt import data, fixed_weights, labels


def main():
  out = {}
  batch_size = 32
  img_height = 180
  img_width = 180
  images = np.round(data(1, 40, img_height, img_width, 3, low=0, high=255))
  image_labels = labels(2, 40, 5)
  train_ds = tf.data.Dataset.from_tensor_slices(
      (images[:32], image_labels[:32])).batch(batch_size)
  val_ds = tf.data.Dataset.from_tensor_slices(
      (images[32:], image_labels[32:])).batch(batch_size)
  class_names = ['daisy', 'dandelion', 'roses', 'sunflowers', 'tulips']
  print(class_names)
  for image_batch, labels_batch in train_ds:
    print(image_batch.shape)
    print(labels_batch.shape)
    break

  AUTOTUNE = tf.data.AUTOTUNE

  train_ds = train_ds.cache().shuffle(1000).prefetch(buffer_size=AUTOTUNE)
  val_ds = val_ds.cache().prefetch(buffer_size=AUTOTUNE)
  normalization_layer = layers.Rescaling(1./255)
  normalized_ds = train_ds.map(lambda x, y: (normalization_layer(x), y))
  image_batch, labels_batch = next(iter(normalized_ds))
  first_image = image_batch[0]
  # Notice the pixel values are now in `[0,1]`.
  print(np.min(first_image), np.max(first_image))
  out["first_image_range"] = [np.min(first_image), np.max(first_image)]
  num_classes = len(class_names)

  model = Sequential([
    layers.Rescaling(1./255, input_shape=(img_height, img_width, 3)),
    layers.Conv2D(16, 3, padding='same', activation='relu'),
    layers.MaxPooling2D(),
    layers.Conv2D(32, 3, padding='same', activation='relu'),
    layers.MaxPooling2D(),
    layers.Conv2D(64, 3, padding='same', activation='relu'),
    layers.MaxPooling2D(),
    layers.Flatten(),
    layers.Dense(128, activation='relu'),
    layers.Dense(num_classes)
  ])
  fixed_weights(model.weights, seed=3, scale=0.02)
  model.compile(optimizer='adam',
                loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                metrics=['accuracy'])
  model.summary()
  epochs=2
  history = model.fit(
    train_ds,
    validation_data=val_ds,
    epochs=epochs
  )
  out["history"] = history.history

  img_array = np.round(data(4, img_height, img_width, 3, low=0, high=255))
  img_array = tf.expand_dims(img_array, 0) # Create a batch

  predictions = model.predict(img_array)
  score = tf.nn.softmax(predictions[0])

  print(
      "This image most likely belongs to {} with a {:.2f} percent confidence."
      .format(class_names[np.argmax(score)], 100 * np.max(score))
  )
  out["score"] = score
  out["predicted_class"] = class_names[np.argmax(score)]
  return out
