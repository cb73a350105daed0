# After: https://github.com/davidADSP/Generative_Deep_Learning_2nd_Edition (notebooks/04_gan/01_dcgan/dcgan.ipynb)
# Adapted: the notebook's code cells placed one after another (the models and the DCGAN
# class at module level, the rest in main()); 8 images of the LEGO bricks' shape (seeded
# NumPy 0-255 float32 64x64x1) batched by tf.data in 2 batches of 4 instead of
# utils.image_dataset_from_directory (whose shuffle would decide the batches); 1 epoch
# instead of 300; the Dropout layers left out (their random masks are drawn by TensorFlow
# inside fit); the latent vectors and label noise that train_step and the ImageGenerator
# callback draw with tf.random, and the later cells' np.random.normal, come from a seeded
# NumPy generator instead, and the model runs eagerly (run_eagerly=True in compile) so
# that the draws happen at each step; the models' weights fixed from seeded NumPy
# (adapt.fixed_weights, then BatchNormalization's moving variances set back to ones)
# instead of the random initializers; the checkpoint, TensorBoard logs and saved models
# written under a temporary folder (removed at the end) instead of the working directory;
# the display and plotting (matplotlib, the notebook's utils) left out, the callback's
# generated images and the closest training images' distances collected instead; main()
# returns fit's history, the generated images (every 8th pixel of the first two, to keep
# the answers small) and those distances.
import os
import shutil
import tempfile

import numpy as np

import tensorflow as tf
from tensorflow.keras import (
    layers,
    models,
    callbacks,
    losses,
    utils,
    metrics,
    optimizers,
)
from adapt import fixed_weights

RNG = np.random.default_rng(7)

IMAGE_SIZE = 64
CHANNELS = 1
BATCH_SIZE = 4
Z_DIM = 100
EPOCHS = 1
LOAD_MODEL = False
ADAM_BETA_1 = 0.5
ADAM_BETA_2 = 0.999
LEARNING_RATE = 0.0002
NOISE_PARAM = 0.1

discriminator_input = layers.Input(shape=(IMAGE_SIZE, IMAGE_SIZE, CHANNELS))
x = layers.Conv2D(64, kernel_size=4, strides=2, padding="same", use_bias=False)(
    discriminator_input
)
x = layers.LeakyReLU(0.2)(x)
x = layers.Conv2D(
    128, kernel_size=4, strides=2, padding="same", use_bias=False
)(x)
x = layers.BatchNormalization(momentum=0.9)(x)
x = layers.LeakyReLU(0.2)(x)
x = layers.Conv2D(
    256, kernel_size=4, strides=2, padding="same", use_bias=False
)(x)
x = layers.BatchNormalization(momentum=0.9)(x)
x = layers.LeakyReLU(0.2)(x)
x = layers.Conv2D(
    512, kernel_size=4, strides=2, padding="same", use_bias=False
)(x)
x = layers.BatchNormalization(momentum=0.9)(x)
x = layers.LeakyReLU(0.2)(x)
x = layers.Conv2D(
    1,
    kernel_size=4,
    strides=1,
    padding="valid",
    use_bias=False,
    activation="sigmoid",
)(x)
discriminator_output = layers.Flatten()(x)

discriminator = models.Model(discriminator_input, discriminator_output)
discriminator.summary()

generator_input = layers.Input(shape=(Z_DIM,))
x = layers.Reshape((1, 1, Z_DIM))(generator_input)
x = layers.Conv2DTranspose(
    512, kernel_size=4, strides=1, padding="valid", use_bias=False
)(x)
x = layers.BatchNormalization(momentum=0.9)(x)
x = layers.LeakyReLU(0.2)(x)
x = layers.Conv2DTranspose(
    256, kernel_size=4, strides=2, padding="same", use_bias=False
)(x)
x = layers.BatchNormalization(momentum=0.9)(x)
x = layers.LeakyReLU(0.2)(x)
x = layers.Conv2DTranspose(
    128, kernel_size=4, strides=2, padding="same", use_bias=False
)(x)
x = layers.BatchNormalization(momentum=0.9)(x)
x = layers.LeakyReLU(0.2)(x)
x = layers.Conv2DTranspose(
    64, kernel_size=4, strides=2, padding="same", use_bias=False
)(x)
x = layers.BatchNormalization(momentum=0.9)(x)
x = layers.LeakyReLU(0.2)(x)
generator_output = layers.Conv2DTranspose(
    CHANNELS,
    kernel_size=4,
    strides=2,
    padding="same",
    use_bias=False,
    activation="tanh",
)(x)
generator = models.Model(generator_input, generator_output)
generator.summary()


