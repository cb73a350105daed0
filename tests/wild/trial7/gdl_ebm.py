# After: https://github.com/davidADSP/Generative_Deep_Learning_2nd_Edition (notebooks/07_ebm/01_ebm/ebm.ipynb)
# Adapted: the notebook's code cells placed one after another (generate_samples, Buffer
# and EBM at module level, the rest in main()); 8 training and 8 test images of MNIST's
# shape and dtype (seeded NumPy uint8 28x28) instead of datasets.mnist.load_data(), so
# that each dataset is one batch of 8 (BATCH_SIZE 8 instead of 128) and fit's shuffle
# decides nothing; STEPS 5 instead of 60, 1 epoch instead of 60, the callback's and the
# last cells' Langevin runs 100 steps instead of 1000 (the last cell's list of steps to
# show cut to those below 100: [0, 1, 3, 5, 10, 30, 50, 99]); the random draws made with
# tf.random (the Langevin noise, the buffer's and test_step's uniform images) come from
# a seeded NumPy generator instead, np.random and random are seeded (the notebook already
# compiles with run_eagerly=True, so every draw happens at its step); the model's
# weights fixed from seeded NumPy (adapt.fixed_weights) instead of the random
# initializers; the TensorBoard logs and saved weights written under a temporary folder
# (removed at the end) instead of the working directory; the display cells (the
# notebook's utils, matplotlib) left out, what they show collected instead; main()
# returns fit's history and the generated images (every 4th pixel of a few, to keep the
# answers small).
import os
import shutil
import tempfile

import numpy as np

import tensorflow as tf
from tensorflow.keras import (
    datasets,
    layers,
    models,
    optimizers,
    activations,
    metrics,
    callbacks,
)

import random
from adapt import fixed_weights

RNG = np.random.default_rng(7)

IMAGE_SIZE = 32
CHANNELS = 1
STEP_SIZE = 10
STEPS = 5
NOISE = 0.005
ALPHA = 0.1
GRADIENT_CLIP = 0.03
BATCH_SIZE = 8
BUFFER_SIZE = 8192
LEARNING_RATE = 0.0001
EPOCHS = 1
LOAD_MODEL = False

ebm_input = layers.Input(shape=(IMAGE_SIZE, IMAGE_SIZE, CHANNELS))
x = layers.Conv2D(
    16, kernel_size=5, strides=2, padding="same", activation=activations.swish
)(ebm_input)
x = layers.Conv2D(
    32, kernel_size=3, strides=2, padding="same", activation=activations.swish
)(x)
x = layers.Conv2D(
    64, kernel_size=3, strides=2, padding="same", activation=activations.swish
)(x)
x = layers.Conv2D(
    64, kernel_size=3, strides=2, padding="same", activation=activations.swish
)(x)
x = layers.Flatten()(x)
x = layers.Dense(64, activation=activations.swish)(x)
ebm_output = layers.Dense(1)(x)
model = models.Model(ebm_input, ebm_output)
model.summary()


# Function to generate samples using Langevin Dynamics
def generate_samples(
    model, inp_imgs, steps, step_size, noise, return_img_per_step=False
):
    imgs_per_step = []
    for _ in range(steps):
        inp_imgs += tf.constant(RNG.normal(0, noise, size=tuple(inp_imgs.shape)).astype("float32"))
        inp_imgs = tf.clip_by_value(inp_imgs, -1.0, 1.0)
        with tf.GradientTape() as tape:
            tape.watch(inp_imgs)
            out_score = model(inp_imgs)
        grads = tape.gradient(out_score, inp_imgs)
        grads = tf.clip_by_value(grads, -GRADIENT_CLIP, GRADIENT_CLIP)
        inp_imgs += step_size * grads
        inp_imgs = tf.clip_by_value(inp_imgs, -1.0, 1.0)
        if return_img_per_step:
            imgs_per_step.append(inp_imgs)
    if return_img_per_step:
        return tf.stack(imgs_per_step, axis=0)
    else:
        return inp_imgs


