# After: https://github.com/timsainb/tensorflow2-generative-models
# (2.0-GAN-fashion-mnist.ipynb: Fashion-MNIST in shuffled, batched datasets; the GAN
# tf.keras.Model taking generator and discriminator layer lists and optimizers as keyword
# arguments, compute_loss with gan_loss (tf.compat.v1.losses.sigmoid_cross_entropy),
# compute_gradients with a generator and a discriminator GradientTape open together,
# apply_gradients with Adam(0.001, beta_1=0.5) and RMSprop(0.005), and a @tf.function train;
# the Dense/Reshape/Conv2DTranspose generator and Conv2D discriminator; the epoch loop with
# holdout losses)
# Adapted: 64 seeded synthetic 28x28 uint8 images to train and 64 to test instead of
# Fashion-MNIST (one batch of 512 holds them all, so the shuffles reorder rows within a batch
# only); 3 epochs instead of 50; compute_loss's noise (tf.random.normal, whose stream differs
# between libraries) drawn by seeded NumPy, with tf.config.run_functions_eagerly(True) so that
# the @tf.function train draws fresh noise on every call as the original's random op does
# (traced once, a NumPy draw would be frozen into the graph); fixed weights after a first
# pass builds both networks; the losses kept in a list instead of a pandas DataFrame and the
# loops not wrapped in tqdm (neither is installed where the answers were recorded); the Colab
# pip cell, display.clear_output and plot_reconstruction left out.
import tensorflow as tf
import numpy as np
from adapt import data, fixed_weights

print(tf.__version__)
NOISE = np.random.default_rng(5)

TRAIN_BUF=60000
BATCH_SIZE=512
TEST_BUF=10000
DIMS = (28,28,1)
N_TRAIN_BATCHES =int(TRAIN_BUF/BATCH_SIZE)
N_TEST_BATCHES = int(TEST_BUF/BATCH_SIZE)


class GAN(tf.keras.Model):
    """ a basic GAN class 
    Extends:
        tf.keras.Model
    """

    def __init__(self, **kwargs):
        super(GAN, self).__init__()
        self.__dict__.update(kwargs)

        self.gen = tf.keras.Sequential(self.gen)
        self.disc = tf.keras.Sequential(self.disc)

    def generate(self, z):
        return self.gen(z)

    def discriminate(self, x):
        return self.disc(x)

    def compute_loss(self, x):
        """ passes through the network and computes loss
        """
        # generating noise from a uniform distribution
        z_samp = tf.constant(NOISE.standard_normal([x.shape[0], 1, 1, self.n_Z]).astype(np.float32))

        # run noise through generator
        x_gen = self.generate(z_samp)
        # discriminate x and x_gen
        logits_x = self.discriminate(x)
        logits_x_gen = self.discriminate(x_gen)
        ### losses
        # losses of real with label "1"
        disc_real_loss = gan_loss(logits=logits_x, is_real=True)
        # losses of fake with label "0"
        disc_fake_loss = gan_loss(logits=logits_x_gen, is_real=False)
        disc_loss = disc_fake_loss + disc_real_loss

        # losses of fake with label "1"
        gen_loss = gan_loss(logits=logits_x_gen, is_real=True)

        return disc_loss, gen_loss

    def compute_gradients(self, x):
        """ passes through the network and computes loss
        """
        ### pass through network
        with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
            disc_loss, gen_loss = self.compute_loss(x)

        # compute gradients
        gen_gradients = gen_tape.gradient(gen_loss, self.gen.trainable_variables)
        disc_gradients = disc_tape.gradient(disc_loss, self.disc.trainable_variables)

        return gen_gradients, disc_gradients

    def apply_gradients(self, gen_gradients, disc_gradients):

        self.gen_optimizer.apply_gradients(
            zip(gen_gradients, self.gen.trainable_variables)
        )
        self.disc_optimizer.apply_gradients(
            zip(disc_gradients, self.disc.trainable_variables)
        )
    @tf.function
    def train(self, train_x):
        gen_gradients, disc_gradients = self.compute_gradients(train_x)
        self.apply_gradients(gen_gradients, disc_gradients)
        
        
