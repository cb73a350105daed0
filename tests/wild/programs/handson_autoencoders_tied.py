# After: https://github.com/ageron/handson-ml2 (17_autoencoders_and_gans.ipynb: the
# rounded_accuracy metric; "Tying weights": the DenseTranspose layer reading
# self.dense.input_shape and self.dense.weights[0], the tied encoder and decoder of SELU
# Dense layers and Reshape, compiled with binary_crossentropy and SGD(learning_rate=1.5);
# "Sparse Autoencoder": KLDivergenceRegularizer(keras.regularizers.Regularizer) with
# keras.backend.mean and keras.losses.kullback_leibler_divergence as an
# activity_regularizer, compiled with SGD(learning_rate=1.0))
# Adapted: 32 training and 16 validation seeded synthetic 28x28 images instead of
# Fashion MNIST, 2 epochs instead of 10 (batch 32 covers the training data, so fit's
# shuffle cannot change a step); fixed weights.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import data, fixed_weights


def rounded_accuracy(y_true, y_pred):
    return keras.metrics.binary_accuracy(tf.round(y_true), tf.round(y_pred))


class DenseTranspose(keras.layers.Layer):
    def __init__(self, dense, activation=None, **kwargs):
        self.dense = dense
        self.activation = keras.activations.get(activation)
        super().__init__(**kwargs)
    def build(self, batch_input_shape):
        self.biases = self.add_weight(name="bias",
                                      shape=[self.dense.input_shape[-1]],
                                      initializer="zeros")
        super().build(batch_input_shape)
    def call(self, inputs):
        z = tf.matmul(inputs, self.dense.weights[0], transpose_b=True)
        return self.activation(z + self.biases)


K = keras.backend
kl_divergence = keras.losses.kullback_leibler_divergence


class KLDivergenceRegularizer(keras.regularizers.Regularizer):
    def __init__(self, weight, target=0.1):
        self.weight = weight
        self.target = target
    def __call__(self, inputs):
        mean_activities = K.mean(inputs, axis=0)
        return self.weight * (
            kl_divergence(self.target, mean_activities) +
            kl_divergence(1. - self.target, 1. - mean_activities))


def main():
    X_train = np.round(data(1, 32, 28, 28, low=0, high=255)) / 255.0
    X_valid = np.round(data(2, 16, 28, 28, low=0, high=255)) / 255.0

    keras.backend.clear_session()
    tf.random.set_seed(42)
    np.random.seed(42)

    dense_1 = keras.layers.Dense(100, activation="selu")
    dense_2 = keras.layers.Dense(30, activation="selu")

    tied_encoder = keras.models.Sequential([
        keras.layers.Flatten(input_shape=[28, 28]),
        dense_1,
        dense_2
    ])

    tied_decoder = keras.models.Sequential([
        DenseTranspose(dense_2, activation="selu"),
        DenseTranspose(dense_1, activation="sigmoid"),
        keras.layers.Reshape([28, 28])
    ])

    tied_ae = keras.models.Sequential([tied_encoder, tied_decoder])
    tied_ae(X_train[:1])
    fixed_weights([dense_1.kernel, dense_2.kernel], seed=3, scale=0.1)

    tied_ae.compile(loss="binary_crossentropy",
                    optimizer=keras.optimizers.SGD(learning_rate=1.5), metrics=[rounded_accuracy])
    history = tied_ae.fit(X_train, X_train, epochs=2,
                          validation_data=(X_valid, X_valid))
    out = {"tied_history": history.history,
           "tied_variables": [v.name for v in tied_ae.trainable_variables],
           "tied_reconstruction": tied_ae.predict(X_valid[:1])[0, 10:14, 10:14]}

    keras.backend.clear_session()
    tf.random.set_seed(42)
    np.random.seed(42)

    kld_reg = KLDivergenceRegularizer(weight=0.05, target=0.1)
    sparse_kl_encoder = keras.models.Sequential([
        keras.layers.Flatten(input_shape=[28, 28]),
        keras.layers.Dense(100, activation="selu"),
        keras.layers.Dense(300, activation="sigmoid", activity_regularizer=kld_reg)
    ])
    sparse_kl_decoder = keras.models.Sequential([
        keras.layers.Dense(100, activation="selu", input_shape=[300]),
        keras.layers.Dense(28 * 28, activation="sigmoid"),
        keras.layers.Reshape([28, 28])
    ])
    sparse_kl_ae = keras.models.Sequential([sparse_kl_encoder, sparse_kl_decoder])
    fixed_weights(sparse_kl_ae.trainable_variables, seed=4, scale=0.1)
    sparse_kl_ae.compile(loss="binary_crossentropy", optimizer=keras.optimizers.SGD(learning_rate=1.0),
                  metrics=[rounded_accuracy])
    history = sparse_kl_ae.fit(X_train, X_train, epochs=2,
                               validation_data=(X_valid, X_valid))
    out["sparse_history"] = history.history
    out["mean_activity"] = np.mean(sparse_kl_encoder.predict(X_valid), axis=0)[:10]
    return out
