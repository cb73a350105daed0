# After: https://github.com/davidADSP/Generative_Deep_Learning_2nd_Edition (notebooks/04_gan/03_cgan/cgan.ipynb)
# Adapted: the notebook's code cells placed one after another (the models and the
# ConditionalWGAN class at module level, the rest in main()); 8 images of the CelebA
# faces' shape (seeded NumPy 0-255 float32 64x64x3) with seeded 0/1 "Blond_Hair" labels,
# batched by tf.data in 2 batches of 4, instead of list_attr_celeba.csv (pandas) and
# utils.image_dataset_from_directory (whose shuffle would decide the batches); 2 epochs
# of steps_per_epoch=1 instead of EPOCHS * 100; the Dropout layers left out (their random
# masks are drawn by TensorFlow inside fit); the latent vectors and interpolation weights
# that train_step, gradient_penalty and the ImageGenerator callback draw with tf.random,
# and the last cells' np.random.normal, come from a seeded NumPy generator instead (the
# notebook already compiles with run_eagerly=True); the models' weights fixed from
# seeded NumPy (adapt.fixed_weights, then BatchNormalization's moving variances set back
# to ones) instead of the random initializers; the checkpoint, TensorBoard logs and saved
# models written under a temporary folder (removed at the end) instead of the working
# directory; the display (matplotlib, the notebook's utils) left out, the callback's
# generated images collected instead; main() returns fit's history (each metric an
# answer of its own) and the generated images for both labels (every 8th pixel of the
# first two of each, to keep the answers small).
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
CLASSES = 2
BATCH_SIZE = 4
Z_DIM = 32
LEARNING_RATE = 0.00005
ADAM_BETA_1 = 0.5
ADAM_BETA_2 = 0.999
EPOCHS = 20
CRITIC_STEPS = 3
GP_WEIGHT = 10.0
LOAD_MODEL = False
ADAM_BETA_1 = 0.5
ADAM_BETA_2 = 0.9
LABEL = "Blond_Hair"

critic_input = layers.Input(shape=(IMAGE_SIZE, IMAGE_SIZE, CHANNELS))
label_input = layers.Input(shape=(IMAGE_SIZE, IMAGE_SIZE, CLASSES))
x = layers.Concatenate(axis=-1)([critic_input, label_input])
x = layers.Conv2D(64, kernel_size=4, strides=2, padding="same")(x)
x = layers.LeakyReLU(0.2)(x)
x = layers.Conv2D(128, kernel_size=4, strides=2, padding="same")(x)
x = layers.LeakyReLU()(x)
x = layers.Conv2D(128, kernel_size=4, strides=2, padding="same")(x)
x = layers.LeakyReLU(0.2)(x)
x = layers.Conv2D(128, kernel_size=4, strides=2, padding="same")(x)
x = layers.LeakyReLU(0.2)(x)
x = layers.Conv2D(1, kernel_size=4, strides=1, padding="valid")(x)
critic_output = layers.Flatten()(x)

critic = models.Model([critic_input, label_input], critic_output)
critic.summary()