def gan_loss(logits, is_real=True):
    """Computes standard gan loss between logits and labels
    """
    if is_real:
        labels = tf.ones_like(logits)
    else:
        labels = tf.zeros_like(logits)

    return tf.compat.v1.losses.sigmoid_cross_entropy(
        multi_class_labels=labels, logits=logits
    )


def main():
    out = {}
    tf.config.run_functions_eagerly(True)
    try:
        return run(out)
    finally:
        tf.config.run_functions_eagerly(False)


def run(out):
    # load dataset
    (train_images, _), (test_images, _) = (
        (data(1, 64, 28, 28, low=0, high=255).round().astype(np.uint8), None),
        (data(2, 64, 28, 28, low=0, high=255).round().astype(np.uint8), None))

    # split dataset
    train_images = train_images.reshape(train_images.shape[0], 28, 28, 1).astype(
        "float32"
    ) / 255.0
    test_images = test_images.reshape(test_images.shape[0], 28, 28, 1).astype("float32") / 255.0

    # batch datasets
    train_dataset = (
        tf.data.Dataset.from_tensor_slices(train_images)
        .shuffle(TRAIN_BUF)
        .batch(BATCH_SIZE)
    )
    test_dataset = (
        tf.data.Dataset.from_tensor_slices(test_images)
        .shuffle(TEST_BUF)
        .batch(BATCH_SIZE)
    )

    N_Z = 64
    generator = [
        tf.keras.layers.Dense(units=7 * 7 * 64, activation="relu"),
        tf.keras.layers.Reshape(target_shape=(7, 7, 64)),
        tf.keras.layers.Conv2DTranspose(
            filters=64, kernel_size=3, strides=(2, 2), padding="SAME", activation="relu"
        ),
        tf.keras.layers.Conv2DTranspose(
            filters=32, kernel_size=3, strides=(2, 2), padding="SAME", activation="relu"
        ),
        tf.keras.layers.Conv2DTranspose(
            filters=1, kernel_size=3, strides=(1, 1), padding="SAME", activation="sigmoid"
        ),
    ]

    discriminator = [
        tf.keras.layers.InputLayer(input_shape=DIMS),
        tf.keras.layers.Conv2D(
            filters=32, kernel_size=3, strides=(2, 2), activation="relu"
        ),
        tf.keras.layers.Conv2D(
            filters=64, kernel_size=3, strides=(2, 2), activation="relu"
        ),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(units=1, activation=None),
    ]

    # optimizers
    gen_optimizer = tf.keras.optimizers.Adam(0.001, beta_1=0.5)
    disc_optimizer = tf.keras.optimizers.RMSprop(0.005)# train the model
    # model
    model = GAN(
        gen = generator,
        disc = discriminator,
        gen_optimizer = gen_optimizer,
        disc_optimizer = disc_optimizer,
        n_Z = N_Z
    )
    model.discriminate(model.generate(tf.zeros((1, 1, 1, N_Z))))
    fixed_weights(model.weights, seed=3, scale=0.08)

    # a list to save the loss information to
    losses = []

    n_epochs = 3
    for epoch in range(n_epochs):
        # train
        for batch, train_x in zip(range(N_TRAIN_BATCHES), train_dataset):
            model.train(train_x)
        # test on holdout
        loss = []
        for batch, test_x in zip(range(N_TEST_BATCHES), test_dataset):
            loss.append(model.compute_loss(train_x))
        losses.append(np.mean(loss, axis=0))
        print(
            "Epoch: {} | disc_loss: {} | gen_loss: {}".format(
                epoch, losses[-1][0], losses[-1][1]
            )
        )
    out["losses"] = losses
    out["gen_bias"] = model.gen.layers[0].bias[:8]
    out["disc_out"] = model.discriminate(test_images[:4])
    return out
