# After: https://github.com/davidADSP/Generative_Deep_Learning_2nd_Edition (notebooks/04_gan/02_wgan_gp/wgan_gp.ipynb)
# Adapted: the notebook's code cells placed one after another (the models and the WGANGP
# class at module level, the rest in main()); 8 images of the CelebA faces' shape
# (seeded NumPy 0-255 float32 64x64x3) batched by tf.data in 2 batches of 4 instead of
# utils.image_dataset_from_directory (whose shuffle would decide the batches); 1 epoch
# instead of 200 (steps_per_epoch=2 as written); the Dropout layers left out (their random
# masks are drawn by TensorFlow inside fit); the latent vectors and interpolation weights
# that train_step, gradient_penalty and the ImageGenerator callback draw with tf.random,
# and the last cell's np.random.normal, come from a seeded NumPy generator instead, and
# the model runs eagerly (run_eagerly=True in compile) so that the draws happen at each
# step; the models' weights fixed from seeded NumPy (adapt.fixed_weights, then
# BatchNormalization's moving variances set back to ones) instead of the random
# initializers; the checkpoint, TensorBoard logs and saved models written under a
# temporary folder (removed at the end) instead of the working directory; the display
# (matplotlib, the notebook's utils) left out, the callback's generated images collected
# instead; main() returns fit's history and the generated images (every 8th pixel of the
# first two, to keep the answers small).
import os
import shutil
import tempfile

import numpy as np

import tensorflow as tf
from tensorflow.keras import (
    layers,
    models,
    callbacks,
    utils,
    metrics,
    optimizers,
)
from adapt import fixed_weights

RNG = np.random.default_rng(7)

IMAGE_SIZE = 64
CHANNELS = 3
BATCH_SIZE = 4
NUM_FEATURES = 64
Z_DIM = 128
LEARNING_RATE = 0.0002
ADAM_BETA_1 = 0.5
ADAM_BETA_2 = 0.999
EPOCHS = 1
CRITIC_STEPS = 3
GP_WEIGHT = 10.0
LOAD_MODEL = False
ADAM_BETA_1 = 0.5
ADAM_BETA_2 = 0.9

critic_input = layers.Input(shape=(IMAGE_SIZE, IMAGE_SIZE, CHANNELS))
x = layers.Conv2D(64, kernel_size=4, strides=2, padding="same")(critic_input)
x = layers.LeakyReLU(0.2)(x)
x = layers.Conv2D(128, kernel_size=4, strides=2, padding="same")(x)
x = layers.LeakyReLU()(x)
x = layers.Conv2D(256, kernel_size=4, strides=2, padding="same")(x)
x = layers.LeakyReLU(0.2)(x)
x = layers.Conv2D(512, kernel_size=4, strides=2, padding="same")(x)
x = layers.LeakyReLU(0.2)(x)
x = layers.Conv2D(1, kernel_size=4, strides=1, padding="valid")(x)
critic_output = layers.Flatten()(x)

critic = models.Model(critic_input, critic_output)
critic.summary()

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
    CHANNELS, kernel_size=4, strides=2, padding="same", activation="tanh"
)(x)
generator = models.Model(generator_input, generator_output)
generator.summary()


