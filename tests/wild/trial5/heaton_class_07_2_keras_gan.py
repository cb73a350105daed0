# After: https://github.com/jeffheaton/t81_558_deep_learning (t81_558_class_07_2_Keras_gan.ipynb,
# the TensorFlow version of the lesson, as it stood before the commit "Rework of module 7"
# replaced it by a StyleGAN2-ADA PyTorch notebook: build_generator (Dense, Reshape,
# UpSampling2D, Conv2D, BatchNormalization(momentum=0.8), Activation) and
# build_discriminator (strided Conv2D, LeakyReLU, Dropout, ZeroPadding2D,
# BatchNormalization, Dense sigmoid), BinaryCrossentropy generator and discriminator
# losses, two Adam(1.5e-4, 0.5) optimizers, the @tf.function train_step with a generator
# and a discriminator GradientTape open together, train() averaging the losses per epoch,
# and generator.save to HDF5)
# Adapted: 32 seeded synthetic 96x96 RGB images scaled to [-1, 1] instead of the face images
# read from Google Drive with PIL (one batch of 32, so the shuffle reorders rows within the
# batch only); 2 epochs instead of 50; the noise of train_step and of the first demo
# (tf.random.normal, whose stream differs between libraries) drawn by seeded NumPy, with
# tf.config.run_functions_eagerly(True) so that train_step draws fresh noise on every call
# as the original's random op does (traced once, a NumPy draw would be frozen into the
# graph); np.random.seed(0) for fixed_seed; fixed weights (BatchNormalization's moving
# statistics at zero means and unit variances); the discriminator's Dropout layers left out
# (their random masks make the answers irreproducible); save_images' PNG preview grid left
# out (its generator.predict of the fixed seeds is answered instead, rounded to 4 decimals:
# TensorFlow's own two runs differ in their last float32 digits there); the model saved into
# a temporary folder; the Colab mount left out.
import tensorflow as tf
from tensorflow.keras.layers import Input, Reshape, Dropout, Dense 
from tensorflow.keras.layers import Flatten, BatchNormalization
from tensorflow.keras.layers import Activation, ZeroPadding2D
from tensorflow.keras.layers import LeakyReLU
from tensorflow.keras.layers import UpSampling2D, Conv2D
from tensorflow.keras.models import Sequential, Model, load_model
from tensorflow.keras.optimizers import Adam
import numpy as np
import os 
import tempfile
import time
from adapt import data, fixed_weights

NOISE = np.random.default_rng(8)

# Nicely formatted time string
def hms_string(sec_elapsed):
    h = int(sec_elapsed / (60 * 60))
    m = int((sec_elapsed % (60 * 60)) / 60)
    s = sec_elapsed % 60
    return "{}:{:>02}:{:>05.2f}".format(h, m, s)

GENERATE_RES = 3 # Generation resolution factor 
# (1=32, 2=64, 3=96, 4=128, etc.)
GENERATE_SQUARE = 32 * GENERATE_RES # rows/cols (should be square)
IMAGE_CHANNELS = 3

# Preview image 
PREVIEW_ROWS = 4
PREVIEW_COLS = 7
PREVIEW_MARGIN = 16

# Size vector to generate images from
SEED_SIZE = 100

# Configuration
DATA_PATH = tempfile.mkdtemp()
EPOCHS = 2
BATCH_SIZE = 32
BUFFER_SIZE = 60000


def build_generator(seed_size, channels):
    model = Sequential()

    model.add(Dense(4*4*256,activation="relu",input_dim=seed_size))
    model.add(Reshape((4,4,256)))

    model.add(UpSampling2D())
    model.add(Conv2D(256,kernel_size=3,padding="same"))
    model.add(BatchNormalization(momentum=0.8))
    model.add(Activation("relu"))

    model.add(UpSampling2D())
    model.add(Conv2D(256,kernel_size=3,padding="same"))
    model.add(BatchNormalization(momentum=0.8))
    model.add(Activation("relu"))
   
    # Output resolution, additional upsampling
    model.add(UpSampling2D())
    model.add(Conv2D(128,kernel_size=3,padding="same"))
    model.add(BatchNormalization(momentum=0.8))
    model.add(Activation("relu"))

    if GENERATE_RES>1:
      model.add(UpSampling2D(size=(GENERATE_RES,GENERATE_RES)))
      model.add(Conv2D(128,kernel_size=3,padding="same"))
      model.add(BatchNormalization(momentum=0.8))
      model.add(Activation("relu"))

    # Final CNN layer
    model.add(Conv2D(channels,kernel_size=3,padding="same"))
    model.add(Activation("tanh"))

    return model


def build_discriminator(image_shape):
    model = Sequential()

    model.add(Conv2D(32, kernel_size=3, strides=2, input_shape=image_shape, 
                     padding="same"))
    model.add(LeakyReLU(alpha=0.2))

    model.add(Conv2D(64, kernel_size=3, strides=2, padding="same"))
    model.add(ZeroPadding2D(padding=((0,1),(0,1))))
    model.add(BatchNormalization(momentum=0.8))
    model.add(LeakyReLU(alpha=0.2))

    model.add(Conv2D(128, kernel_size=3, strides=2, padding="same"))
    model.add(BatchNormalization(momentum=0.8))
    model.add(LeakyReLU(alpha=0.2))

    model.add(Conv2D(256, kernel_size=3, strides=1, padding="same"))
    model.add(BatchNormalization(momentum=0.8))
    model.add(LeakyReLU(alpha=0.2))

    model.add(Conv2D(512, kernel_size=3, strides=1, padding="same"))
    model.add(BatchNormalization(momentum=0.8))
    model.add(LeakyReLU(alpha=0.2))

    model.add(Flatten())
    model.add(Dense(1, activation='sigmoid'))

    return model


