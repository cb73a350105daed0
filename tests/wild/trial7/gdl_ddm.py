# After: https://github.com/davidADSP/Generative_Deep_Learning_2nd_Edition (notebooks/08_diffusion/01_ddm/ddm.ipynb)
# Adapted: the notebook's code cells placed one after another (the schedules, the
# embedding, the U-Net and DiffusionModel at module level, the rest in main()); 8 images
# of the flowers' kind (seeded NumPy 0-255 float32) instead of
# utils.image_dataset_from_directory (whose shuffle would decide the batches);
# IMAGE_SIZE 16 instead of 64, BATCH_SIZE 4 instead of 64, DATASET_REPETITIONS 1 instead
# of 5, 1 epoch instead of 50 (so one epoch is 2 steps), 2 images generated instead of
# 10 by the callback and the later cells, the view over diffusion steps without its 100
# steps, 2 interpolations of 5 steps instead of 5 of 20; the noise and diffusion times that train_step, test_step and
# generate draw with tf.random, and the interpolation cell's two tf.random.normal draws,
# come from a seeded NumPy generator instead, reseeded where the notebook calls
# tf.random.set_seed (42 and 100), and the model compiled with run_eagerly=True so that
# the draws happen at each step; the U-Net's and its EMA clone's weights fixed from
# seeded NumPy (adapt.fixed_weights, then BatchNormalization's moving variances set back
# to ones) instead of the random initializers; the checkpoint and TensorBoard logs
# written under a temporary folder (removed at the end) instead of the working
# directory; the plotting and display cells (matplotlib, the notebook's utils) left out,
# what they show collected instead; the namespace the corpus's runner executes the file
# in registered as a module before clone_model (which rebuilds the Lambda layer's function
# with that module's globals); main() returns the three schedules, fit's history and the
# generated images.
import os
import shutil
import sys
import tempfile
import types

import numpy as np

import math

import tensorflow as tf
from tensorflow.keras import (
    layers,
    models,
    optimizers,
    utils,
    callbacks,
    metrics,
    losses,
    activations,
)
from adapt import fixed_weights

RNG = np.random.default_rng(7)

IMAGE_SIZE = 16
BATCH_SIZE = 4
DATASET_REPETITIONS = 1
LOAD_MODEL = False

NOISE_EMBEDDING_SIZE = 32
PLOT_DIFFUSION_STEPS = 20

# optimization
EMA = 0.999
LEARNING_RATE = 1e-3
WEIGHT_DECAY = 1e-4
EPOCHS = 1


def linear_diffusion_schedule(diffusion_times):
    min_rate = 0.0001
    max_rate = 0.02
    betas = min_rate + diffusion_times * (max_rate - min_rate)
    alphas = 1 - betas
    alpha_bars = tf.math.cumprod(alphas)
    signal_rates = tf.sqrt(alpha_bars)
    noise_rates = tf.sqrt(1 - alpha_bars)
    return noise_rates, signal_rates


def cosine_diffusion_schedule(diffusion_times):
    signal_rates = tf.cos(diffusion_times * math.pi / 2)
    noise_rates = tf.sin(diffusion_times * math.pi / 2)
    return noise_rates, signal_rates


def offset_cosine_diffusion_schedule(diffusion_times):
    min_signal_rate = 0.02
    max_signal_rate = 0.95
    start_angle = tf.acos(max_signal_rate)
    end_angle = tf.acos(min_signal_rate)

    diffusion_angles = start_angle + diffusion_times * (end_angle - start_angle)

    signal_rates = tf.cos(diffusion_angles)
    noise_rates = tf.sin(diffusion_angles)

    return noise_rates, signal_rates


def sinusoidal_embedding(x):
    frequencies = tf.exp(
        tf.linspace(
            tf.math.log(1.0),
            tf.math.log(1000.0),
            NOISE_EMBEDDING_SIZE // 2,
        )
    )
    angular_speeds = 2.0 * math.pi * frequencies
    embeddings = tf.concat(
        [tf.sin(angular_speeds * x), tf.cos(angular_speeds * x)], axis=3
    )
    return embeddings


