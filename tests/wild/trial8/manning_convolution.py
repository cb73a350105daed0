# After: https://github.com/thushv89/manning_tf2_in_action (Ch04-Deep-Networks-with-Keras/4.2.Convolution_networks.ipynb)
# Adapted: the notebook's code cells placed one after another (imports and helpers at
# module level, the rest in main()); CIFAR-10 a dict of tf.data Datasets of 256 training
# and 64 test examples of its shape and dtypes (seeded NumPy uint8 32x32x3 images, int64
# labels 0-9), built with from_tensor_slices, instead of tfds.load('cifar10')
# (tensorflow-datasets is not installed where the answers are recorded); the plotting cell
# (with its shuffled sample) left out; the cell of code listing 4.2, which the book shows
# failing (its kernels do not fit the shrinking images), left out; the CNN's weights fixed
# from seeded NumPy (adapt.fixed_weights, scale 0.1) instead of the random initializers;
# 2 epochs instead of 25, verbose=0; main() returns the history and a few predictions.
import random
import numpy as np
import tensorflow as tf
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


def load_cifar10():
    # adapted: seeded NumPy examples instead of tfds.load('cifar10')
    rng = np.random.default_rng(0)
    def split(n):
        return tf.data.Dataset.from_tensor_slices({
            "image": rng.integers(0, 256, size=(n, 32, 32, 3)).astype("uint8"),
            "label": rng.integers(0, 10, size=n).astype("int64")})
    return {"train": split(256), "test": split(64)}


def format_data(x, depth):
    """ Create a tuple where 1st element is a batch of images
    and the second is a batch of onehot encoded vectors"""
    return (tf.cast(x["image"], 'float32'), tf.one_hot(x["label"], depth=depth))


def main():
    # Fixing the random seed
    fix_random_seed(4321)
    print("TensorFlow version: {}".format(tf.__version__))

    # Loading the CIFAR10 dataset
    data = load_cifar10()
    print(data)
    # Let's see the first element in the training set
    for i in data["train"].take(1):
        print(i)
        first_label = i["label"]

    K.clear_session()

    # Defining the CNN model without any errores
    cnn = models.Sequential(
        [layers.Conv2D(filters=16,kernel_size=(3,3), strides=(2,2), activation='relu', padding='same', input_shape=(32,32,3)), # 32->16
         layers.MaxPool2D(pool_size=(2,2), strides=(2,2), padding='same'), # 16->8
         layers.Conv2D(32, (3,3), activation='relu', padding='same'), # 8 -> 8
         layers.MaxPool2D(pool_size=(2,2), strides=(2,2), padding='same'), # 8->4
         layers.Flatten(),
         layers.Dense(64, activation='relu'),
         layers.Dense(32, activation='relu'),
         layers.Dense(10, activation='softmax')]
    )
    fixed_weights(cnn.weights, seed=1, scale=0.1)

    # Compiling the model
    cnn.compile(loss='categorical_crossentropy', optimizer='adam', metrics=['acc'])

    # Map the dataset using the function
    tr_data = data["train"].map(lambda x: format_data(x, depth=10)).batch(32)
    for d in tr_data.take(1):
        print(d)
        first_onehot = d[1][:3]

    # Fit the data
    history = cnn.fit(tr_data,epochs=2, verbose=0)
    return {"first_label": first_label, "first_onehot": first_onehot,
            "history": history.history,
            "pred": cnn.predict(tr_data.take(1), verbose=0)[:4]}
