# After: https://www.tensorflow.org/guide/keras/customizing_what_happens_in_fit
# ("Wrapping up: an end-to-end GAN example": a GAN model with its own compile and
# train_step, two optimizers, label noise)
# Adapted: dense generator and discriminator on flattened 28x28 data (the guide's are
# convolutional), seeded synthetic "digits", noise drawn from seeded NumPy in place of
# tf.random (so the model runs eagerly), fixed starting weights, one epoch of three batches.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

from adapt import data, fixed_weights

latent_dim = 16
NOISE = np.random.default_rng(7)


def noise(shape):
    return tf.constant(NOISE.normal(size=shape).astype(np.float32))


class GAN(keras.Model):
    def __init__(self, discriminator, generator, latent_dim):
        super().__init__()
        self.discriminator = discriminator
        self.generator = generator
        self.latent_dim = latent_dim
        self.d_loss_tracker = keras.metrics.Mean(name="d_loss")
        self.g_loss_tracker = keras.metrics.Mean(name="g_loss")

    def compile(self, d_optimizer, g_optimizer, loss_fn):
        super().compile(run_eagerly=True)
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer
        self.loss_fn = loss_fn

    @property
    def metrics(self):
        return [self.d_loss_tracker, self.g_loss_tracker]

    def train_step(self, real_images):
        if isinstance(real_images, tuple):
            real_images = real_images[0]
        # Sample random points in the latent space
        batch_size = tf.shape(real_images)[0]
        random_latent_vectors = noise((int(batch_size), self.latent_dim))

        # Decode them to fake images
        generated_images = self.generator(random_latent_vectors)

        # Combine them with real images
        combined_images = tf.concat([generated_images, real_images], axis=0)

        # Assemble labels discriminating real from fake images
        labels = tf.concat(
            [tf.ones((batch_size, 1)), tf.zeros((batch_size, 1))], axis=0
        )
        # Add random noise to the labels - important trick!
        labels += 0.05 * tf.constant(NOISE.uniform(size=(2 * int(batch_size), 1)),
                                     dtype=tf.float32)

        # Train the discriminator
        with tf.GradientTape() as tape:
            predictions = self.discriminator(combined_images)
            d_loss = self.loss_fn(labels, predictions)
        grads = tape.gradient(d_loss, self.discriminator.trainable_weights)
        self.d_optimizer.apply_gradients(
            zip(grads, self.discriminator.trainable_weights)
        )

        # Sample random points in the latent space
        random_latent_vectors = noise((int(batch_size), self.latent_dim))

        # Assemble labels that say "all real images"
        misleading_labels = tf.zeros((batch_size, 1))

        # Train the generator (note that we should *not* update the weights
        # of the discriminator)!
        with tf.GradientTape() as tape:
            predictions = self.discriminator(self.generator(random_latent_vectors))
            g_loss = self.loss_fn(misleading_labels, predictions)
        grads = tape.gradient(g_loss, self.generator.trainable_weights)
        self.g_optimizer.apply_gradients(zip(grads, self.generator.trainable_weights))

        # Update metrics and return their value.
        self.d_loss_tracker.update_state(d_loss)
        self.g_loss_tracker.update_state(g_loss)
        return {
            "d_loss": self.d_loss_tracker.result(),
            "g_loss": self.g_loss_tracker.result(),
        }


def main():
    discriminator = keras.Sequential(
        [
            keras.Input(shape=(784,)),
            layers.Dense(64),
            layers.LeakyReLU(alpha=0.2),
            layers.Dense(1),
        ],
        name="discriminator",
    )
    generator = keras.Sequential(
        [
            keras.Input(shape=(latent_dim,)),
            layers.Dense(64),
            layers.LeakyReLU(alpha=0.2),
            layers.Dense(784, activation="sigmoid"),
        ],
        name="generator",
    )
    fixed_weights(discriminator.trainable_weights, seed=1, scale=0.1)
    fixed_weights(generator.trainable_weights, seed=2, scale=0.1)

    all_digits = data(0, 24, 784, low=0, high=1)
    dataset = tf.data.Dataset.from_tensor_slices(all_digits)
    dataset = dataset.shuffle(buffer_size=1).batch(8)

    gan = GAN(discriminator=discriminator, generator=generator, latent_dim=latent_dim)
    gan.compile(
        d_optimizer=keras.optimizers.Adam(learning_rate=0.0003),
        g_optimizer=keras.optimizers.Adam(learning_rate=0.0003),
        loss_fn=keras.losses.BinaryCrossentropy(from_logits=True),
    )
    history = gan.fit(dataset, epochs=1, verbose=0)
    return {"d_loss": history.history["d_loss"], "g_loss": history.history["g_loss"],
            "d_kernel": discriminator.layers[-1].kernel}
