# After: https://www.tensorflow.org/tutorials/images/data_augmentation (site/en/tutorials/images/data_augmentation.ipynb in tensorflow/docs)
# Adapted: instead of tfds.load('tf_flowers') (tensorflow-datasets is not installed where
# the answers were recorded), 40 / 8 / 8 photos of seeded NumPy uint8 pixels (60x80x3) with
# labels 0-4 as tf.data datasets of (image, label), 5 classes and the flower names as
# get_label_name; IMG_SIZE 48 instead of 180; the random augmentation left out where it
# would change the answers: the training set prepared with augment=False (RandomFlip and
# RandomRotation only defined), the RandomInvert / random_invert layers defined but not
# applied, the stateless random brightness, contrast and crop cells and the last section's
# random-seeded pipelines left out; the tf.image cells' photo is the first training photo
# kept from the first load instead of a second tfds.load; the training set is one batch, so its shuffle decides
# nothing; the CNN built for (None, 48, 48, 3) with its weights fixed from seeded NumPy
# (adapt.fixed_weights) instead of the random initializers; 3 epochs instead of 5; the
# plotting (matplotlib, visualize) left out; the cells placed in main(), which returns
# the rescaled range, the history, the evaluation and the means of the tf.image results.
import numpy as np
import tensorflow as tf

from tensorflow.keras import layers
from adapt import fixed_weights

FLOWERS = ['dandelion', 'daisy', 'tulips', 'sunflowers', 'roses']


def flowers_like(n, rng):
  images = rng.integers(0, 256, size=(n, 60, 80, 3)).astype(np.uint8)
  return tf.data.Dataset.from_tensor_slices((images, rng.integers(0, 5, size=n)))


def main():
  out = {}
  rng = np.random.default_rng(0)
  train_ds, val_ds, test_ds = flowers_like(40, rng), flowers_like(8, rng), flowers_like(8, rng)
  num_classes = 5
  print(num_classes)
  get_label_name = lambda label: FLOWERS[int(label)]

  image, label = next(iter(train_ds))
  first_image, first_label = image, label
  IMG_SIZE = 48

  resize_and_rescale = tf.keras.Sequential([
    layers.Resizing(IMG_SIZE, IMG_SIZE),
    layers.Rescaling(1./255)
  ])
  result = resize_and_rescale(image)
  print("Min and max pixel values:", result.numpy().min(), result.numpy().max())
  out["min_max"] = [result.numpy().min(), result.numpy().max()]
  data_augmentation = tf.keras.Sequential([
    layers.RandomFlip("horizontal_and_vertical"),
    layers.RandomRotation(0.2),
  ])
  # Add the image to a batch.
  image = tf.cast(tf.expand_dims(image, 0), tf.float32)
  model = tf.keras.Sequential([
    # Add the preprocessing layers you created earlier.
    resize_and_rescale,
    data_augmentation,
    layers.Conv2D(16, 3, padding='same', activation='relu'),
    layers.MaxPooling2D(),
    # Rest of your model.
  ])
  aug_ds = train_ds.map(
    lambda x, y: (resize_and_rescale(x, training=True), y))
  batch_size = 40
  AUTOTUNE = tf.data.AUTOTUNE

  def prepare(ds, shuffle=False, augment=False):
    # Resize and rescale all datasets.
    ds = ds.map(lambda x, y: (resize_and_rescale(x), y),
                num_parallel_calls=AUTOTUNE)

    if shuffle:
      ds = ds.shuffle(1000)

    # Batch all datasets.
    ds = ds.batch(batch_size)

    # Use data augmentation only on the training set.
    if augment:
      ds = ds.map(lambda x, y: (data_augmentation(x, training=True), y),
                  num_parallel_calls=AUTOTUNE)

    # Use buffered prefetching on all datasets.
    return ds.prefetch(buffer_size=AUTOTUNE)
  train_ds = prepare(train_ds, shuffle=True, augment=False)
  val_ds = prepare(val_ds)
  test_ds = prepare(test_ds)
  model = tf.keras.Sequential([
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
  model.build((None, IMG_SIZE, IMG_SIZE, 3))
  fixed_weights(model.weights, seed=1, scale=0.1)
  model.compile(optimizer='adam',
                loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                metrics=['accuracy'])
  epochs=3
  history = model.fit(
    train_ds,
    validation_data=val_ds,
    epochs=epochs
  )
  loss, acc = model.evaluate(test_ds)
  print("Accuracy", acc)
  out["history"] = history.history
  out["evaluate"] = [loss, acc]
  def random_invert_img(x, p=0.5):
    if  tf.random.uniform([]) < p:
      x = (255-x)
    else:
      x
    return x
  def random_invert(factor=0.5):
    return layers.Lambda(lambda x: random_invert_img(x, factor))

  random_invert = random_invert()
  class RandomInvert(layers.Layer):
    def __init__(self, factor=0.5, **kwargs):
      super().__init__(**kwargs)
      self.factor = factor

    def call(self, x):
      return random_invert_img(x)
  image, label = first_image, first_label
  flipped = tf.image.flip_left_right(image)
  grayscaled = tf.image.rgb_to_grayscale(image)
  saturated = tf.image.adjust_saturation(image, 3)
  bright = tf.image.adjust_brightness(image, 0.4)
  cropped = tf.image.central_crop(image, central_fraction=0.5)
  rotated = tf.image.rot90(image)
  out["tf_image"] = {name: [x.shape.as_list(), tf.reduce_mean(tf.cast(x, tf.float32))]
                     for name, x in [("flipped", flipped), ("grayscaled", grayscaled),
                                     ("saturated", saturated), ("bright", bright),
                                     ("cropped", cropped), ("rotated", rotated)]}
  out["flipped_row"] = flipped[0, :4]
  return out