def ResidualBlock(width):
    def apply(x):
        input_width = x.shape[3]
        if input_width == width:
            residual = x
        else:
            residual = layers.Conv2D(width, kernel_size=1)(x)
        x = layers.BatchNormalization(center=False, scale=False)(x)
        x = layers.Conv2D(
            width, kernel_size=3, padding="same", activation=activations.swish
        )(x)
        x = layers.Conv2D(width, kernel_size=3, padding="same")(x)
        x = layers.Add()([x, residual])
        return x

    return apply


def DownBlock(width, block_depth):
    def apply(x):
        x, skips = x
        for _ in range(block_depth):
            x = ResidualBlock(width)(x)
            skips.append(x)
        x = layers.AveragePooling2D(pool_size=2)(x)
        return x

    return apply


def UpBlock(width, block_depth):
    def apply(x):
        x, skips = x
        x = layers.UpSampling2D(size=2, interpolation="bilinear")(x)
        for _ in range(block_depth):
            x = layers.Concatenate()([x, skips.pop()])
            x = ResidualBlock(width)(x)
        return x

    return apply


# Build the U-Net

noisy_images = layers.Input(shape=(IMAGE_SIZE, IMAGE_SIZE, 3))
x = layers.Conv2D(32, kernel_size=1)(noisy_images)

noise_variances = layers.Input(shape=(1, 1, 1))
noise_embedding = layers.Lambda(sinusoidal_embedding)(noise_variances)
noise_embedding = layers.UpSampling2D(size=IMAGE_SIZE, interpolation="nearest")(
    noise_embedding
)

x = layers.Concatenate()([x, noise_embedding])

skips = []

x = DownBlock(32, block_depth=2)([x, skips])
x = DownBlock(64, block_depth=2)([x, skips])
x = DownBlock(96, block_depth=2)([x, skips])

x = ResidualBlock(128)(x)
x = ResidualBlock(128)(x)

x = UpBlock(96, block_depth=2)([x, skips])
x = UpBlock(64, block_depth=2)([x, skips])
x = UpBlock(32, block_depth=2)([x, skips])

x = layers.Conv2D(3, kernel_size=1, kernel_initializer="zeros")(x)

unet = models.Model([noisy_images, noise_variances], x, name="unet")