class Buffer:
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.examples = [
            tf.constant(RNG.uniform(size=(1, IMAGE_SIZE, IMAGE_SIZE, CHANNELS)).astype("float32")) * 2
            - 1
            for _ in range(BATCH_SIZE)
        ]

    def sample_new_exmps(self, steps, step_size, noise):
        n_new = np.random.binomial(BATCH_SIZE, 0.05)
        rand_imgs = (
            tf.constant(RNG.uniform(size=(n_new, IMAGE_SIZE, IMAGE_SIZE, CHANNELS)).astype("float32")) * 2 - 1
        )
        old_imgs = tf.concat(
            random.choices(self.examples, k=BATCH_SIZE - n_new), axis=0
        )
        inp_imgs = tf.concat([rand_imgs, old_imgs], axis=0)
        inp_imgs = generate_samples(
            self.model, inp_imgs, steps=steps, step_size=step_size, noise=noise
        )
        self.examples = tf.split(inp_imgs, BATCH_SIZE, axis=0) + self.examples
        self.examples = self.examples[:BUFFER_SIZE]
        return inp_imgs


class EBM(models.Model):
    def __init__(self):
        super(EBM, self).__init__()
        self.model = model
        self.buffer = Buffer(self.model)
        self.alpha = ALPHA
        self.loss_metric = metrics.Mean(name="loss")
        self.reg_loss_metric = metrics.Mean(name="reg")
        self.cdiv_loss_metric = metrics.Mean(name="cdiv")
        self.real_out_metric = metrics.Mean(name="real")
        self.fake_out_metric = metrics.Mean(name="fake")

    @property
    def metrics(self):
        return [
            self.loss_metric,
            self.reg_loss_metric,
            self.cdiv_loss_metric,
            self.real_out_metric,
            self.fake_out_metric,
        ]

    def train_step(self, real_imgs):
        real_imgs += tf.constant(
            RNG.normal(0, NOISE, size=tuple(real_imgs.shape)).astype("float32")
        )
        real_imgs = tf.clip_by_value(real_imgs, -1.0, 1.0)
        fake_imgs = self.buffer.sample_new_exmps(
            steps=STEPS, step_size=STEP_SIZE, noise=NOISE
        )
        inp_imgs = tf.concat([real_imgs, fake_imgs], axis=0)
        with tf.GradientTape() as training_tape:
            real_out, fake_out = tf.split(self.model(inp_imgs), 2, axis=0)
            cdiv_loss = tf.reduce_mean(fake_out, axis=0) - tf.reduce_mean(
                real_out, axis=0
            )
            reg_loss = self.alpha * tf.reduce_mean(
                real_out**2 + fake_out**2, axis=0
            )
            loss = cdiv_loss + reg_loss
        grads = training_tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(
            zip(grads, self.model.trainable_variables)
        )
        self.loss_metric.update_state(loss)
        self.reg_loss_metric.update_state(reg_loss)
        self.cdiv_loss_metric.update_state(cdiv_loss)
        self.real_out_metric.update_state(tf.reduce_mean(real_out, axis=0))
        self.fake_out_metric.update_state(tf.reduce_mean(fake_out, axis=0))
        return {m.name: m.result() for m in self.metrics}

    def test_step(self, real_imgs):
        batch_size = real_imgs.shape[0]
        fake_imgs = (
            tf.constant(RNG.uniform(size=(batch_size, IMAGE_SIZE, IMAGE_SIZE, CHANNELS)).astype("float32"))
            * 2
            - 1
        )
        inp_imgs = tf.concat([real_imgs, fake_imgs], axis=0)
        real_out, fake_out = tf.split(self.model(inp_imgs), 2, axis=0)
        cdiv = tf.reduce_mean(fake_out, axis=0) - tf.reduce_mean(
            real_out, axis=0
        )
        self.cdiv_loss_metric.update_state(cdiv)
        self.real_out_metric.update_state(tf.reduce_mean(real_out, axis=0))
        self.fake_out_metric.update_state(tf.reduce_mean(fake_out, axis=0))
        return {m.name: m.result() for m in self.metrics[2:]}


