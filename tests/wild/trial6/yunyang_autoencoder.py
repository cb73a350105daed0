# After: https://github.com/YunYang1994/TensorFlow2.0-Examples (3-Neural_Network_Architecture/autoencoder.py)
# Adapted: 600 training and 100 test images of MNIST's shape and dtype (seeded NumPy uint8
# 28x28, labels 0-9) instead of tf.keras.datasets.mnist; np.random seeded (the batches are
# np.random.choice draws); the model called once and its weights fixed from seeded NumPy
# (adapt.fixed_weights) instead of the random initializers; 30 steps of batch 64 instead
# of 10000 of 512, the loss printed every 10 steps instead of 200; the plotting
# (matplotlib: the reconstructions and the 2D embedding) left out; the script's body
# wrapped in main(), which returns the printed losses, the reconstructions of the sample
# and the test embeddings.
import random
import numpy as np
import tensorflow as tf
from adapt import fixed_weights


class Encoder(tf.keras.Model):
    def __init__(self):
        super(Encoder, self).__init__()
        self.dense_1 = tf.keras.layers.Dense(128, activation='tanh')
        self.dense_2 = tf.keras.layers.Dense(64 , activation='tanh')
        self.dense_3 = tf.keras.layers.Dense(32 , activation='tanh')
        self.dense_4 = tf.keras.layers.Dense(2  , activation='sigmoid')
    def call(self, x, training=False):
        out = self.dense_1(x)
        out = self.dense_2(out)
        out = self.dense_3(out)
        out = self.dense_4(out)
        return out


class Decoder(tf.keras.Model):
    def __init__(self):
        super(Decoder, self).__init__()
        self.dense_1 = tf.keras.layers.Dense(16 , activation='tanh')
        self.dense_2 = tf.keras.layers.Dense(64 , activation='tanh')
        self.dense_3 = tf.keras.layers.Dense(128, activation='tanh')
        self.dense_4 = tf.keras.layers.Dense(784, activation='sigmoid')
    def call(self, x, training=False):
        out = self.dense_1(x)
        out = self.dense_2(out)
        out = self.dense_3(out)
        out = self.dense_4(out)
        return out

class Autoencoder(tf.keras.Model):
    def __init__(self):
        super(Autoencoder, self).__init__()
        self.encoder = Encoder()
        self.decoder = Decoder()
    def call(self, x, training=False):
        out = self.encoder(x, training)
        out = self.decoder(out, training)
        return out


def main():
    np.random.seed(0)
    rng = np.random.default_rng(0)
    X_train = rng.integers(0, 256, size=(600, 28, 28)).astype(np.uint8)
    X_test = rng.integers(0, 256, size=(100, 28, 28)).astype(np.uint8)
    y_test = rng.integers(0, 10, size=100).astype(np.uint8)
    X_train = np.reshape(X_train, (-1, 784)) / 255.
    batch_size = 64
    optimizer = tf.keras.optimizers.Adam(lr=0.001)
    model = Autoencoder()
    sample = np.reshape(X_test[:5], (5, 784))
    model(sample)
    fixed_weights(model.weights, seed=1, scale=0.2)

    losses = []
    for step in range(30):
        true_image = X_train[np.random.choice(X_train.shape[0], batch_size)]
        with tf.GradientTape() as tape:
            pred_image = model(true_image, training=True)
            loss = tf.reduce_mean(tf.square(pred_image-true_image))
            gradients = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        if step % 10  == 0:
            print("=> %4d loss %.4f" %(step, loss))
            losses.append(loss)
    pred_image = model(sample, training=False)
    pred_image = np.reshape(pred_image, (5, 28, 28))

    """
    visualize embedding in 2D
    """
    sample = np.reshape(X_test[:100], (100, 784))
    label = y_test[:100]
    embeddings = model.encoder(sample, training=False)
    return {"losses": losses, "reconstructions": pred_image, "embeddings": embeddings}
