"""A GAN on a ring of eight Gaussians, written from TensorFlow's DCGAN tutorial with Dense
layers: two tapes in one `with` statement, two Adam optimizers. Three bugs: the
discriminator's last layer keeps a sigmoid although the loss is told `from_logits=True`;
the generator's non-saturating loss is written with `np.log`, so it leaves the tape: the
generator's biases get None and its kernels only the gradient of their L2 penalty; and the
discriminator's second layer starts with a bias of -10, so its ReLUs never fire: its weights
get zero gradients, and so does its output bias, whose output is then the same for real and
fake points (their two loss terms cancel; TensorFlow's rounding leaves 3e-8)."""
import numpy as np
import tapeviz as tf

BATCH_SIZE = 64
NOISE_DIM = 8
STEPS = 30

rng = np.random.default_rng(1)
tf.random.set_seed(1)


def real_batch():
    """Points from a ring of eight Gaussians of radius 2."""
    angles = rng.integers(0, 8, size=BATCH_SIZE) * (2 * np.pi / 8)
    centres = np.stack([2 * np.cos(angles), 2 * np.sin(angles)], axis=1)
    return (centres + 0.05 * rng.normal(size=(BATCH_SIZE, 2))).astype(np.float32)


l2 = tf.keras.regularizers.l2(1e-4)
generator = tf.keras.Sequential([
    tf.keras.layers.Dense(32, activation="relu", kernel_regularizer=l2, name="g_hidden1"),
    tf.keras.layers.Dense(32, activation="relu", kernel_regularizer=l2, name="g_hidden2"),
    tf.keras.layers.Dense(2, kernel_regularizer=l2, name="g_out"),
], name="generator")
discriminator = tf.keras.Sequential([
    tf.keras.layers.Dense(32, activation="relu", name="d_hidden1"),
    tf.keras.layers.Dense(32, activation="relu", name="d_hidden2",
                          bias_initializer=tf.keras.initializers.Constant(-10.0)),
    tf.keras.layers.Dense(1, activation="sigmoid", name="d_out"),
], name="discriminator")
generator.build((None, NOISE_DIM))
discriminator.build((None, 2))

cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)


def discriminator_loss(real_output, fake_output):
    real_loss = cross_entropy(tf.ones_like(real_output), real_output)  # note: softmax_as_logits binary_crossentropy
    fake_loss = cross_entropy(tf.zeros_like(fake_output), fake_output)
    return real_loss + fake_loss


def generator_loss(fake_output):
    # the non-saturating loss of the GAN paper: -log D(G(z))
    return -tf.reduce_mean(np.log(fake_output + 1e-7))  # truth: g_hidden1/bias none numpy_escape call=1; g_hidden2/bias none numpy_escape call=1; g_out/bias none numpy_escape call=1; g_out/bias none numpy_escape call=59  # note: escaped_loss_term np.log


generator_optimizer = tf.keras.optimizers.Adam(1e-3)
discriminator_optimizer = tf.keras.optimizers.Adam(1e-3)


def train_step(images):
    noise = tf.random.normal([BATCH_SIZE, NOISE_DIM])
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        generated_images = generator(noise, training=True)
        real_output = discriminator(images, training=True)  # truth: d_hidden1/kernel zero dead_relu op=Relu#2 scope=discriminator/d_hidden2 call=2; d_hidden1/bias zero dead_relu op=Relu#2 call=2; d_hidden2/kernel zero dead_relu op=Relu#2 call=2; d_hidden2/bias zero dead_relu op=Relu#2 call=2; d_out/kernel zero dead_relu op=Relu#2 call=2; d_out/bias zero cancelled line=none call=2; d_hidden2/bias zero dead_relu op=Relu#2 call=last; d_out/kernel zero dead_relu op=Relu#2 call=last
        fake_output = discriminator(generated_images, training=True)
        gen_loss = generator_loss(fake_output) + tf.add_n(generator.losses)
        disc_loss = discriminator_loss(real_output, fake_output)
    gradients_of_generator = gen_tape.gradient(gen_loss, generator.trainable_variables)  # truth: g_hidden1/kernel value ok line=none call=1; g_out/kernel value ok line=none call=59
    gradients_of_discriminator = disc_tape.gradient(disc_loss,
                                                    discriminator.trainable_variables)
    generator_optimizer.apply_gradients(
        zip(gradients_of_generator, generator.trainable_variables))
    discriminator_optimizer.apply_gradients(
        zip(gradients_of_discriminator, discriminator.trainable_variables))
    return gen_loss, disc_loss


for step in range(STEPS):
    gen_loss, disc_loss = train_step(tf.constant(real_batch()))
    if step % 10 == 0 or step == STEPS - 1:
        print(f"step {step}: gen_loss {float(gen_loss):.4f} disc_loss {float(disc_loss):.4f}")
