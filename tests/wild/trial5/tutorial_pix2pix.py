# After: https://www.tensorflow.org/tutorials/generative/pix2pix (load splitting each
# facade/label pair, resize, normalize, load_image_train/load_image_test mapped over the
# datasets, downsample and upsample blocks with random_normal_initializer, the U-Net
# Generator with skip connections and Concatenate, generator_loss (BinaryCrossentropy
# from_logits plus LAMBDA * L1), the PatchGAN Discriminator with ZeroPadding2D,
# discriminator_loss, two Adam(2e-4, beta_1=0.5), tf.train.Checkpoint, generate_images,
# tf.summary.create_file_writer, the @tf.function train_step with a generator and a
# discriminator GradientTape open together and tf.summary.scalar, fit() over
# train_ds.repeat().take(steps).enumerate(), and the restore of the latest checkpoint)
# Adapted: one seeded synthetic 256x512 uint8 facade/label pair to train and one to test,
# held in memory and fed by Dataset.from_tensor_slices, with load() taking the decoded image
# instead of a file name (tf.io.read_file and decode_jpeg of the facades download, listed by
# Dataset.list_files, left out); random_jitter (its random crop and mirroring make the
# answers irreproducible) left out of load_image_train, which resizes as load_image_test
# does, and its 4-sample demo left out; the upsample blocks' Dropout left out (random
# masks); fixed weights after each model is built (BatchNormalization's moving statistics
# at zero means and unit variances); steps=2 instead of 40000; logs and checkpoints written
# inside a temporary folder; plt, plot_model, display and the %tensorboard magics left out,
# generate_images' predictions answered instead of drawn.
import tensorflow as tf

import os
import pathlib
import tempfile
import time
import datetime

import numpy as np
from adapt import data, fixed_weights

# The facade training set consist of 400 images
BUFFER_SIZE = 400
# The batch size of 1 produced better results for the U-Net in the original pix2pix experiment
BATCH_SIZE = 1
# Each image is 256x256 in size
IMG_WIDTH = 256
IMG_HEIGHT = 256
OUTPUT_CHANNELS = 3
LAMBDA = 100


def set_weights(model, seed):
  fixed_weights(model.trainable_weights, seed=seed, scale=0.02)
  for v in model.non_trainable_weights:
    v.assign(np.zeros(v.shape, np.float32) if 'moving_mean' in v.name
             else np.ones(v.shape, np.float32))


def load(image):
  # Split each image tensor into two tensors:
  # - one with a real building facade image
  # - one with an architecture label image 
  w = tf.shape(image)[1]
  w = w // 2
  input_image = image[:, w:, :]
  real_image = image[:, :w, :]

  # Convert both images to float32 tensors
  input_image = tf.cast(input_image, tf.float32)
  real_image = tf.cast(real_image, tf.float32)

  return input_image, real_image


def resize(input_image, real_image, height, width):
  input_image = tf.image.resize(input_image, [height, width],
                                method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)
  real_image = tf.image.resize(real_image, [height, width],
                               method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)

  return input_image, real_image


# Normalizing the images to [-1, 1]
def normalize(input_image, real_image):
  input_image = (input_image / 127.5) - 1
  real_image = (real_image / 127.5) - 1

  return input_image, real_image


def load_image_train(image_file):
  input_image, real_image = load(image_file)
  input_image, real_image = resize(input_image, real_image,
                                   IMG_HEIGHT, IMG_WIDTH)
  input_image, real_image = normalize(input_image, real_image)

  return input_image, real_image


def load_image_test(image_file):
  input_image, real_image = load(image_file)
  input_image, real_image = resize(input_image, real_image,
                                   IMG_HEIGHT, IMG_WIDTH)
  input_image, real_image = normalize(input_image, real_image)

  return input_image, real_image


def downsample(filters, size, apply_batchnorm=True):
  initializer = tf.random_normal_initializer(0., 0.02)

  result = tf.keras.Sequential()
  result.add(
      tf.keras.layers.Conv2D(filters, size, strides=2, padding='same',
                             kernel_initializer=initializer, use_bias=False))

  if apply_batchnorm:
    result.add(tf.keras.layers.BatchNormalization())

  result.add(tf.keras.layers.LeakyReLU())

  return result


def upsample(filters, size, apply_dropout=False):
  initializer = tf.random_normal_initializer(0., 0.02)

  result = tf.keras.Sequential()
  result.add(
    tf.keras.layers.Conv2DTranspose(filters, size, strides=2,
                                    padding='same',
                                    kernel_initializer=initializer,
                                    use_bias=False))

  result.add(tf.keras.layers.BatchNormalization())

  result.add(tf.keras.layers.ReLU())

  return result