class DiffusionModel(models.Model):
    def __init__(self):
        super().__init__()

        self.normalizer = layers.Normalization()
        self.network = unet
        self.ema_network = models.clone_model(self.network)
        self.diffusion_schedule = offset_cosine_diffusion_schedule

    def compile(self, **kwargs):
        super().compile(**kwargs)
        self.noise_loss_tracker = metrics.Mean(name="n_loss")

    @property
    def metrics(self):
        return [self.noise_loss_tracker]

    def denormalize(self, images):
        images = self.normalizer.mean + images * self.normalizer.variance**0.5
        return tf.clip_by_value(images, 0.0, 1.0)

    def denoise(self, noisy_images, noise_rates, signal_rates, training):
        if training:
            network = self.network
        else:
            network = self.ema_network
        pred_noises = network(
            [noisy_images, noise_rates**2], training=training
        )
        pred_images = (noisy_images - noise_rates * pred_noises) / signal_rates

        return pred_noises, pred_images

    def reverse_diffusion(self, initial_noise, diffusion_steps):
        num_images = initial_noise.shape[0]
        step_size = 1.0 / diffusion_steps
        current_images = initial_noise
        for step in range(diffusion_steps):
            diffusion_times = tf.ones((num_images, 1, 1, 1)) - step * step_size
            noise_rates, signal_rates = self.diffusion_schedule(diffusion_times)
            pred_noises, pred_images = self.denoise(
                current_images, noise_rates, signal_rates, training=False
            )
            next_diffusion_times = diffusion_times - step_size
            next_noise_rates, next_signal_rates = self.diffusion_schedule(
                next_diffusion_times
            )
            current_images = (
                next_signal_rates * pred_images + next_noise_rates * pred_noises
            )
        return pred_images

    def generate(self, num_images, diffusion_steps, initial_noise=None):
        if initial_noise is None:
            initial_noise = tf.constant(
                RNG.normal(size=(num_images, IMAGE_SIZE, IMAGE_SIZE, 3)).astype("float32")
            )
        generated_images = self.reverse_diffusion(
            initial_noise, diffusion_steps
        )
        generated_images = self.denormalize(generated_images)
        return generated_images

    def train_step(self, images):
        images = self.normalizer(images, training=True)
        noises = tf.constant(RNG.normal(size=(BATCH_SIZE, IMAGE_SIZE, IMAGE_SIZE, 3)).astype("float32"))

        diffusion_times = tf.constant(
            RNG.uniform(0.0, 1.0, size=(BATCH_SIZE, 1, 1, 1)).astype("float32")
        )
        noise_rates, signal_rates = self.diffusion_schedule(diffusion_times)

        noisy_images = signal_rates * images + noise_rates * noises

        with tf.GradientTape() as tape:
            # train the network to separate noisy images to their components
            pred_noises, pred_images = self.denoise(
                noisy_images, noise_rates, signal_rates, training=True
            )

            noise_loss = self.loss(noises, pred_noises)  # used for training

        gradients = tape.gradient(noise_loss, self.network.trainable_weights)
        self.optimizer.apply_gradients(
            zip(gradients, self.network.trainable_weights)
        )

        self.noise_loss_tracker.update_state(noise_loss)

        for weight, ema_weight in zip(
            self.network.weights, self.ema_network.weights
        ):
            ema_weight.assign(EMA * ema_weight + (1 - EMA) * weight)

        return {m.name: m.result() for m in self.metrics}

    def test_step(self, images):
        images = self.normalizer(images, training=False)
        noises = tf.constant(RNG.normal(size=(BATCH_SIZE, IMAGE_SIZE, IMAGE_SIZE, 3)).astype("float32"))
        diffusion_times = tf.constant(
            RNG.uniform(0.0, 1.0, size=(BATCH_SIZE, 1, 1, 1)).astype("float32")
        )
        noise_rates, signal_rates = self.diffusion_schedule(diffusion_times)
        noisy_images = signal_rates * images + noise_rates * noises
        pred_noises, pred_images = self.denoise(
            noisy_images, noise_rates, signal_rates, training=False
        )
        noise_loss = self.loss(noises, pred_noises)
        self.noise_loss_tracker.update_state(noise_loss)

        return {m.name: m.result() for m in self.metrics}


