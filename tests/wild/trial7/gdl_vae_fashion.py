# After: https://github.com/davidADSP/Generative_Deep_Learning_2nd_Edition (notebooks/03_vae/02_vae_fashion/vae_fashion.ipynb)
# Adapted: the notebook's code cells placed one after another (the Sampling layer, the
# encoder, the decoder and the VAE class at module level, the rest in main()); 100
# training and 20 test images of Fashion-MNIST's shape and dtype (seeded NumPy uint8
# 28x28, labels 0-9) instead of datasets.fashion_mnist.load_data(), so that fit's data is
# one batch of 100, and shuffle=False in fit instead of True (within the one batch the
# shuffle would still decide which image meets which row of the fixed epsilon draw, and
# the order of the loss's sums: TensorFlow's own two runs differed by it); 2 epochs instead of 5; Sampling's
# epsilon one seeded NumPy draw (sliced to the batch) instead of K.random_normal, and the
# VAE compiled with run_eagerly=True; the latent samples drawn from seeded NumPy instead
# of np.random.normal; n_to_predict 20 instead of 5000; the models' weights fixed from
# seeded NumPy (adapt.fixed_weights) instead of the random initializers; the checkpoint,
# TensorBoard logs and saved models written under a temporary folder (removed at the end)
# instead of the working directory; the display and plotting cells (matplotlib, the
# notebook's utils) left out, with the two last cells, whose scipy.stats.norm serves the
# plots (and a grid for them); main() returns fit's history, the predictions, the
# embeddings and the decoded samples (every 4th pixel of two images, to keep the answers
# small).
import os
import shutil
import tempfile

import numpy as np

import tensorflow as tf
import tensorflow.keras.backend as K
from tensorflow.keras import (
    layers,
    models,
    datasets,
    callbacks,
    losses,
    optimizers,
    metrics,
)
from adapt import fixed_weights

EPSILON = np.random.default_rng(11).normal(size=(100, 2)).astype("float32")

IMAGE_SIZE = 32
BATCH_SIZE = 100
VALIDATION_SPLIT = 0.2
EMBEDDING_DIM = 2
EPOCHS = 2
BETA = 500


class Sampling(layers.Layer):
    def call(self, inputs):
        z_mean, z_log_var = inputs
        batch = tf.shape(z_mean)[0]
        dim = tf.shape(z_mean)[1]
        epsilon = tf.constant(EPSILON)[:batch, :dim]
        return z_mean + tf.exp(0.5 * z_log_var) * epsilon


# Encoder
encoder_input = layers.Input(
    shape=(IMAGE_SIZE, IMAGE_SIZE, 1), name="encoder_input"
)
x = layers.Conv2D(32, (3, 3), strides=2, activation="relu", padding="same")(
    encoder_input
)
x = layers.Conv2D(64, (3, 3), strides=2, activation="relu", padding="same")(x)
x = layers.Conv2D(128, (3, 3), strides=2, activation="relu", padding="same")(x)
shape_before_flattening = K.int_shape(x)[1:]  # the decoder will need this!

x = layers.Flatten()(x)
z_mean = layers.Dense(EMBEDDING_DIM, name="z_mean")(x)
z_log_var = layers.Dense(EMBEDDING_DIM, name="z_log_var")(x)
z = Sampling()([z_mean, z_log_var])

encoder = models.Model(encoder_input, [z_mean, z_log_var, z], name="encoder")
encoder.summary()

# Decoder
decoder_input = layers.Input(shape=(EMBEDDING_DIM,), name="decoder_input")
x = layers.Dense(np.prod(shape_before_flattening))(decoder_input)
x = layers.Reshape(shape_before_flattening)(x)
x = layers.Conv2DTranspose(
    128, (3, 3), strides=2, activation="relu", padding="same"
)(x)
x = layers.Conv2DTranspose(
    64, (3, 3), strides=2, activation="relu", padding="same"
)(x)
x = layers.Conv2DTranspose(
    32, (3, 3), strides=2, activation="relu", padding="same"
)(x)
decoder_output = layers.Conv2D(
    1,
    (3, 3),
    strides=1,
    activation="sigmoid",
    padding="same",
    name="decoder_output",
)(x)

decoder = models.Model(decoder_input, decoder_output)
decoder.summary()