def Generator():
  inputs = tf.keras.layers.Input(shape=[256, 256, 3])

  down_stack = [
    downsample(64, 4, apply_batchnorm=False),  # (batch_size, 128, 128, 64)
    downsample(128, 4),  # (batch_size, 64, 64, 128)
    downsample(256, 4),  # (batch_size, 32, 32, 256)
    downsample(512, 4),  # (batch_size, 16, 16, 512)
    downsample(512, 4),  # (batch_size, 8, 8, 512)
    downsample(512, 4),  # (batch_size, 4, 4, 512)
    downsample(512, 4),  # (batch_size, 2, 2, 512)
    downsample(512, 4),  # (batch_size, 1, 1, 512)
  ]

  up_stack = [
    upsample(512, 4, apply_dropout=True),  # (batch_size, 2, 2, 1024)
    upsample(512, 4, apply_dropout=True),  # (batch_size, 4, 4, 1024)
    upsample(512, 4, apply_dropout=True),  # (batch_size, 8, 8, 1024)
    upsample(512, 4),  # (batch_size, 16, 16, 1024)
    upsample(256, 4),  # (batch_size, 32, 32, 512)
    upsample(128, 4),  # (batch_size, 64, 64, 256)
    upsample(64, 4),  # (batch_size, 128, 128, 128)
  ]

  initializer = tf.random_normal_initializer(0., 0.02)
  last = tf.keras.layers.Conv2DTranspose(OUTPUT_CHANNELS, 4,
                                         strides=2,
                                         padding='same',
                                         kernel_initializer=initializer,
                                         activation='tanh')  # (batch_size, 256, 256, 3)

  x = inputs

  # Downsampling through the model
  skips = []
  for down in down_stack:
    x = down(x)
    skips.append(x)

  skips = reversed(skips[:-1])

  # Upsampling and establishing the skip connections
  for up, skip in zip(up_stack, skips):
    x = up(x)
    x = tf.keras.layers.Concatenate()([x, skip])

  x = last(x)

  return tf.keras.Model(inputs=inputs, outputs=x)


loss_object = tf.keras.losses.BinaryCrossentropy(from_logits=True)


def generator_loss(disc_generated_output, gen_output, target):
  gan_loss = loss_object(tf.ones_like(disc_generated_output), disc_generated_output)

  # Mean absolute error
  l1_loss = tf.reduce_mean(tf.abs(target - gen_output))

  total_gen_loss = gan_loss + (LAMBDA * l1_loss)

  return total_gen_loss, gan_loss, l1_loss


def Discriminator():
  initializer = tf.random_normal_initializer(0., 0.02)

  inp = tf.keras.layers.Input(shape=[256, 256, 3], name='input_image')
  tar = tf.keras.layers.Input(shape=[256, 256, 3], name='target_image')

  x = tf.keras.layers.concatenate([inp, tar])  # (batch_size, 256, 256, channels*2)

  down1 = downsample(64, 4, False)(x)  # (batch_size, 128, 128, 64)
  down2 = downsample(128, 4)(down1)  # (batch_size, 64, 64, 128)
  down3 = downsample(256, 4)(down2)  # (batch_size, 32, 32, 256)

  zero_pad1 = tf.keras.layers.ZeroPadding2D()(down3)  # (batch_size, 34, 34, 256)
  conv = tf.keras.layers.Conv2D(512, 4, strides=1,
                                kernel_initializer=initializer,
                                use_bias=False)(zero_pad1)  # (batch_size, 31, 31, 512)

  batchnorm1 = tf.keras.layers.BatchNormalization()(conv)

  leaky_relu = tf.keras.layers.LeakyReLU()(batchnorm1)

  zero_pad2 = tf.keras.layers.ZeroPadding2D()(leaky_relu)  # (batch_size, 33, 33, 512)

  last = tf.keras.layers.Conv2D(1, 4, strides=1,
                                kernel_initializer=initializer)(zero_pad2)  # (batch_size, 30, 30, 1)

  return tf.keras.Model(inputs=[inp, tar], outputs=last)


def discriminator_loss(disc_real_output, disc_generated_output):
  real_loss = loss_object(tf.ones_like(disc_real_output), disc_real_output)

  generated_loss = loss_object(tf.zeros_like(disc_generated_output), disc_generated_output)

  total_disc_loss = real_loss + generated_loss

  return total_disc_loss


