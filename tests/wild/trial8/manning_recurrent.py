# After: https://github.com/thushv89/manning_tf2_in_action (Ch04-Deep-Networks-with-Keras/4.3.Recurrent_networks.ipynb)
# Adapted: the notebook's code cells placed one after another (imports and helpers at
# module level, the rest in main()); the CO2 table 120 months of a seeded NumPy series
# (a rising trend with a yearly cycle and noise) instead of the downloaded co2-mm-gl.csv,
# held in a NumPy array instead of a pandas DataFrame (pandas is not installed where the
# answers are recorded), so the "Average Diff" column (the difference to the previous
# month, back-filled at the start) is computed with NumPy; the plotting cells left out;
# the RNN's weights fixed from seeded NumPy (adapt.fixed_weights, scale 0.1) after
# building it for (None, 12, 1) instead of the random initializers; fit with shuffle=False
# instead of True (its shuffle draws from TensorFlow's random stream) and 3 epochs instead
# of 25, verbose=0; 12 predicted months instead of 60; main() returns the history and the
# predictions.
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


def load_average():
    # adapted: a seeded NumPy stand-in for the "Average" column of co2-mm-gl.csv
    rng = np.random.default_rng(0)
    t = np.arange(120)
    return 340.0 + 0.12 * t + 3.0 * np.sin(2 * np.pi * t / 12) + rng.normal(0, 0.2, size=120)


def generate_data(co2_arr,n_seq):
    """ Generating data for the model.
    Input is a matrix of size (n x n_seq) and
    Output is a vector of size n. """

    x, y = [],[]
    for i in range(co2_arr.shape[0]-n_seq):
        x.append(co2_arr[i:i+n_seq-1])
        y.append(co2_arr[i+n_seq-1:i+n_seq])
    x = np.array(x).reshape(-1,n_seq-1,1)
    y = np.array(y)
    return x,y


def main():
    fix_random_seed(4321)
    average = load_average()
    # adapted: data["Average"] - data["Average"].shift(1).fillna(method='bfill')
    shifted = np.concatenate([average[:1], average[:-1]])
    average_diff = average - shifted

    # Generating the data
    x, y = generate_data(average_diff, 13)
    print("Original values: ", average_diff[:20])

    K.clear_session()
    # Defining the model
    rnn = models.Sequential([
        layers.SimpleRNN(64),
        layers.Dense(64, activation='relu'),
        layers.Dense(1)
    ])
    rnn.build((None, 12, 1))
    fixed_weights(rnn.weights, seed=1, scale=0.1)
    # Compiling the model
    rnn.compile(loss='mse', optimizer='adam')
    h = rnn.fit(x, y, shuffle=False, batch_size=64, epochs=3, verbose=0)

    # Getting the last 12 values from the history to generate the first prediction
    history = average_diff[-12:].reshape(1,-1,1)
    # To hold the absolute values
    true_vals = []
    # Holds the very last value in the history
    prev_true = average[-1]
    # Making predictions for 12 time steps
    for i in range(12):
        # Make a single prediction
        p_diff = rnn.predict(history, verbose=0).reshape(1,-1,1)

        # Modifying the history so that we have
        history = np.concatenate((history[:,1:,:],p_diff),axis=1)
        # Generating the absolute prediction
        true_vals.append(prev_true+p_diff[0,0,0])
        # Updating the prev_true
        prev_true = true_vals[-1]

    print("Predictions: {}".format(true_vals[:10]))
    return {"loss": h.history["loss"], "true_vals": [float(v) for v in true_vals]}