class DCGAN(models.Model):
    def __init__(self, discriminator, generator, latent_dim):
        super(DCGAN, self).__init__()
        self.discriminator = discriminator
        self.generator = generator
        self.latent_dim = latent_dim

    def compile(self, d_optimizer, g_optimizer):
        super(DCGAN, self).compile(run_eagerly=True)
        self.loss_fn = losses.BinaryCrossentropy()
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer
        self.d_loss_metric = metrics.Mean(name="d_loss")
        self.d_real_acc_metric = metrics.BinaryAccuracy(name="d_real_acc")
        self.d_fake_acc_metric = metrics.BinaryAccuracy(name="d_fake_acc")
        self.d_acc_metric = metrics.BinaryAccuracy(name="d_acc")
        self.g_loss_metric = metrics.Mean(name="g_loss")
        self.g_acc_metric = metrics.BinaryAccuracy(name="g_acc")

    @property
    def metrics(self):
        return [
            self.d_loss_metric,
            self.d_real_acc_metric,
            self.d_fake_acc_metric,
            self.d_acc_metric,
            self.g_loss_metric,
            self.g_acc_metric,
        ]

    def train_step(self, real_images):
        # Sample random points in the latent space
        batch_size = tf.shape(real_images)[0]
        random_latent_vectors = tf.constant(
            RNG.normal(size=(int(batch_size), self.latent_dim)).astype("float32")
        )

        # Train the discriminator on fake images
        with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
            generated_images = self.generator(
                random_latent_vectors, training=True
            )
            real_predictions = self.discriminator(real_images, training=True)
            fake_predictions = self.discriminator(
                generated_images, training=True
            )

            real_labels = tf.ones_like(real_predictions)
            real_noisy_labels = real_labels + NOISE_PARAM * tf.constant(
                RNG.uniform(size=tuple(real_predictions.shape)).astype("float32")
            )
            fake_labels = tf.zeros_like(fake_predictions)
            fake_noisy_labels = fake_labels - NOISE_PARAM * tf.constant(
                RNG.uniform(size=tuple(fake_predictions.shape)).astype("float32")
            )

            d_real_loss = self.loss_fn(real_noisy_labels, real_predictions)
            d_fake_loss = self.loss_fn(fake_noisy_labels, fake_predictions)
            d_loss = (d_real_loss + d_fake_loss) / 2.0

            g_loss = self.loss_fn(real_labels, fake_predictions)

        gradients_of_discriminator = disc_tape.gradient(
            d_loss, self.discriminator.trainable_variables
        )
        gradients_of_generator = gen_tape.gradient(
            g_loss, self.generator.trainable_variables
        )

        self.d_optimizer.apply_gradients(
            zip(gradients_of_discriminator, discriminator.trainable_variables)
        )
        self.g_optimizer.apply_gradients(
            zip(gradients_of_generator, generator.trainable_variables)
        )

        # Update metrics
        self.d_loss_metric.update_state(d_loss)
        self.d_real_acc_metric.update_state(real_labels, real_predictions)
        self.d_fake_acc_metric.update_state(fake_labels, fake_predictions)
        self.d_acc_metric.update_state(
            [real_labels, fake_labels], [real_predictions, fake_predictions]
        )
        self.g_loss_metric.update_state(g_loss)
        self.g_acc_metric.update_state(real_labels, fake_predictions)

        return {m.name: m.result() for m in self.metrics}