def set_weights(model, seed):
    fixed_weights(model.trainable_weights, seed=seed, scale=0.05)
    for v in model.non_trainable_weights:
        v.assign(np.zeros(v.shape, np.float32) if 'moving_mean' in v.name
                 else np.ones(v.shape, np.float32))


def main():
    out = {}
    tf.config.run_functions_eagerly(True)
    try:
        return run(out)
    finally:
        tf.config.run_functions_eagerly(False)


def run(out):
    np.random.seed(0)
    print(f"Will generate {GENERATE_SQUARE}px square images.")
    training_data = data(1, 32, GENERATE_SQUARE, GENERATE_SQUARE, IMAGE_CHANNELS,
                         low=0, high=255).round()
    training_data = training_data.astype(np.float32)
    training_data = training_data / 127.5 - 1.

    # Batch and shuffle the data
    train_dataset = tf.data.Dataset.from_tensor_slices(training_data) \
        .shuffle(BUFFER_SIZE).batch(BATCH_SIZE)

    generator = build_generator(SEED_SIZE, IMAGE_CHANNELS)
    set_weights(generator, 1)

    noise = tf.constant(NOISE.standard_normal([1, SEED_SIZE]).astype(np.float32))
    generated_image = generator(noise, training=False)

    image_shape = (GENERATE_SQUARE,GENERATE_SQUARE,IMAGE_CHANNELS)

    discriminator = build_discriminator(image_shape)
    set_weights(discriminator, 2)
    decision = discriminator(generated_image)
    print (decision)
    out["decision"] = decision

    # This method returns a helper function to compute cross entropy loss
    cross_entropy = tf.keras.losses.BinaryCrossentropy()

    def discriminator_loss(real_output, fake_output):
        real_loss = cross_entropy(tf.ones_like(real_output), real_output)
        fake_loss = cross_entropy(tf.zeros_like(fake_output), fake_output)
        total_loss = real_loss + fake_loss
        return total_loss

    def generator_loss(fake_output):
        return cross_entropy(tf.ones_like(fake_output), fake_output)

    generator_optimizer = tf.keras.optimizers.Adam(1.5e-4,0.5)
    discriminator_optimizer = tf.keras.optimizers.Adam(1.5e-4,0.5)

    # Notice the use of `tf.function`
    # This annotation causes the function to be "compiled".
    @tf.function
    def train_step(images):
      seed = tf.constant(NOISE.standard_normal([BATCH_SIZE, SEED_SIZE]).astype(np.float32))

      with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        generated_images = generator(seed, training=True)

        real_output = discriminator(images, training=True)
        fake_output = discriminator(generated_images, training=True)

        gen_loss = generator_loss(fake_output)
        disc_loss = discriminator_loss(real_output, fake_output)
        

        gradients_of_generator = gen_tape.gradient(\
            gen_loss, generator.trainable_variables)
        gradients_of_discriminator = disc_tape.gradient(\
            disc_loss, discriminator.trainable_variables)

        generator_optimizer.apply_gradients(zip(
            gradients_of_generator, generator.trainable_variables))
        discriminator_optimizer.apply_gradients(zip(
            gradients_of_discriminator, 
            discriminator.trainable_variables))
      return gen_loss,disc_loss

    epochs_log = []

    def train(dataset, epochs):
      fixed_seed = np.random.normal(0, 1, (PREVIEW_ROWS * PREVIEW_COLS, 
                                           SEED_SIZE))
      start = time.time()

      for epoch in range(epochs):
        epoch_start = time.time()

        gen_loss_list = []
        disc_loss_list = []

        for image_batch in dataset:
          t = train_step(image_batch)
          gen_loss_list.append(t[0])
          disc_loss_list.append(t[1])

        g_loss = sum(gen_loss_list) / len(gen_loss_list)
        d_loss = sum(disc_loss_list) / len(disc_loss_list)

        epoch_elapsed = time.time()-epoch_start
        print (f'Epoch {epoch+1}, gen loss={g_loss},disc loss={d_loss},'\
               f' {hms_string(epoch_elapsed)}')
        generated_images = generator.predict(fixed_seed)
        epochs_log.append([g_loss, d_loss, np.round(generated_images[:2, 40:44, 40:44, 0], 4)])

      elapsed = time.time()-start
      print (f'Training time: {hms_string(elapsed)}')

    train(train_dataset, EPOCHS)
    generator.save(os.path.join(DATA_PATH,"face_generator.h5"))
    out["epochs"] = epochs_log
    out["saved"] = os.path.exists(os.path.join(DATA_PATH,"face_generator.h5"))
    out["moving_variance"] = generator.layers[4].moving_variance[:5]
    return out
