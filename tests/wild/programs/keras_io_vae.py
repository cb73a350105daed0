# After: https://keras.io/examples/generative/vae/ (the tf.keras version: the Sampling layer,
# a convolutional encoder and Conv2DTranspose decoder, a VAE keras.Model whose train_step
# computes reconstruction and KL losses under a GradientTape, loss trackers, fit)
# Adapted: 12 seeded synthetic 28x28 "digits" instead of MNIST, fewer filters (8/16 instead of
# 32/64), one epoch of 3 batches, fixed weights; Sampling's epsilon is one seeded NumPy draw
# instead of tf.keras.backend.random_normal (run_eagerly).
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import data, fixed_weights

EPSILON = np.random.default_rng(11).normal(size=(4, 2)).astype("float32")


class Sampling(layers.Layer):
    """Uses (z_mean, z_log_var) to sample z, the vector encoding a digit."""

    def call(self, inputs):
        z_mean, z_log_var = inputs
        batch = tf.shape(z_mean)[0]
        dim = tf.shape(z_mean)[1]
        # The seeded stand-in for tf.keras.backend.random_normal(shape=(batch, dim)): one
        # fixed draw (no batch here has more than 4 rows), the same at every call, since
        # building the functional model calls this a different number of times in each library.
        epsilon = tf.constant(EPSILON)[:batch]
        return z_mean + tf.exp(0.5 * z_log_var) * epsilon


latent_dim = 2

encoder_inputs = keras.Input(shape=(28, 28, 1))
x = layers.Conv2D(8, 3, activation="relu", strides=2, padding="same")(encoder_inputs)
x = layers.Conv2D(16, 3, activation="relu", strides=2, padding="same")(x)
x = layers.Flatten()(x)
x = layers.Dense(16, activation="relu")(x)
z_mean = layers.Dense(latent_dim, name="z_mean")(x)
z_log_var = layers.Dense(latent_dim, name="z_log_var")(x)
z = Sampling()([z_mean, z_log_var])
encoder = keras.Model(encoder_inputs, [z_mean, z_log_var, z], name="encoder")

latent_inputs = keras.Input(shape=(latent_dim,))
x = layers.Dense(7 * 7 * 16, activation="relu")(latent_inputs)
x = layers.Reshape((7, 7, 16))(x)
x = layers.Conv2DTranspose(16, 3, activation="relu", strides=2, padding="same")(x)
x = layers.Conv2DTranspose(8, 3, activation="relu", strides=2, padding="same")(x)
decoder_outputs = layers.Conv2DTranspose(1, 3, activation="sigmoid", padding="same")(x)
decoder = keras.Model(latent_inputs, decoder_outputs, name="decoder")


class VAE(keras.Model):
    def __init__(self, encoder, decoder, **kwargs):
        super().__init__(**kwargs)
        self.encoder = encoder
        self.decoder = decoder
        self.total_loss_tracker = keras.metrics.Mean(name="total_loss")
        self.reconstruction_loss_tracker = keras.metrics.Mean(
            name="reconstruction_loss"
        )
        self.kl_loss_tracker = keras.metrics.Mean(name="kl_loss")

    @property
    def metrics(self):
        return [
            self.total_loss_tracker,
            self.reconstruction_loss_tracker,
            self.kl_loss_tracker,
        ]

    def train_step(self, data):
        with tf.GradientTape() as tape:
            z_mean, z_log_var, z = self.encoder(data)
            reconstruction = self.decoder(z)
            reconstruction_loss = tf.reduce_mean(
                tf.reduce_sum(
                    keras.losses.binary_crossentropy(data, reconstruction), axis=(1, 2)
                )
            )
            kl_loss = -0.5 * (1 + z_log_var - tf.square(z_mean) - tf.exp(z_log_var))
            kl_loss = tf.reduce_mean(tf.reduce_sum(kl_loss, axis=1))
            total_loss = reconstruction_loss + kl_loss
        grads = tape.gradient(total_loss, self.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.trainable_weights))
        self.total_loss_tracker.update_state(total_loss)
        self.reconstruction_loss_tracker.update_state(reconstruction_loss)
        self.kl_loss_tracker.update_state(kl_loss)
        return {
            "loss": self.total_loss_tracker.result(),
            "reconstruction_loss": self.reconstruction_loss_tracker.result(),
            "kl_loss": self.kl_loss_tracker.result(),
        }


def main():
    x_train = np.round(data(1, 8, 28, 28, low=0, high=255))
    x_test = np.round(data(2, 4, 28, 28, low=0, high=255))
    mnist_digits = np.concatenate([x_train, x_test], axis=0)
    mnist_digits = np.expand_dims(mnist_digits, -1).astype("float32") / 255
    fixed_weights(encoder.trainable_weights, seed=3, scale=0.15)
    fixed_weights(decoder.trainable_weights, seed=4, scale=0.15)

    vae = VAE(encoder, decoder)
    vae.compile(optimizer=keras.optimizers.Adam(), run_eagerly=True)
    history = vae.fit(mnist_digits, epochs=1, batch_size=4, shuffle=False, verbose=0)
    z_mean, _, _ = vae.encoder.predict(mnist_digits[:4], verbose=0)
    return {"history": history.history, "z_mean": z_mean,
            "dec_sums": [tf.reduce_sum(w) for w in decoder.trainable_weights]}