def main():
  out = {}
  folder = tempfile.mkdtemp()
  pairs = data(1, 2, 256, 512, 3, low=0, high=255).round().astype(np.uint8)
  sample_image = tf.constant(pairs[0])
  print(sample_image.shape)

  inp, re = load(sample_image)
  out["pair_sums"] = [tf.reduce_sum(inp), tf.reduce_sum(re)]

  train_dataset = tf.data.Dataset.from_tensor_slices(pairs[:1])
  train_dataset = train_dataset.map(load_image_train,
                                    num_parallel_calls=tf.data.AUTOTUNE)
  train_dataset = train_dataset.shuffle(BUFFER_SIZE)
  train_dataset = train_dataset.batch(BATCH_SIZE)

  test_dataset = tf.data.Dataset.from_tensor_slices(pairs[1:])
  test_dataset = test_dataset.map(load_image_test)
  test_dataset = test_dataset.batch(BATCH_SIZE)

  down_model = downsample(3, 4)
  down_model.build((1, 256, 256, 3))
  set_weights(down_model, 1)
  down_result = down_model(tf.expand_dims(inp, 0))
  print (down_result.shape)

  up_model = upsample(3, 4)
  up_model.build((1, 128, 128, 3))
  set_weights(up_model, 2)
  up_result = up_model(down_result)
  print (up_result.shape)
  out["demo_shapes"] = [down_result.shape.as_list(), up_result.shape.as_list()]
  out["up_result"] = up_result[0, :2, :2, :]

  generator = Generator()
  set_weights(generator, 3)

  gen_output = generator(inp[tf.newaxis, ...], training=False)
  out["gen_output"] = gen_output[0, :2, :2, :]

  discriminator = Discriminator()
  set_weights(discriminator, 4)

  disc_out = discriminator([inp[tf.newaxis, ...], gen_output], training=False)
  out["disc_out"] = disc_out[0, :3, :3, -1]

  generator_optimizer = tf.keras.optimizers.Adam(2e-4, beta_1=0.5)
  discriminator_optimizer = tf.keras.optimizers.Adam(2e-4, beta_1=0.5)

  checkpoint_dir = os.path.join(folder, 'training_checkpoints')
  checkpoint_prefix = os.path.join(checkpoint_dir, "ckpt")
  checkpoint = tf.train.Checkpoint(generator_optimizer=generator_optimizer,
                                   discriminator_optimizer=discriminator_optimizer,
                                   generator=generator,
                                   discriminator=discriminator)

  predictions = []

  def generate_images(model, test_input, tar):
    prediction = model(test_input, training=True)
    predictions.append(prediction[0, 100:102, 100:102, :])

  for example_input, example_target in test_dataset.take(1):
    generate_images(generator, example_input, example_target)

  log_dir = os.path.join(folder, "logs/")

  summary_writer = tf.summary.create_file_writer(
    log_dir + "fit/" + datetime.datetime.now().strftime("%Y%m%d-%H%M%S"))

  losses = []

  @tf.function
  def train_step(input_image, target, step):
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
      gen_output = generator(input_image, training=True)

      disc_real_output = discriminator([input_image, target], training=True)
      disc_generated_output = discriminator([input_image, gen_output], training=True)

      gen_total_loss, gen_gan_loss, gen_l1_loss = generator_loss(disc_generated_output, gen_output, target)
      disc_loss = discriminator_loss(disc_real_output, disc_generated_output)

    generator_gradients = gen_tape.gradient(gen_total_loss,
                                            generator.trainable_variables)
    discriminator_gradients = disc_tape.gradient(disc_loss,
                                                 discriminator.trainable_variables)

    generator_optimizer.apply_gradients(zip(generator_gradients,
                                            generator.trainable_variables))
    discriminator_optimizer.apply_gradients(zip(discriminator_gradients,
                                                discriminator.trainable_variables))

    with summary_writer.as_default():
      tf.summary.scalar('gen_total_loss', gen_total_loss, step=step//1000)
      tf.summary.scalar('gen_gan_loss', gen_gan_loss, step=step//1000)
      tf.summary.scalar('gen_l1_loss', gen_l1_loss, step=step//1000)
      tf.summary.scalar('disc_loss', disc_loss, step=step//1000)
    return gen_total_loss, gen_gan_loss, gen_l1_loss, disc_loss

  def fit(train_ds, test_ds, steps):
    example_input, example_target = next(iter(test_ds.take(1)))
    start = time.time()

    for step, (input_image, target) in train_ds.repeat().take(steps).enumerate():
      if (step) % 1000 == 0:

        if step != 0:
          print(f'Time taken for 1000 steps: {time.time()-start:.2f} sec\n')

        start = time.time()

        generate_images(generator, example_input, example_target)
        print(f"Step: {step//1000}k")

      losses.append(train_step(input_image, target, step))

      # Training step
      if (step+1) % 10 == 0:
        print('.', end='', flush=True)


      # Save (checkpoint) the model every 5k steps
      if (step + 1) % 5000 == 0:
        checkpoint.save(file_prefix=checkpoint_prefix)

  fit(train_dataset, test_dataset, steps=2)

  # Restoring the latest checkpoint in checkpoint_dir
  checkpoint.restore(tf.train.latest_checkpoint(checkpoint_dir))

  # Run the trained model on a few examples from the test set
  for inp, tar in test_dataset.take(5):
    generate_images(generator, inp, tar)

  out["losses"] = losses
  out["predictions"] = predictions
  out["moving_mean"] = generator.layers[2].layers[1].moving_mean[:4]
  return out
