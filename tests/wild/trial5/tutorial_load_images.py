# After: https://www.tensorflow.org/tutorials/load_data/images (the flowers folder read by
# tf.keras.utils.image_dataset_from_directory with validation_split, subset and seed,
# class_names, a Rescaling layer mapped over the dataset, cache/prefetch, the small CNN of
# Rescaling, three Conv2D/MaxPooling2D and two Dense compiled with adam and
# SparseCategoricalCrossentropy(from_logits=True) and fit with validation_data; then the
# hand-written pipeline: Dataset.list_files, skip/take into training and validation,
# cardinality, get_label with tf.strings.split, decode_img with tf.io.decode_jpeg and
# tf.image.resize, process_path mapped, configure_for_performance, and fit again)
# Adapted: 40 seeded synthetic 60x80 JPEG photos (8 per class in five class folders named
# as the download's) written with PIL into a temporary folder instead of the flower_photos
# download (so 32 images train: one batch, and the shuffles reorder rows within a batch
# only); the unseeded list_ds.shuffle(image_count, reshuffle_each_iteration=False) left out
# (its order, from TensorFlow's random stream, decides which files are held out, so two
# TensorFlow runs disagree); fixed weights after the model is built; 2 epochs instead of 3;
# the plots and the last part (tfds.load of tf_flowers, which only configures datasets)
# left out.
import numpy as np
import os
import tempfile
import PIL
import PIL.Image
import tensorflow as tf
from adapt import fixed_weights

print(tf.__version__)
import pathlib


def write_photos():
  rng = np.random.default_rng(1)
  root = pathlib.Path(tempfile.mkdtemp()) / 'flower_photos'
  for c, name in enumerate(['daisy', 'dandelion', 'roses', 'sunflowers', 'tulips']):
    (root / name).mkdir(parents=True)
    for i in range(8):
      base = rng.uniform(0, 255, size=(1, 1, 3)) * np.ones((60, 80, 3))
      pixels = np.clip(base + rng.normal(0, 30, size=(60, 80, 3)), 0, 255).astype(np.uint8)
      PIL.Image.fromarray(pixels).save(str(root / name / f'{c}{i:03d}.jpg'), quality=90)
  return root


def main():
  out = {}
  data_dir = write_photos()
  image_count = len(list(data_dir.glob('*/*.jpg')))
  print(image_count)
  roses = list(data_dir.glob('roses/*'))
  PIL.Image.open(str(roses[0]))
  roses = list(data_dir.glob('roses/*'))
  PIL.Image.open(str(roses[1]))

  batch_size = 32
  img_height = 180
  img_width = 180

  train_ds = tf.keras.utils.image_dataset_from_directory(
    data_dir,
    validation_split=0.2,
    subset="training",
    seed=123,
    image_size=(img_height, img_width),
    batch_size=batch_size)

  val_ds = tf.keras.utils.image_dataset_from_directory(
    data_dir,
    validation_split=0.2,
    subset="validation",
    seed=123,
    image_size=(img_height, img_width),
    batch_size=batch_size)

  class_names = train_ds.class_names
  print(class_names)
  out["class_names"] = class_names

  for image_batch, labels_batch in train_ds:
    print(image_batch.shape)
    print(labels_batch.shape)
    out["batch_shapes"] = [image_batch.shape.as_list(), labels_batch.shape.as_list()]
    out["label_counts"] = np.bincount(labels_batch.numpy(), minlength=5)
    break

  normalization_layer = tf.keras.layers.Rescaling(1./255)
  normalized_ds = train_ds.map(lambda x, y: (normalization_layer(x), y))
  image_batch, labels_batch = next(iter(normalized_ds))
  first_image = image_batch[0]
  # Notice the pixel values are now in `[0,1]`.
  print(np.min(first_image), np.max(first_image))
  out["pixel_sum"] = tf.reduce_sum(image_batch)

  AUTOTUNE = tf.data.AUTOTUNE

  train_ds = train_ds.cache().prefetch(buffer_size=AUTOTUNE)
  val_ds = val_ds.cache().prefetch(buffer_size=AUTOTUNE)

  num_classes = 5

  model = tf.keras.Sequential([
    tf.keras.layers.Rescaling(1./255),
    tf.keras.layers.Conv2D(32, 3, activation='relu'),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Conv2D(32, 3, activation='relu'),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Conv2D(32, 3, activation='relu'),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(128, activation='relu'),
    tf.keras.layers.Dense(num_classes)
  ])
  model.build((None, img_height, img_width, 3))
  fixed_weights(model.weights, seed=2, scale=0.05)

  model.compile(
    optimizer='adam',
    loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=['accuracy'])

  out["fit_directory"] = model.fit(
    train_ds,
    validation_data=val_ds,
    epochs=2
  ).history

  list_ds = tf.data.Dataset.list_files(str(data_dir/'*/*'), shuffle=False)

  for f in list_ds.take(5):
    print(f.numpy())

  class_names = np.array(sorted([item.name for item in data_dir.glob('*') if item.name != "LICENSE.txt"]))
  print(class_names)

  val_size = int(image_count * 0.2)
  train_ds = list_ds.skip(val_size)
  val_ds = list_ds.take(val_size)

  print(tf.data.experimental.cardinality(train_ds).numpy())
  print(tf.data.experimental.cardinality(val_ds).numpy())
  out["cardinality"] = [tf.data.experimental.cardinality(train_ds).numpy(),
                        tf.data.experimental.cardinality(val_ds).numpy()]

  def get_label(file_path):
    # Convert the path to a list of path components
    parts = tf.strings.split(file_path, os.path.sep)
    # The second to last is the class-directory
    one_hot = parts[-2] == class_names
    # Integer encode the label
    return tf.argmax(one_hot)

  def decode_img(img):
    # Convert the compressed string to a 3D uint8 tensor
    img = tf.io.decode_jpeg(img, channels=3)
    # Resize the image to the desired size
    return tf.image.resize(img, [img_height, img_width])

  def process_path(file_path):
    label = get_label(file_path)
    # Load the raw data from the file as a string
    img = tf.io.read_file(file_path)
    img = decode_img(img)
    return img, label

  # Set `num_parallel_calls` so multiple images are loaded/processed in parallel.
  train_ds = train_ds.map(process_path, num_parallel_calls=AUTOTUNE)
  val_ds = val_ds.map(process_path, num_parallel_calls=AUTOTUNE)

  for image, label in train_ds.take(1):
    print("Image shape: ", image.numpy().shape)
    print("Label: ", label.numpy())
    out["first"] = [list(image.numpy().shape), label.numpy()]

  def configure_for_performance(ds):
    ds = ds.cache()
    ds = ds.shuffle(buffer_size=1000)
    ds = ds.batch(batch_size)
    ds = ds.prefetch(buffer_size=AUTOTUNE)
    return ds

  train_ds = configure_for_performance(train_ds)
  val_ds = configure_for_performance(val_ds)

  image_batch, label_batch = next(iter(train_ds))

  out["fit_pipeline"] = model.fit(
    train_ds,
    validation_data=val_ds,
    epochs=2
  ).history
  return out