def main():
    global RNG
    workdir = tempfile.mkdtemp()
    out = {}
    # Load the data
    images = np.random.default_rng(0).integers(0, 256, size=(8, IMAGE_SIZE, IMAGE_SIZE, 3)).astype("float32")
    train_data = tf.data.Dataset.from_tensor_slices(images)

    # Preprocess the data
    def preprocess(img):
        img = tf.cast(img, "float32") / 255.0
        return img

    train = train_data.map(lambda x: preprocess(x))
    train = train.repeat(DATASET_REPETITIONS)
    train = train.batch(BATCH_SIZE, drop_remainder=True)

    T = 1000
    diffusion_times = tf.convert_to_tensor([x / T for x in range(T)])
    linear_noise_rates, linear_signal_rates = linear_diffusion_schedule(
        diffusion_times
    )
    cosine_noise_rates, cosine_signal_rates = cosine_diffusion_schedule(
        diffusion_times
    )
    (
        offset_cosine_noise_rates,
        offset_cosine_signal_rates,
    ) = offset_cosine_diffusion_schedule(diffusion_times)
    out["schedules"] = [linear_signal_rates**2, cosine_signal_rates**2, offset_cosine_signal_rates**2,
                        linear_noise_rates**2, cosine_noise_rates**2, offset_cosine_noise_rates**2]

    embedding_list = []
    for y in np.arange(0, 1, 0.01):
        embedding_list.append(sinusoidal_embedding(np.array([[[[y]]]]))[0][0][0])
    embedding_array = np.array(np.transpose(embedding_list))
    out["embedding_array"] = embedding_array

    # clone_model rebuilds the Lambda layer's function with the globals of the module its
    # __module__ names (the notebook's __main__); the corpus's runner executes this file in
    # a namespace, so that module is registered here.
    module = types.ModuleType(__name__)
    module.__dict__.update(globals())
    sys.modules[__name__] = module

    ddm = DiffusionModel()
    fixed_weights(ddm.network.weights + ddm.ema_network.weights, seed=1, scale=0.05)
    for net in (ddm.network, ddm.ema_network):
        for layer in net.layers:
            if isinstance(layer, layers.BatchNormalization):
                layer.moving_variance.assign(np.ones(layer.moving_variance.shape, np.float32))
    ddm.normalizer.adapt(train)

    if LOAD_MODEL:
        ddm.built = True
        ddm.load_weights("./checkpoint/checkpoint.ckpt")

    ddm.compile(
        optimizer=optimizers.experimental.AdamW(
            learning_rate=LEARNING_RATE, weight_decay=WEIGHT_DECAY
        ),
        loss=losses.mean_absolute_error,
        run_eagerly=True,
    )

    # run training and plot generated images periodically
    model_checkpoint_callback = callbacks.ModelCheckpoint(
        filepath=os.path.join(workdir, "checkpoint/checkpoint.ckpt"),
        save_weights_only=True,
        save_freq="epoch",
        verbose=0,
    )

    tensorboard_callback = callbacks.TensorBoard(log_dir=os.path.join(workdir, "logs"))

    shown = []

    class ImageGenerator(callbacks.Callback):
        def __init__(self, num_img):
            self.num_img = num_img

        def on_epoch_end(self, epoch, logs=None):
            generated_images = self.model.generate(
                num_images=self.num_img,
                diffusion_steps=PLOT_DIFFUSION_STEPS,
            ).numpy()
            shown.append(generated_images)

    image_generator_callback = ImageGenerator(num_img=2)

    history = ddm.fit(
        train,
        epochs=EPOCHS,
        callbacks=[
            model_checkpoint_callback,
            tensorboard_callback,
            image_generator_callback,
        ],
    )
    out["history"] = history.history
    out["epoch_images"] = shown[0]

    # Generate some novel images of flowers
    generated_images = ddm.generate(num_images=2, diffusion_steps=20).numpy()
    out["generated"] = generated_images

    # View improvement over greater number of diffusion steps
    out["by_steps"] = []
    for diffusion_steps in list(np.arange(1, 6, 1)) + [20]:
        tf.random.set_seed(42)
        RNG = np.random.default_rng(42)
        generated_images = ddm.generate(
            num_images=2,
            diffusion_steps=diffusion_steps,
        ).numpy()
        out["by_steps"].append(generated_images)

    # Interpolation between two points in the latent space
    tf.random.set_seed(100)
    RNG = np.random.default_rng(100)

    def spherical_interpolation(a, b, t):
        return np.sin(t * math.pi / 2) * a + np.cos(t * math.pi / 2) * b

    out["interpolations"] = []
    for i in range(2):
        a = tf.constant(RNG.normal(size=(IMAGE_SIZE, IMAGE_SIZE, 3)).astype("float32"))
        b = tf.constant(RNG.normal(size=(IMAGE_SIZE, IMAGE_SIZE, 3)).astype("float32"))
        initial_noise = np.array(
            [spherical_interpolation(a, b, t) for t in np.arange(0, 1.1, 0.1)]
        )
        generated_images = ddm.generate(
            num_images=2, diffusion_steps=5, initial_noise=initial_noise
        ).numpy()
        out["interpolations"].append(generated_images)
    RNG = np.random.default_rng(7)
    shutil.rmtree(workdir, ignore_errors=True)
    return out