generator_input = layers.Input(shape=(Z_DIM,))
label_input = layers.Input(shape=(CLASSES,))
x = layers.Concatenate(axis=-1)([generator_input, label_input])
x = layers.Reshape((1, 1, Z_DIM + CLASSES))(x)
x = layers.Conv2DTranspose(
    128, kernel_size=4, strides=1, padding="valid", use_bias=False
)(x)
x = layers.BatchNormalization(momentum=0.9)(x)
x = layers.LeakyReLU(0.2)(x)
x = layers.Conv2DTranspose(
    128, kernel_size=4, strides=2, padding="same", use_bias=False
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
generator = models.Model([generator_input, label_input], generator_output)
generator.summary()


class ConditionalWGAN(models.Model):
    def __init__(self, critic, generator, latent_dim, critic_steps, gp_weight):
        super(ConditionalWGAN, self).__init__()
        self.critic = critic
        self.generator = generator
        self.latent_dim = latent_dim
        self.critic_steps = critic_steps
        self.gp_weight = gp_weight

    def compile(self, c_optimizer, g_optimizer):
        super(ConditionalWGAN, self).compile(run_eagerly=True)
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

    def gradient_penalty(
        self, batch_size, real_images, fake_images, image_one_hot_labels
    ):
        alpha = tf.constant(RNG.normal(0.0, 1.0, size=(int(batch_size), 1, 1, 1)).astype("float32"))
        diff = fake_images - real_images
        interpolated = real_images + alpha * diff

        with tf.GradientTape() as gp_tape:
            gp_tape.watch(interpolated)
            pred = self.critic(
                [interpolated, image_one_hot_labels], training=True
            )

        grads = gp_tape.gradient(pred, [interpolated])[0]
        norm = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=[1, 2, 3]))
        gp = tf.reduce_mean((norm - 1.0) ** 2)
        return gp

    def train_step(self, data):
        real_images, one_hot_labels = data

        image_one_hot_labels = one_hot_labels[:, None, None, :]
        image_one_hot_labels = tf.repeat(
            image_one_hot_labels, repeats=IMAGE_SIZE, axis=1
        )
        image_one_hot_labels = tf.repeat(
            image_one_hot_labels, repeats=IMAGE_SIZE, axis=2
        )

        batch_size = tf.shape(real_images)[0]

        for i in range(self.critic_steps):
            random_latent_vectors = tf.constant(
                RNG.normal(size=(int(batch_size), self.latent_dim)).astype("float32")
            )

            with tf.GradientTape() as tape:
                fake_images = self.generator(
                    [random_latent_vectors, one_hot_labels], training=True
                )

                fake_predictions = self.critic(
                    [fake_images, image_one_hot_labels], training=True
                )
                real_predictions = self.critic(
                    [real_images, image_one_hot_labels], training=True
                )

                c_wass_loss = tf.reduce_mean(fake_predictions) - tf.reduce_mean(
                    real_predictions
                )
                c_gp = self.gradient_penalty(
                    batch_size, real_images, fake_images, image_one_hot_labels
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
            fake_images = self.generator(
                [random_latent_vectors, one_hot_labels], training=True
            )
            fake_predictions = self.critic(
                [fake_images, image_one_hot_labels], training=True
            )
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
    # Load the label dataset
    labels = list(np.random.default_rng(1).choice([1, -1], size=8))
    int_labels = [x if x == 1 else 0 for x in labels]

    images = np.random.default_rng(0).integers(0, 256, size=(8, IMAGE_SIZE, IMAGE_SIZE, CHANNELS)).astype("float32")
    train_data = tf.data.Dataset.from_tensor_slices((images, np.array(int_labels, np.int32))).batch(BATCH_SIZE)

    # Preprocess the data
    def preprocess(img):
        """
        Normalize and reshape the images
        """
        img = (tf.cast(img, "float32") - 127.5) / 127.5
        return img

    train = train_data.map(
        lambda x, y: (preprocess(x), tf.one_hot(y, depth=CLASSES))
    )

    fixed_weights(critic.weights + generator.weights, seed=1, scale=0.05)
    for layer in generator.layers:
        if isinstance(layer, layers.BatchNormalization):
            layer.moving_variance.assign(np.ones(layer.moving_variance.shape, np.float32))

    # Create a GAN
    cgan = ConditionalWGAN(
        critic=critic,
        generator=generator,
        latent_dim=Z_DIM,
        critic_steps=CRITIC_STEPS,
        gp_weight=GP_WEIGHT,
    )

    if LOAD_MODEL:
        cgan.load_weights("./checkpoint/checkpoint.ckpt")

    # Compile the GAN
    cgan.compile(
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
            # 0 label
            zero_label = np.repeat([[1, 0]], self.num_img, axis=0)
            generated_images = self.model.generator(
                [random_latent_vectors, zero_label]
            )
            generated_images = generated_images * 127.5 + 127.5
            generated_images = generated_images.numpy()
            shown.append(generated_images)

            # 1 label
            one_label = np.repeat([[0, 1]], self.num_img, axis=0)
            generated_images = self.model.generator(
                [random_latent_vectors, one_label]
            )
            generated_images = generated_images * 127.5 + 127.5
            generated_images = generated_images.numpy()
            shown.append(generated_images)

    history = cgan.fit(
        train,
        epochs=2,
        steps_per_epoch=1,
        callbacks=[
            model_checkpoint_callback,
            tensorboard_callback,
            ImageGenerator(num_img=10, latent_dim=Z_DIM),
        ],
    )

    # Save the final models
    generator.save(os.path.join(workdir, "models/generator"))
    critic.save(os.path.join(workdir, "models/critic"))

    # 0 label
    z_sample = RNG.normal(size=(10, Z_DIM))
    class_label = np.repeat([[1, 0]], 10, axis=0)
    imgs_0 = cgan.generator.predict([z_sample, class_label])

    # 1 label
    z_sample = RNG.normal(size=(10, Z_DIM))
    class_label = np.repeat([[0, 1]], 10, axis=0)
    imgs = cgan.generator.predict([z_sample, class_label])
    shutil.rmtree(workdir, ignore_errors=True)
    return {**history.history, "epoch_images": [im[:2, ::8, ::8] for im in shown],
            "imgs_0": imgs_0[:2, ::8, ::8], "imgs_1": imgs[:2, ::8, ::8]}
