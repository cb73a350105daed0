# After: https://www.tensorflow.org/tutorials/generative/dcgan (make_generator_model with
# Dense/BatchNormalization/LeakyReLU/Reshape/Conv2DTranspose and its output_shape asserts,
# make_discriminator_model, discriminator_loss and generator_loss on
# BinaryCrossentropy(from_logits=True), two Adam(1e-4), the @tf.function train_step with
# two GradientTapes)
# Adapted: 8 seeded synthetic 28x28x1 images in [-1, 1] instead of MNIST, BATCH_SIZE 4,
# 2 epochs; fixed starting weights; the noise comes from seeded NumPy and is passed to
# train_step (tf.random.normal's stream differs between libraries); the Dropout(0.3) layers
# left out (their random masks differ between libraries).
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers
from adapt import data, fixed_weights

BATCH_SIZE = 4
noise_dim = 100


def make_generator_model():
    model = tf.keras.Sequential()
    model.add(layers.Dense(7*7*256, use_bias=False, input_shape=(100,)))
    model.add(layers.BatchNormalization())
    model.add(layers.LeakyReLU())

    model.add(layers.Reshape((7, 7, 256)))
    assert model.output_shape == (None, 7, 7, 256)  # Note: None is the batch size

    model.add(layers.Conv2DTranspose(128, (5, 5), strides=(1, 1), padding='same', use_bias=False))
    assert model.output_shape == (None, 7, 7, 128)
    model.add(layers.BatchNormalization())
    model.add(layers.LeakyReLU())

    model.add(layers.Conv2DTranspose(64, (5, 5), strides=(2, 2), padding='same', use_bias=False))
    assert model.output_shape == (None, 14, 14, 64)
    model.add(layers.BatchNormalization())
    model.add(layers.LeakyReLU())

    model.add(layers.Conv2DTranspose(1, (5, 5), strides=(2, 2), padding='same', use_bias=False, activation='tanh'))
    assert model.output_shape == (None, 28, 28, 1)

    return model


def make_discriminator_model():
    model = tf.keras.Sequential()
    model.add(layers.Conv2D(64, (5, 5), strides=(2, 2), padding='same',
                                     input_shape=[28, 28, 1]))
    model.add(layers.LeakyReLU())

    model.add(layers.Conv2D(128, (5, 5), strides=(2, 2), padding='same'))
    model.add(layers.LeakyReLU())

    model.add(layers.Flatten())
    model.add(layers.Dense(1))

    return model


cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)


def discriminator_loss(real_output, fake_output):
    real_loss = cross_entropy(tf.ones_like(real_output), real_output)
    fake_loss = cross_entropy(tf.zeros_like(fake_output), fake_output)
    total_loss = real_loss + fake_loss
    return total_loss


def generator_loss(fake_output):
    return cross_entropy(tf.ones_like(fake_output), fake_output)


def main():
    rng = np.random.default_rng(7)
    train_images = data(1, 8, 28, 28, 1, low=0, high=255)
    train_images = (np.round(train_images) - 127.5) / 127.5  # Normalize the images to [-1, 1]
    train_dataset = tf.data.Dataset.from_tensor_slices(train_images.astype('float32')).batch(BATCH_SIZE)

    generator = make_generator_model()
    discriminator = make_discriminator_model()
    fixed_weights(generator.trainable_variables, seed=2, scale=0.05)
    fixed_weights(discriminator.trainable_variables, seed=3, scale=0.05)
    generator_optimizer = tf.keras.optimizers.Adam(1e-4)
    discriminator_optimizer = tf.keras.optimizers.Adam(1e-4)

    noise = rng.normal(size=[1, 100]).astype('float32')
    generated_image = generator(noise, training=False)
    decision = discriminator(generated_image)

    @tf.function
    def train_step(images, noise):
        with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
          generated_images = generator(noise, training=True)

          real_output = discriminator(images, training=True)
          fake_output = discriminator(generated_images, training=True)

          gen_loss = generator_loss(fake_output)
          disc_loss = discriminator_loss(real_output, fake_output)

        gradients_of_generator = gen_tape.gradient(gen_loss, generator.trainable_variables)
        gradients_of_discriminator = disc_tape.gradient(disc_loss, discriminator.trainable_variables)

        generator_optimizer.apply_gradients(zip(gradients_of_generator, generator.trainable_variables))
        discriminator_optimizer.apply_gradients(zip(gradients_of_discriminator, discriminator.trainable_variables))
        return gen_loss, disc_loss

    losses = []
    for epoch in range(2):
        for image_batch in train_dataset:
            noise = rng.normal(size=[BATCH_SIZE, noise_dim]).astype('float32')
            losses.append([float(v) for v in train_step(image_batch, noise)])
    seed = rng.normal(size=[2, noise_dim]).astype('float32')
    predictions = generator(seed, training=False)
    return {"generated_first": generated_image[0, :4, :4, 0], "decision": decision,
            "losses": losses, "predictions_corner": predictions[:, 10:14, 10:14, 0],
            "moving_mean": generator.layers[1].moving_mean[:6]}
