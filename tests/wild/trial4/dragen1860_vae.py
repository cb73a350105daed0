# After: https://github.com/dragen1860/TensorFlow-2.x-Tutorials (12-VAE/main.py: the VAE
# keras.Model with encode, reparameterize, decode_logits and decode, model.build and
# summary, a shuffled batch(100) dataset, and the GradientTape loop of a
# sigmoid_cross_entropy_with_logits reconstruction loss plus the KL divergence, the
# gradients passed through tf.clip_by_norm (whose result the tutorial discards) and Adam;
# then decoding random codes and reconstructing the last batch)
# Adapted: 100 seeded synthetic 28x28 images instead of Fashion-MNIST (one batch of 100, so
# the shuffle reorders rows within the batch only), 3 epochs instead of 55; the noise of
# reparameterize (tf.random.normal, whose stream differs between libraries) one fixed draw
# of seeded NumPy shared by every row (a draw per row would tie each row's noise to the
# shuffle's order, which is not TensorFlow's in tapeviz), and the random codes decoded after
# each epoch drawn by seeded NumPy;
# fixed weights after model.build; the decoded samples answered before their cast to
# uint8 (rounding); the image grids saved with PIL and the plots left out.
import  os
import  tensorflow as tf
import  numpy as np
from    tensorflow import keras
from adapt import data, fixed_weights

tf.random.set_seed(22)
np.random.seed(22)
os.environ['TF_CPP_MIN_LOG_LEVEL'] = '2'
assert tf.__version__.startswith('2.')

image_size = 28*28
h_dim = 512
z_dim = 20
num_epochs = 3
batch_size = 100
learning_rate = 1e-3
EPS = np.random.default_rng(7).standard_normal((1, z_dim)).astype(np.float32)


class VAE(tf.keras.Model):

    def __init__(self):
        super(VAE, self).__init__()

        # input => h
        self.fc1 = keras.layers.Dense(h_dim)
        # h => mu and variance
        self.fc2 = keras.layers.Dense(z_dim)
        self.fc3 = keras.layers.Dense(z_dim)

        # sampled z => h
        self.fc4 = keras.layers.Dense(h_dim)
        # h => image
        self.fc5 = keras.layers.Dense(image_size)

    def encode(self, x):
        h = tf.nn.relu(self.fc1(x))
        # mu, log_variance
        return self.fc2(h), self.fc3(h)

    def reparameterize(self, mu, log_var):
        """
        reparametrize trick
        :param mu:
        :param log_var:
        :return:
        """
        std = tf.exp(log_var * 0.5)
        eps = tf.constant(EPS[:std.shape[0]])

        return mu + eps * std

    def decode_logits(self, z):
        h = tf.nn.relu(self.fc4(z))
        return self.fc5(h)

    def decode(self, z):
        return tf.nn.sigmoid(self.decode_logits(z))

    def call(self, inputs, training=None, mask=None):
        # encoder
        mu, log_var = self.encode(inputs)
        # sample
        z = self.reparameterize(mu, log_var)
        # decode
        x_reconstructed_logits = self.decode_logits(z)

        return x_reconstructed_logits, mu, log_var


def main():
    x_train = np.round(data(1, 100, 28, 28, low=0, high=255)).astype(np.uint8)
    x_train = x_train.astype(np.float32)/255.
    print(x_train.shape)
    code_rng = np.random.default_rng(8)
    losses, samples, reconstructions = [], [], []

    model = VAE()
    model.build(input_shape=(4, image_size))
    model.summary()
    fixed_weights(model.weights, seed=2, scale=0.05)
    optimizer = keras.optimizers.Adam(learning_rate)

    # we do not need label
    dataset = tf.data.Dataset.from_tensor_slices(x_train)
    dataset = dataset.shuffle(batch_size * 5).batch(batch_size)

    num_batches = x_train.shape[0] // batch_size

    for epoch in range(num_epochs):

        for step, x in enumerate(dataset):

            x = tf.reshape(x, [-1, image_size])

            with tf.GradientTape() as tape:

                # Forward pass
                x_reconstruction_logits, mu, log_var = model(x)

                # Compute reconstruction loss and kl divergence
                # Scaled by `image_size` for each individual pixel.
                reconstruction_loss = tf.nn.sigmoid_cross_entropy_with_logits(labels=x, logits=x_reconstruction_logits)
                reconstruction_loss = tf.reduce_sum(reconstruction_loss) / batch_size
                kl_div = - 0.5 * tf.reduce_sum(1. + log_var - tf.square(mu) - tf.exp(log_var), axis=-1)
                kl_div = tf.reduce_mean(kl_div)

                # Backprop and optimize
                loss = tf.reduce_mean(reconstruction_loss) + kl_div

            gradients = tape.gradient(loss, model.trainable_variables)
            for g in gradients:
                tf.clip_by_norm(g, 15)
            optimizer.apply_gradients(zip(gradients, model.trainable_variables))
            losses.append([reconstruction_loss, kl_div])

            if (step + 1) % 50 == 0:
                print("Epoch[{}/{}], Step [{}/{}], Reconst Loss: {:.4f}, KL Div: {:.4f}"
                      .format(epoch + 1, num_epochs, step + 1, num_batches, float(reconstruction_loss), float(kl_div)))

        # Generative model
        z = tf.constant(code_rng.standard_normal((batch_size, z_dim)).astype(np.float32))
        out = model.decode(z)  # decode with sigmoid
        out = tf.reshape(out, [-1, 28, 28]).numpy() * 255
        samples.append(out[:2, 10:14, 10:14])
        out = out.astype(np.uint8)

        # Save the reconstructed images of last batch
        out_logits, _, _ = model(x[:batch_size // 2])
        out = tf.nn.sigmoid(out_logits)  # out is just the logits, use sigmoid
        out = tf.reshape(out, [-1, 28, 28]).numpy() * 255

        x = tf.reshape(x[:batch_size // 2], [-1, 28, 28])

        x_concat = tf.concat([x, out], axis=0).numpy() * 255.
        # the last batch's first half depends on the shuffle's order: its shape only
        reconstructions.append(list(x_concat.shape))
    return {"losses": losses, "samples": samples, "reconstructions": reconstructions}
