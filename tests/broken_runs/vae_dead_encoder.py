"""A variational autoencoder written from TensorFlow's convolutional VAE tutorial with Dense
layers, on 64 synthetic 16-d vectors in [0, 1], with a Gaussian decoder whose noise scale is
learned. Two bugs: the decoder's scale is read through NumPy (`np.exp(model.log_sigma)`),
so log_sigma gets None at every call and never trains; and Adam's learning rate is 1e-1
(the tutorial's is 1e-4): after about 25 steps every ReLU of the encoder's hidden layer is
dead for every sample, so enc_hidden's kernel and bias and enc_out's kernel get zero
gradients and the code no longer depends on the input (the posterior collapses)."""
import numpy as np
import tapeviz as tf

LATENT_DIM = 2
STEPS = 40
LOG2PI = np.log(2. * np.pi).astype(np.float32)

rng = np.random.default_rng(0)
tf.keras.utils.set_random_seed(0)
codes = rng.normal(size=(64, 2))
train_x = tf.constant(1 / (1 + np.exp(-codes @ rng.normal(size=(2, 16)))), tf.float32)


class VAE(tf.keras.Model):
    def __init__(self, latent_dim):
        super().__init__()
        self.latent_dim = latent_dim
        self.encoder = tf.keras.Sequential([
            tf.keras.layers.InputLayer(input_shape=(16,)),
            tf.keras.layers.Dense(32, activation="relu", name="enc_hidden"),
            tf.keras.layers.Dense(latent_dim + latent_dim, name="enc_out"),
        ], name="encoder")
        self.decoder = tf.keras.Sequential([
            tf.keras.layers.InputLayer(input_shape=(latent_dim,)),
            tf.keras.layers.Dense(32, activation="relu", name="dec_hidden"),
            tf.keras.layers.Dense(16, name="dec_out"),
        ], name="decoder")
        self.log_sigma = tf.Variable(0.0, name="log_sigma")   # the decoder's noise scale

    def encode(self, x):
        mean, logvar = tf.split(self.encoder(x), num_or_size_splits=2, axis=1)  # truth: enc_hidden/kernel zero dead_relu op=Relu scope=encoder/enc_hidden call=last; enc_hidden/bias zero dead_relu op=Relu call=last; enc_out/kernel zero dead_relu op=Relu call=last
        return mean, logvar

    def reparameterize(self, mean, logvar):
        eps = tf.random.normal(shape=mean.shape)
        return eps * tf.exp(logvar * .5) + mean

    def decode(self, z):
        return self.decoder(z)


def log_normal_pdf(sample, mean, logvar, raxis=1):
    return tf.reduce_sum(-.5 * ((sample - mean) ** 2. * tf.exp(-logvar) + logvar + LOG2PI),
                         axis=raxis)


def gaussian_log_likelihood(x, x_mean, sigma):
    return -tf.reduce_sum(tf.square(x - x_mean) / (2 * sigma ** 2) + tf.math.log(sigma)
                          + 0.5 * LOG2PI, axis=1)


def compute_loss(model, x):
    mean, logvar = model.encode(x)
    z = model.reparameterize(mean, logvar)
    x_mean = model.decode(z)
    sigma = np.exp(model.log_sigma)  # truth: log_sigma none numpy_escape call=1; log_sigma none numpy_escape call=last
    logpx_z = gaussian_log_likelihood(x, x_mean, sigma)
    logpz = log_normal_pdf(z, 0., 0.)
    logqz_x = log_normal_pdf(z, mean, logvar)
    return -tf.reduce_mean(logpx_z + logpz - logqz_x)


model = VAE(LATENT_DIM)
optimizer = tf.keras.optimizers.Adam(1e-1)

for step in range(STEPS):
    with tf.GradientTape() as tape:
        loss = compute_loss(model, train_x)
    gradients = tape.gradient(loss, model.trainable_variables)  # truth: enc_hidden/kernel value ok line=none call=1; dec_out/kernel value ok line=none call=1; enc_out/bias value ok line=none call=last; dec_out/kernel value ok line=none call=last
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    if step % 10 == 0 or step == STEPS - 1:
        print(f"step {step}: loss {float(loss):.4f}")
