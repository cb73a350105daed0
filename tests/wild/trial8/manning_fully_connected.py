# After: https://github.com/thushv89/manning_tf2_in_action (Ch04-Deep-Networks-with-Keras/4.1.Fully_connected_networks.ipynb)
# Adapted: the notebook's code cells placed one after another (imports and helpers at
# module level, the rest in main()); MNIST 512 training images of its shape and dtype
# (seeded NumPy uint8 28x28, labels 0-9) instead of load_data(); the autoencoder's weights
# fixed from seeded NumPy (adapt.fixed_weights, scale 0.1) instead of the random
# initializers; fit with shuffle=False (its shuffle draws from TensorFlow's random stream)
# and 3 epochs instead of 10, verbose=0; the unused tensorflow_datasets import and the
# plotting cells left out (what they plot, the history and the predictions, returned);
# model.summary's display left out.
import random
import tensorflow as tf
import numpy as np
from tensorflow.keras import layers, models
import tensorflow.keras.backend as K
from adapt import fixed_weights


def fix_random_seed(seed):
    """ Setting the random seed of various libraries """
    try:
        np.random.seed(seed)
    except NameError:
        print("Warning: Numpy is not imported. Setting the seed for Numpy failed.")
    try:
        tf.random.set_seed(seed)
    except NameError:
        print("Warning: TensorFlow is not imported. Setting the seed for TensorFlow failed.")
    try:
        random.seed(seed)
    except NameError:
        print("Warning: random module is not imported. Setting the seed for random failed.")


def load_data():
    # adapted: seeded NumPy images of MNIST's shape and dtype
    rng = np.random.default_rng(0)
    return ((rng.integers(0, 256, size=(512, 28, 28)).astype("uint8"),
             rng.integers(0, 10, size=512).astype("uint8")),
            (rng.integers(0, 256, size=(64, 28, 28)).astype("uint8"),
             rng.integers(0, 10, size=64).astype("uint8")))


def generate_masked_inputs(x, p, seed=None):
    """ This function applies a binary mask to the input and generate corrupted images """
    # Fixing the seed
    if seed:
        np.random.seed(seed)
    # Generating a mask using the binomial distribution
    mask = np.random.binomial(n=1, p=p, size=x.shape).astype('float32')
    return x * mask


def main():
    # Fixing the random seed
    fix_random_seed(4321)
    print("TensorFlow version: {}".format(tf.__version__))
    (x_train, y_train), (x_test, y_test) = load_data()
    print('x_train has shape: {}'.format(x_train.shape))

    # Some simple preprocessing on the data
    norm_x_train = ((x_train - 128.0)/128.0).reshape([-1,784])

    x_train_sample = x_train[:10]
    y_train_sample = y_train[:10]
    # Create a training dataset of corrupted images
    masked_x_train_sample = generate_masked_inputs(x_train_sample, 0.5)

    K.clear_session()

    # Defining the model
    autoencoder = models.Sequential(
        [layers.Dense(64, activation='relu', input_shape=(784,)),
        layers.Dense(32, activation='relu'),
        layers.Dense(64, activation='relu'),
        layers.Dense(784, activation='tanh')]
    )
    fixed_weights(autoencoder.weights, seed=1, scale=0.1)

    # Compiling the model
    autoencoder.compile(loss='mse', optimizer='adam')

    # Generating the corrupted version of norm_x_train to be used as training inputs
    masked_x_train = generate_masked_inputs(norm_x_train, 0.5, seed=1024)

    # Fit the model
    history = autoencoder.fit(masked_x_train, norm_x_train, batch_size=64, epochs=3,
                              shuffle=False, verbose=0)

    # We will use the first 10 samples in our dataset to test the model
    x_train_sample = x_train[:10]
    y_train_sample = y_train[:10]
    # Generating corrupted images using a previously unseen mask
    masked_x_train_sample = generate_masked_inputs(x_train_sample, 0.5, seed=2048)
    norm_masked_x = ((x_train - 128.0)/128.0).reshape(-1, 784)
    # Predicting the restored images from corrupted images
    y_pred = autoencoder.predict(norm_masked_x, verbose=0)
    print('y_pred has shape: {}'.format(y_pred.shape))
    return {"loss": history.history["loss"], "y_pred": y_pred[:10, ::16],
            "masked_sample_sum": masked_x_train_sample.sum()}
