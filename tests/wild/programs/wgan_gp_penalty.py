# After: https://keras.io/examples/generative/wgan_gp/ (WGAN class: gradient_penalty
# with interpolated images and tf.norm of the critic's input gradients, train_step with
# d_steps critic updates, discriminator_loss and generator_loss, Adam(beta_1=0.5, beta_2=0.9))
# Adapted: dense critic and generator on flattened 28x28 data (the example's are
# convolutional, so tf.norm runs over axis 1 instead of [1, 2, 3]), noise from seeded
# NumPy in place of tf.random (so the model runs eagerly), fixed starting weights,
# seeded synthetic "images", one epoch of two batches.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

from adapt import data, fixed_weights

NOISE = np.random.default_rng(5)


class WGAN(keras.Model):
    def __init__(self, discriminator, generator, latent_dim, discriminator_extra_steps=3,
                 gp_weight=10.0):
        super().__init__()
        self.discriminator = discriminator
        self.generator = generator
        self.latent_dim = latent_dim
        self.d_steps = discriminator_extra_steps
        self.gp_weight = gp_weight

    def compile(self, d_optimizer, g_optimizer, d_loss_fn, g_loss_fn):
        super().compile(run_eagerly=True)
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer
        self.d_loss_fn = d_loss_fn
        self.g_loss_fn = g_loss_fn

    def gradient_penalty(self, batch_size, real_images, fake_images):
        """Calculates the gradient penalty.

        This loss is calculated on an interpolated image
        and added to the discriminator loss.
        """
        # Get the interpolated image
        alpha = tf.constant(NOISE.normal(size=(batch_size, 1)).astype(np.float32))
        diff = fake_images - real_images
        interpolated = real_images + alpha * diff

        with tf.GradientTape() as gp_tape:
            gp_tape.watch(interpolated)
            # 1. Get the discriminator output for this interpolated image.
            pred = self.discriminator(interpolated, training=True)

        # 2. Calculate the gradients w.r.t to this interpolated image.
        grads = gp_tape.gradient(pred, [interpolated])[0]
        # 3. Calculate the norm of the gradients.
        norm = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=[1]))
        gp = tf.reduce_mean((norm - 1.0) ** 2)
        return gp

    def train_step(self, real_images):
        if isinstance(real_images, tuple):
            real_images = real_images[0]

        # Get the batch size
        batch_size = int(tf.shape(real_images)[0])

        for i in range(self.d_steps):
            # Get the latent vector
            random_latent_vectors = tf.constant(
                NOISE.normal(size=(batch_size, self.latent_dim)).astype(np.float32))
            with tf.GradientTape() as tape:
                # Generate fake images from the latent vector
                fake_images = self.generator(random_latent_vectors, training=True)
                # Get the logits for the fake images
                fake_logits = self.discriminator(fake_images, training=True)
                # Get the logits for the real images
                real_logits = self.discriminator(real_images, training=True)

                # Calculate the discriminator loss using the fake and real image logits
                d_cost = self.d_loss_fn(real_img=real_logits, fake_img=fake_logits)
                # Calculate the gradient penalty
                gp = self.gradient_penalty(batch_size, real_images, fake_images)
                # Add the gradient penalty to the original discriminator loss
                d_loss = d_cost + gp * self.gp_weight

            # Get the gradients w.r.t the discriminator loss
            d_gradient = tape.gradient(d_loss, self.discriminator.trainable_variables)
            # Update the weights of the discriminator using the discriminator optimizer
            self.d_optimizer.apply_gradients(
                zip(d_gradient, self.discriminator.trainable_variables)
            )

        # Train the generator
        # Get the latent vector
        random_latent_vectors = tf.constant(
            NOISE.normal(size=(batch_size, self.latent_dim)).astype(np.float32))
        with tf.GradientTape() as tape:
            # Generate fake images using the generator
            generated_images = self.generator(random_latent_vectors, training=True)
            # Get the discriminator logits for fake images
            gen_img_logits = self.discriminator(generated_images, training=True)
            # Calculate the generator loss
            g_loss = self.g_loss_fn(gen_img_logits)

        # Get the gradients w.r.t the generator loss
        gen_gradient = tape.gradient(g_loss, self.generator.trainable_variables)
        # Update the weights of the generator using the generator optimizer
        self.g_optimizer.apply_gradients(
            zip(gen_gradient, self.generator.trainable_variables)
        )
        return {"d_loss": d_loss, "g_loss": g_loss}


# Define the loss functions for the discriminator,
# which should be (fake_loss - real_loss).
# We will add the gradient penalty later to this loss function.
def discriminator_loss(real_img, fake_img):
    real_loss = tf.reduce_mean(real_img)
    fake_loss = tf.reduce_mean(fake_img)
    return fake_loss - real_loss


# Define the loss functions for the generator.
def generator_loss(fake_img):
    return -tf.reduce_mean(fake_img)


def main():
    noise_dim = 16
    d_model = keras.Sequential([keras.Input(shape=(784,)), layers.Dense(32),
                                layers.LeakyReLU(0.2), layers.Dense(1)], name="discriminator")
    g_model = keras.Sequential([keras.Input(shape=(noise_dim,)), layers.Dense(32),
                                layers.LeakyReLU(0.2), layers.Dense(784, activation="tanh")],
                               name="generator")
    fixed_weights(d_model.trainable_variables, seed=1, scale=0.1)
    fixed_weights(g_model.trainable_variables, seed=2, scale=0.1)
    generator_optimizer = keras.optimizers.Adam(learning_rate=0.0002, beta_1=0.5, beta_2=0.9)
    discriminator_optimizer = keras.optimizers.Adam(learning_rate=0.0002, beta_1=0.5,
                                                    beta_2=0.9)
    wgan = WGAN(discriminator=d_model, generator=g_model, latent_dim=noise_dim,
                discriminator_extra_steps=3)
    wgan.compile(d_optimizer=discriminator_optimizer, g_optimizer=generator_optimizer,
                 g_loss_fn=generator_loss, d_loss_fn=discriminator_loss)
    train_images = data(0, 16, 784)
    history = wgan.fit(train_images, batch_size=8, epochs=1, verbose=0, shuffle=False)
    return {"d_loss": history.history["d_loss"], "g_loss": history.history["g_loss"],
            "critic_out": d_model.layers[-1].kernel}
