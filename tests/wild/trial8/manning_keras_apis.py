# After: https://github.com/thushv89/manning_tf2_in_action (Ch03-Keras-and-Data-Retrieval/3.1.Keras_APIs.ipynb)
# Adapted: the notebook's code cells placed one after another (imports, the seed helper
# and the MulBiasDense layer at module level, the rest in main()); the iris table 150
# seeded NumPy rows of four features (three class clusters) with integer labels instead of
# downloading iris.data with requests and reading it with pandas (so x is a NumPy array,
# centered as the notebook does, and the pandas row shuffle is left out); PCA to two
# components computed with NumPy's SVD instead of sklearn's PCA (neither pandas nor
# scikit-learn is installed where the answers are recorded); each model's weights fixed
# from seeded NumPy (adapt.fixed_weights) instead of the random initializers; fit with
# shuffle=False (its shuffle draws from TensorFlow's random stream) and 5 epochs instead of
# 25, verbose=0; the GPU set-up cell, model.summary's display and plot_model left out;
# main() returns the histories and predictions.
import random
import numpy as np
import tensorflow as tf

from tensorflow.keras import layers
from tensorflow.keras.layers import Input, Dense, Concatenate
from tensorflow.keras.models import Model
from tensorflow.keras.models import Sequential

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


class MulBiasDense(layers.Layer):
    """ The layer with the new multiplicative bias we want to test """

    def __init__(self, units=32, activation=None):
        """ Defines various hyperparameters of the layer"""

        super(MulBiasDense, self).__init__()
        self.units = units
        self.activation = activation

    def build(self, input_shape):
        """ Defines the parameters (weights and biases)"""

        self.w = self.add_weight(shape=(input_shape[-1], self.units),
                                 initializer='glorot_uniform',
                                 trainable=True)
        self.b = self.add_weight(shape=(self.units,),
                                 initializer='glorot_uniform',
                                 trainable=True)
        self.b_mul = self.add_weight(shape=(self.units,),
                                     initializer='glorot_uniform',
                                     trainable=True)

    def call(self, inputs):
        """ Defines the computations that happen in the layer"""

        out = (tf.matmul(inputs, self.w) + self.b) * self.b_mul
        return layers.Activation(self.activation)(out)


def load_iris():
    # adapted: seeded NumPy rows standing in for the downloaded iris.data
    rng = np.random.default_rng(4321)
    labels = np.repeat(np.arange(3), 50)
    centers = np.array([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.5, 2.0]])
    features = centers[labels] + rng.normal(0, 0.35, size=(150, 4))
    return features.astype("float64"), labels


def main():
    answers = {}
    # Fixing the random seed
    fix_random_seed(4321)
    print("TensorFlow version: {}".format(tf.__version__))

    features, labels = load_iris()
    # Normalize the features by subtracting the mean
    x = features
    x = x - x.mean(axis=0)

    # Converting integer labels to one-hot vectors
    y = tf.one_hot(labels, depth=3)

    K.clear_session() # Making sure we are clearing out the TensorFlow graph

    # Defining Model A with the Sequential API
    model = Sequential([
        Dense(32, activation='relu', input_shape=(4,)),
        Dense(16, activation='relu'),
        Dense(3, activation='softmax')
    ])
    fixed_weights(model.weights, seed=1)

    # Compiling the model with a loss function, an optimizer and a performance metric
    model.compile(loss='categorical_crossentropy', optimizer='adam', metrics=['acc'])

    # Fitting the model with data
    h = model.fit(x, y, batch_size=64, epochs=5, shuffle=False, verbose=0)
    answers["sequential"] = h.history
    answers["sequential_pred"] = model.predict(x[:5], verbose=0)

    K.clear_session() # Making sure we are clearing out the TensorFlow graph

    # The two input layers
    inp1 = Input(shape=(4,))
    inp2 = Input(shape=(2,))

    # Two parallel dense layers
    out1 = Dense(16, activation='relu')(inp1)
    out2 = Dense(16, activation='relu')(inp2)

    # Concatenate the two outputs from the parallel layers
    out = Concatenate(axis=1)([out1,out2])

    # The single dense layer
    out = Dense(16, activation='relu')(out)

    # The final output layer
    out = Dense(3, activation='softmax')(out)

    # Create and compile the model
    model = Model(inputs=[inp1, inp2], outputs=out)
    fixed_weights(model.weights, seed=2)

    # Compiling the model with a loss function, an optimizer and a performance metric
    model.compile(loss='categorical_crossentropy', optimizer='adam', metrics=['acc'])

    # adapted: PCA to two components by NumPy's SVD instead of sklearn's PCA
    xc = x - x.mean(axis=0)
    _, _, vt = np.linalg.svd(xc, full_matrices=False)
    x_pca = xc @ vt[:2].T

    # Fitting the model with data
    h = model.fit([x, x_pca], y, batch_size=64, epochs=5, shuffle=False, verbose=0)
    answers["functional"] = h.history

    K.clear_session() # Making sure we are clearing out the TensorFlow graph

    # The input layer
    inp = Input(shape=(4,))

    # Using the newly defined MulBiasDense layer to create two layers
    out = MulBiasDense(units=32, activation='relu')(inp)
    out = MulBiasDense(units=16, activation='relu')(out)

    # The softmax layer
    out = Dense(3, activation='softmax')(out)

    model = Model(inputs=inp, outputs=out)
    fixed_weights(model.weights, seed=3, scale=0.5)
    # Compiling the model with a loss function, an optimizer and a performance metric
    model.compile(loss='categorical_crossentropy', optimizer='adam', metrics=['acc'])

    # Fitting the model with data
    h = model.fit(x, y, batch_size=64, epochs=5, shuffle=False, verbose=0)
    answers["mulbias"] = h.history
    answers["mulbias_b_mul"] = model.layers[1].b_mul
    return answers
