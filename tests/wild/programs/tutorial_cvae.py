# After: https://www.tensorflow.org/tutorials/generative/cvae (the CVAE tf.keras.Model with
# Sequential InputLayer/Conv2D/Flatten/Dense encoder and Dense/Reshape/Conv2DTranspose decoder,
# reparameterize, log_normal_pdf, compute_loss with sigmoid cross-entropy, tf.function train_step)
# Adapted: 8 seeded synthetic binarized 28x28 "digits" instead of MNIST, fewer filters (4/8),
# 2 epochs of 2 batches; fixed weights; reparameterize's eps is one seeded NumPy draw.
import numpy as np
import tensorflow as tf
from adapt import data, fixed_weights

EPS = np.random.default_rng(5).normal(size=(4, 2)).astype("float32")


class CVAE(tf.keras.Model):
  """Convolutional variational autoencoder."""

  def __init__(self, latent_dim):
    super(CVAE, self).__init__()
    self.latent_dim = latent_dim
    self.encoder = tf.keras.Sequential(
        [
            tf.keras.layers.InputLayer(input_shape=(28, 28, 1)),
            tf.keras.layers.Conv2D(
                filters=4, kernel_size=3, strides=(2, 2), activation='relu'),
            tf.keras.layers.Conv2D(
                filters=8, kernel_size=3, strides=(2, 2), activation='relu'),
            tf.keras.layers.Flatten(),
            # No activation
            tf.keras.layers.Dense(latent_dim + latent_dim),
        ]
    )

    self.decoder = tf.keras.Sequential(
        [
            tf.keras.layers.InputLayer(input_shape=(latent_dim,)),
            tf.keras.layers.Dense(units=7*7*8, activation=tf.nn.relu),
            tf.keras.layers.Reshape(target_shape=(7, 7, 8)),
            tf.keras.layers.Conv2DTranspose(
                filters=8, kernel_size=3, strides=2, padding='same',
                activation='relu'),
            tf.keras.layers.Conv2DTranspose(
                filters=4, kernel_size=3, strides=2, padding='same',
                activation='relu'),
            # No activation
            tf.keras.layers.Conv2DTranspose(
                filters=1, kernel_size=3, strides=1, padding='same'),
        ]
    )

  @tf.function
  def sample(self, eps=None):
    if eps is None:
      eps = tf.random.normal(shape=(100, self.latent_dim))
    return self.decode(eps, apply_sigmoid=True)

  def encode(self, x):
    mean, logvar = tf.split(self.encoder(x), num_or_size_splits=2, axis=1)
    return mean, logvar

  def reparameterize(self, mean, logvar):
    # One fixed seeded draw instead of tf.random.normal: under tf.function TensorFlow
    # draws a NumPy value once per trace, so it must not change between calls.
    eps = tf.constant(EPS[:mean.shape[0]])
    return eps * tf.exp(logvar * .5) + mean

  def decode(self, z, apply_sigmoid=False):
    logits = self.decoder(z)
    if apply_sigmoid:
      probs = tf.sigmoid(logits)
      return probs
    return logits


optimizer = tf.keras.optimizers.Adam(1e-4)


def log_normal_pdf(sample, mean, logvar, raxis=1):
  log2pi = tf.math.log(2. * np.pi)
  return tf.reduce_sum(
      -.5 * ((sample - mean) ** 2. * tf.exp(-logvar) + logvar + log2pi),
      axis=raxis)


def compute_loss(model, x):
  mean, logvar = model.encode(x)
  z = model.reparameterize(mean, logvar)
  x_logit = model.decode(z)
  cross_ent = tf.nn.sigmoid_cross_entropy_with_logits(logits=x_logit, labels=x)
  logpx_z = -tf.reduce_sum(cross_ent, axis=[1, 2, 3])
  logpz = log_normal_pdf(z, 0., 0.)
  logqz_x = log_normal_pdf(z, mean, logvar)
  return -tf.reduce_mean(logpx_z + logpz - logqz_x)


@tf.function
def train_step(model, x, optimizer):
  """Executes one training step and returns the loss.

  This function computes the loss and gradients, and uses the latter to
  update the model's parameters.
  """
  with tf.GradientTape() as tape:
    loss = compute_loss(model, x)
  gradients = tape.gradient(loss, model.trainable_variables)
  optimizer.apply_gradients(zip(gradients, model.trainable_variables))


def preprocess_images(images):
  images = images.reshape((images.shape[0], 28, 28, 1)) / 255.
  return np.where(images > .5, 1.0, 0.0).astype('float32')


def main():
    train_images = preprocess_images(np.round(data(1, 8, 28, 28, low=0, high=255)))
    test_images = preprocess_images(np.round(data(2, 4, 28, 28, low=0, high=255)))
    batch_size = 4
    train_dataset = tf.data.Dataset.from_tensor_slices(train_images).batch(batch_size)
    test_dataset = tf.data.Dataset.from_tensor_slices(test_images).batch(batch_size)

    epochs = 2
    latent_dim = 2
    model = CVAE(latent_dim)
    fixed_weights(model.trainable_variables, seed=3, scale=0.2)
    elbos = []
    for epoch in range(1, epochs + 1):
      for train_x in train_dataset:
        train_step(model, train_x, optimizer)
      loss = tf.keras.metrics.Mean()
      for test_x in test_dataset:
        loss(compute_loss(model, test_x))
      elbo = -loss.result()
      elbos.append(elbo)
    probs = model.sample(tf.constant([[0.5, -0.5], [0.0, 1.0]]))
    return {"elbos": elbos, "probs_mean": tf.reduce_mean(probs), "probs_corner": probs[:, :2, :2, 0],
            "enc_sums": [tf.reduce_sum(v) for v in model.encoder.trainable_variables]}
