# After: https://blog.keras.io/building-autoencoders-in-keras.html ("Adding a sparsity
# constraint on the encoded representations": Dense with activity_regularizer=
# regularizers.l1(10e-5), the encoder and decoder models cut from the autoencoder, adam with
# binary_crossentropy, fit with shuffle and validation_data), in tf.keras form.
# Adapted: 40 seeded synthetic 784-pixel rows instead of MNIST, 2 epochs of batch 20,
# shuffle=False (fit's shuffling order differs), fixed starting weights.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers, regularizers
from adapt import data, fixed_weights


def main():
    # This is the size of our encoded representations
    encoding_dim = 32  # 32 floats -> compression of factor 24.5, assuming the input is 784 floats

    input_img = keras.Input(shape=(784,))
    # Add a Dense layer with a L1 activity regularizer
    encoded = layers.Dense(encoding_dim, activation='relu',
                    activity_regularizer=regularizers.l1(10e-5))(input_img)
    decoded = layers.Dense(784, activation='sigmoid')(encoded)

    autoencoder = keras.Model(input_img, decoded)
    # This model maps an input to its encoded representation
    encoder = keras.Model(input_img, encoded)
    # This is our encoded (32-dimensional) input
    encoded_input = keras.Input(shape=(encoding_dim,))
    # Retrieve the last layer of the autoencoder model
    decoder_layer = autoencoder.layers[-1]
    # Create the decoder model
    decoder = keras.Model(encoded_input, decoder_layer(encoded_input))
    fixed_weights(autoencoder.trainable_weights, seed=3, scale=0.1)

    autoencoder.compile(optimizer='adam', loss='binary_crossentropy')

    x_train = np.round(data(1, 40, 28, 28, low=0, high=255))
    x_test = np.round(data(2, 20, 28, 28, low=0, high=255))
    x_train = x_train.astype('float32') / 255.
    x_test = x_test.astype('float32') / 255.
    x_train = x_train.reshape((len(x_train), np.prod(x_train.shape[1:])))
    x_test = x_test.reshape((len(x_test), np.prod(x_test.shape[1:])))

    history = autoencoder.fit(x_train, x_train,
                    epochs=2,
                    batch_size=20,
                    shuffle=False,
                    validation_data=(x_test, x_test), verbose=0)
    encoded_imgs = encoder.predict(x_test, verbose=0)
    decoded_imgs = decoder.predict(encoded_imgs, verbose=0)
    return {"history": history.history, "encoded_mean": encoded_imgs.mean(),
            "decoded_first": decoded_imgs[0, :8]}