def main():
    workdir = tempfile.mkdtemp()
    images = np.random.default_rng(0).integers(0, 256, size=(8, IMAGE_SIZE, IMAGE_SIZE, CHANNELS)).astype("float32")
    train_data = tf.data.Dataset.from_tensor_slices(images).batch(BATCH_SIZE)

    def preprocess(img):
        """
        Normalize and reshape the images
        """
        img = (tf.cast(img, "float32") - 127.5) / 127.5
        return img

    train = train_data.map(lambda x: preprocess(x))

    fixed_weights(discriminator.weights + generator.weights, seed=1, scale=0.05)
    for layer in discriminator.layers + generator.layers:
        if isinstance(layer, layers.BatchNormalization):
            layer.moving_variance.assign(np.ones(layer.moving_variance.shape, np.float32))

    # Create a DCGAN
    dcgan = DCGAN(
        discriminator=discriminator, generator=generator, latent_dim=Z_DIM
    )

    if LOAD_MODEL:
        dcgan.load_weights("./checkpoint/checkpoint.ckpt")

    dcgan.compile(
        d_optimizer=optimizers.Adam(
            learning_rate=LEARNING_RATE, beta_1=ADAM_BETA_1, beta_2=ADAM_BETA_2
        ),
        g_optimizer=optimizers.Adam(
            learning_rate=LEARNING_RATE, beta_1=ADAM_BETA_1, beta_2=ADAM_BETA_2
        ),
    )

    # Create a model save checkpoint
    model_checkpoint_callback = callbacks.ModelCheckpoint(
        filepath=os.path.join(workdir, "checkpoint/checkpoint.ckpt"),
        save_weights_only=True,
        save_freq="epoch",
        verbose=0,
    )

    tensorboard_callback = callbacks.TensorBoard(log_dir=os.path.join(workdir, "logs"))

    shown = []

    class ImageGenerator(callbacks.Callback):
        def __init__(self, num_img, latent_dim):
            self.num_img = num_img
            self.latent_dim = latent_dim

        def on_epoch_end(self, epoch, logs=None):
            random_latent_vectors = tf.constant(
                RNG.normal(size=(self.num_img, self.latent_dim)).astype("float32")
            )
            generated_images = self.model.generator(random_latent_vectors)
            generated_images = generated_images * 127.5 + 127.5
            generated_images = generated_images.numpy()
            shown.append(generated_images)

    history = dcgan.fit(
        train,
        epochs=EPOCHS,
        callbacks=[
            model_checkpoint_callback,
            tensorboard_callback,
            ImageGenerator(num_img=10, latent_dim=Z_DIM),
        ],
    )

    # Save the final models
    generator.save(os.path.join(workdir, "models/generator"))
    discriminator.save(os.path.join(workdir, "models/discriminator"))

    # Sample some points in the latent space, from the standard normal distribution
    grid_width, grid_height = (10, 3)
    z_sample = RNG.normal(size=(grid_width * grid_height, Z_DIM))

    # Decode the sampled points
    reconstructions = generator.predict(z_sample)

    def compare_images(img1, img2):
        return np.mean(np.abs(img1 - img2))

    all_data = []
    for i in train.as_numpy_iterator():
        all_data.extend(i)
    all_data = np.array(all_data)

    r, c = 3, 5
    noise = RNG.normal(size=(r * c, Z_DIM))
    gen_imgs = generator.predict(noise)

    closest = []
    cnt = 0
    for i in range(r):
        for j in range(c):
            c_diff = 99999
            c_img = None
            for k_idx, k in enumerate(all_data):
                diff = compare_images(gen_imgs[cnt], k)
                if diff < c_diff:
                    c_img = np.copy(k)
                    c_diff = diff
            closest.append(c_diff)
            cnt += 1
    shutil.rmtree(workdir, ignore_errors=True)
    return {"history": history.history, "epoch_images": shown[0][:2, ::8, ::8],
            "reconstructions": reconstructions[:2, ::8, ::8], "gen_imgs": gen_imgs[:2, ::8, ::8],
            "closest_diffs": closest}