class VAE(models.Model):
    def __init__(self, encoder, decoder, **kwargs):
        super(VAE, self).__init__(**kwargs)
        self.encoder = encoder
        self.decoder = decoder
        self.total_loss_tracker = metrics.Mean(name="total_loss")
        self.reconstruction_loss_tracker = metrics.Mean(
            name="reconstruction_loss"
        )
        self.kl_loss_tracker = metrics.Mean(name="kl_loss")

    @property
    def metrics(self):
        return [
            self.total_loss_tracker,
            self.reconstruction_loss_tracker,
            self.kl_loss_tracker,
        ]

    def call(self, inputs):
        """Call the model on a particular input."""
        z_mean, z_log_var, z = encoder(inputs)
        reconstruction = decoder(z)
        return z_mean, z_log_var, reconstruction

    def train_step(self, data):
        """Step run during training."""
        with tf.GradientTape() as tape:
            z_mean, z_log_var, reconstruction = self(data)
            reconstruction_loss = tf.reduce_mean(
                BETA
                * losses.binary_crossentropy(
                    data, reconstruction, axis=(1, 2, 3)
                )
            )
            kl_loss = tf.reduce_mean(
                tf.reduce_sum(
                    -0.5
                    * (1 + z_log_var - tf.square(z_mean) - tf.exp(z_log_var)),
                    axis=1,
                )
            )
            total_loss = reconstruction_loss + kl_loss

        grads = tape.gradient(total_loss, self.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.trainable_weights))

        self.total_loss_tracker.update_state(total_loss)
        self.reconstruction_loss_tracker.update_state(reconstruction_loss)
        self.kl_loss_tracker.update_state(kl_loss)

        return {m.name: m.result() for m in self.metrics}

    def test_step(self, data):
        """Step run during validation."""
        if isinstance(data, tuple):
            data = data[0]

        z_mean, z_log_var, reconstruction = self(data)
        reconstruction_loss = tf.reduce_mean(
            BETA
            * losses.binary_crossentropy(data, reconstruction, axis=(1, 2, 3))
        )
        kl_loss = tf.reduce_mean(
            tf.reduce_sum(
                -0.5 * (1 + z_log_var - tf.square(z_mean) - tf.exp(z_log_var)),
                axis=1,
            )
        )
        total_loss = reconstruction_loss + kl_loss

        return {
            "loss": total_loss,
            "reconstruction_loss": reconstruction_loss,
            "kl_loss": kl_loss,
        }


def main():
    workdir = tempfile.mkdtemp()
    # Load the data
    rng = np.random.default_rng(0)
    (x_train, y_train), (x_test, y_test) = (
        (rng.integers(0, 256, size=(100, 28, 28)).astype(np.uint8), rng.integers(0, 10, size=100).astype(np.uint8)),
        (rng.integers(0, 256, size=(20, 28, 28)).astype(np.uint8), rng.integers(0, 10, size=20).astype(np.uint8)))

    # Preprocess the data
    def preprocess(imgs):
        """
        Normalize and reshape the images
        """
        imgs = imgs.astype("float32") / 255.0
        imgs = np.pad(imgs, ((0, 0), (2, 2), (2, 2)), constant_values=0.0)
        imgs = np.expand_dims(imgs, -1)
        return imgs

    x_train = preprocess(x_train)
    x_test = preprocess(x_test)

    fixed_weights(encoder.weights + decoder.weights, seed=1, scale=0.1)

    # Create a variational autoencoder
    vae = VAE(encoder, decoder)

    # Compile the variational autoencoder
    optimizer = optimizers.Adam(learning_rate=0.0005)
    vae.compile(optimizer=optimizer, run_eagerly=True)

    # Create a model save checkpoint
    model_checkpoint_callback = callbacks.ModelCheckpoint(
        filepath=os.path.join(workdir, "checkpoint"),
        save_weights_only=False,
        save_freq="epoch",
        monitor="loss",
        mode="min",
        save_best_only=True,
        verbose=0,
    )
    tensorboard_callback = callbacks.TensorBoard(log_dir=os.path.join(workdir, "logs"))

    history = vae.fit(
        x_train,
        epochs=EPOCHS,
        batch_size=BATCH_SIZE,
        shuffle=False,
        validation_data=(x_test, x_test),
        callbacks=[model_checkpoint_callback, tensorboard_callback],
    )

    # Save the final models
    vae.save(os.path.join(workdir, "models/vae"))
    encoder.save(os.path.join(workdir, "models/encoder"))
    decoder.save(os.path.join(workdir, "models/decoder"))

    # Select a subset of the test set
    n_to_predict = 20
    example_images = x_test[:n_to_predict]
    example_labels = y_test[:n_to_predict]

    # Create autoencoder predictions and display
    z_mean, z_log_var, reconstructions = vae.predict(example_images)

    # Encode the example images
    z_mean, z_var, z = encoder.predict(example_images)

    # Some examples of the embeddings
    print(z[:10])

    # Sample some points in the latent space, from the standard normal distribution
    grid_width, grid_height = (6, 3)
    z_sample = np.random.default_rng(2).normal(size=(grid_width * grid_height, 2))

    # Decode the sampled points
    sampled = decoder.predict(z_sample)
    shutil.rmtree(workdir, ignore_errors=True)
    return {"history": history.history, "reconstructions": reconstructions[:2, ::4, ::4], "z_mean": z_mean,
            "z_var": z_var, "z": z, "sampled": sampled[:2, ::4, ::4]}