class WGANGP(models.Model):
    def __init__(self, critic, generator, latent_dim, critic_steps, gp_weight):
        super(WGANGP, self).__init__()
        self.critic = critic
        self.generator = generator
        self.latent_dim = latent_dim
        self.critic_steps = critic_steps
        self.gp_weight = gp_weight

    def compile(self, c_optimizer, g_optimizer):
        super(WGANGP, self).compile(run_eagerly=True)
        self.c_optimizer = c_optimizer
        self.g_optimizer = g_optimizer
        self.c_wass_loss_metric = metrics.Mean(name="c_wass_loss")
        self.c_gp_metric = metrics.Mean(name="c_gp")
        self.c_loss_metric = metrics.Mean(name="c_loss")
        self.g_loss_metric = metrics.Mean(name="g_loss")

    @property
    def metrics(self):
        return [
            self.c_loss_metric,
            self.c_wass_loss_metric,
            self.c_gp_metric,
            self.g_loss_metric,
        ]

    def gradient_penalty(self, batch_size, real_images, fake_images):
        alpha = tf.constant(RNG.normal(0.0, 1.0, size=(int(batch_size), 1, 1, 1)).astype("float32"))
        diff = fake_images - real_images
        interpolated = real_images + alpha * diff

        with tf.GradientTape() as gp_tape:
            gp_tape.watch(interpolated)
            pred = self.critic(interpolated, training=True)

        grads = gp_tape.gradient(pred, [interpolated])[0]
        norm = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=[1, 2, 3]))
        gp = tf.reduce_mean((norm - 1.0) ** 2)
        return gp

    def train_step(self, real_images):
        batch_size = tf.shape(real_images)[0]

        for i in range(self.critic_steps):
            random_latent_vectors = tf.constant(
                RNG.normal(size=(int(batch_size), self.latent_dim)).astype("float32")
            )

            with tf.GradientTape() as tape:
                fake_images = self.generator(
                    random_latent_vectors, training=True
                )
                fake_predictions = self.critic(fake_images, training=True)
                real_predictions = self.critic(real_images, training=True)

                c_wass_loss = tf.reduce_mean(fake_predictions) - tf.reduce_mean(
                    real_predictions
                )
                c_gp = self.gradient_penalty(
                    batch_size, real_images, fake_images
                )
                c_loss = c_wass_loss + c_gp * self.gp_weight

            c_gradient = tape.gradient(c_loss, self.critic.trainable_variables)
            self.c_optimizer.apply_gradients(
                zip(c_gradient, self.critic.trainable_variables)
            )

        random_latent_vectors = tf.constant(
            RNG.normal(size=(int(batch_size), self.latent_dim)).astype("float32")
        )
        with tf.GradientTape() as tape:
            fake_images = self.generator(random_latent_vectors, training=True)
            fake_predictions = self.critic(fake_images, training=True)
            g_loss = -tf.reduce_mean(fake_predictions)

        gen_gradient = tape.gradient(g_loss, self.generator.trainable_variables)
        self.g_optimizer.apply_gradients(
            zip(gen_gradient, self.generator.trainable_variables)
        )

        self.c_loss_metric.update_state(c_loss)
        self.c_wass_loss_metric.update_state(c_wass_loss)
        self.c_gp_metric.update_state(c_gp)
        self.g_loss_metric.update_state(g_loss)

        return {m.name: m.result() for m in self.metrics}


def main():
    workdir = tempfile.mkdtemp()
    # Load the data
    images = np.random.default_rng(0).integers(0, 256, size=(8, IMAGE_SIZE, IMAGE_SIZE, CHANNELS)).astype("float32")
    train_data = tf.data.Dataset.from_tensor_slices(images).batch(BATCH_SIZE)

    # Preprocess the data
    def preprocess(img):
        """
        Normalize and reshape the images
        """
        img = (tf.cast(img, "float32") - 127.5) / 127.5
        return img

    train = train_data.map(lambda x: preprocess(x))

    fixed_weights(critic.weights + generator.weights, seed=1, scale=0.05)
    for layer in generator.layers:
        if isinstance(layer, layers.BatchNormalization):
            layer.moving_variance.assign(np.ones(layer.moving_variance.shape, np.float32))

    # Create a GAN
    wgangp = WGANGP(
        critic=critic,
        generator=generator,
        latent_dim=Z_DIM,
        critic_steps=CRITIC_STEPS,
        gp_weight=GP_WEIGHT,
    )

    if LOAD_MODEL:
        wgangp.load_weights("./checkpoint/checkpoint.ckpt")

    # Compile the GAN
    wgangp.compile(
        c_optimizer=optimizers.Adam(
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

    history = wgangp.fit(
        train,
        epochs=EPOCHS,
        steps_per_epoch=2,
        callbacks=[
            model_checkpoint_callback,
            tensorboard_callback,
            ImageGenerator(num_img=10, latent_dim=Z_DIM),
        ],
    )

    # Save the final models
    generator.save(os.path.join(workdir, "models/generator"))
    critic.save(os.path.join(workdir, "models/critic"))

    z_sample = RNG.normal(size=(10, Z_DIM))
    imgs = wgangp.generator.predict(z_sample)
    shutil.rmtree(workdir, ignore_errors=True)
    return {"history": history.history, "epoch_images": shown[0][:2, ::8, ::8],
            "imgs": imgs[:2, ::8, ::8]}