def main():
    workdir = tempfile.mkdtemp()
    np.random.seed(0)
    random.seed(0)
    # Load the data
    rng = np.random.default_rng(0)
    (x_train, _), (x_test, _) = (
        (rng.integers(0, 256, size=(8, 28, 28)).astype(np.uint8), None),
        (rng.integers(0, 256, size=(8, 28, 28)).astype(np.uint8), None))

    # Preprocess the data
    def preprocess(imgs):
        """
        Normalize and reshape the images
        """
        imgs = (imgs.astype("float32") - 127.5) / 127.5
        imgs = np.pad(imgs, ((0, 0), (2, 2), (2, 2)), constant_values=-1.0)
        imgs = np.expand_dims(imgs, -1)
        return imgs

    x_train = preprocess(x_train)
    x_test = preprocess(x_test)

    x_train = tf.data.Dataset.from_tensor_slices(x_train).batch(BATCH_SIZE)
    x_test = tf.data.Dataset.from_tensor_slices(x_test).batch(BATCH_SIZE)

    fixed_weights(model.weights, seed=1, scale=0.1)

    if LOAD_MODEL:
        model.load_weights("./models/model.h5")

    ebm = EBM()

    # Compile and train the model
    ebm.compile(
        optimizer=optimizers.Adam(learning_rate=LEARNING_RATE), run_eagerly=True
    )

    tensorboard_callback = callbacks.TensorBoard(log_dir=os.path.join(workdir, "logs"))

    shown = []

    class ImageGenerator(callbacks.Callback):
        def __init__(self, num_img):
            self.num_img = num_img

        def on_epoch_end(self, epoch, logs=None):
            start_imgs = (
                np.random.uniform(
                    size=(self.num_img, IMAGE_SIZE, IMAGE_SIZE, CHANNELS)
                )
                * 2
                - 1
            )
            generated_images = generate_samples(
                ebm.model,
                start_imgs,
                steps=100,
                step_size=STEP_SIZE,
                noise=NOISE,
                return_img_per_step=False,
            )
            generated_images = generated_images.numpy()
            shown.append(generated_images)

            example_images = tf.concat(
                random.choices(ebm.buffer.examples, k=10), axis=0
            )
            example_images = example_images.numpy()
            shown.append(example_images)

    image_generator_callback = ImageGenerator(num_img=10)

    class SaveModel(callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            model.save_weights(os.path.join(workdir, "model.h5"))

    save_model_callback = SaveModel()

    history = ebm.fit(
        x_train,
        shuffle=True,
        epochs=EPOCHS,
        validation_data=x_test,
        callbacks=[
            save_model_callback,
            tensorboard_callback,
            image_generator_callback,
        ],
    )

    start_imgs = (
        np.random.uniform(size=(10, IMAGE_SIZE, IMAGE_SIZE, CHANNELS)) * 2 - 1
    )

    gen_img = generate_samples(
        ebm.model,
        start_imgs,
        steps=100,
        step_size=STEP_SIZE,
        noise=NOISE,
        return_img_per_step=True,
    )

    imgs = []
    for i in [0, 1, 3, 5, 10, 30, 50, 99]:
        imgs.append(gen_img[i].numpy()[6])
    shutil.rmtree(workdir, ignore_errors=True)
    return {"history": history.history, "epoch_generated": shown[0][:2, ::4, ::4],
            "epoch_examples": shown[1][:2, ::4, ::4],
            "last_generated": gen_img[-1].numpy()[:2, ::4, ::4], "imgs": np.array(imgs)[:, ::4, ::4]}
