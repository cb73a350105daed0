# After: https://github.com/fchollet/deep-learning-with-python-notebooks (second_edition/
# chapter04_getting-started-with-neural-networks.ipynb: vectorize_sequences, the IMDB
# binary classifier with a validation set and a retrained model with evaluate and predict;
# to_one_hot and to_categorical, the Reuters 46-class classifier, the random-baseline
# check, the information-bottleneck model; the Boston housing normalization, build_model
# and K-fold validation with fit/evaluate)
# Adapted: seeded synthetic word-index sequences, labels and house features instead of the
# IMDB, Reuters and Boston data sets (300, 300 and 80 samples; a batch_size of 512 covers a
# whole training set, so fit's shuffle cannot change a step; the K-fold fits, with
# batch_size=16, get shuffle=False); 3 epochs instead of 20, 4, 9, 100, 500 and 130; each
# model built with model.build(...) and given fixed weights before compile; np.random.seed(0)
# for the baseline shuffle; decoding reviews and the plots left out.
import copy

import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
from tensorflow.keras.utils import to_categorical
from adapt import data, fixed_weights


def vectorize_sequences(sequences, dimension=10000):
    results = np.zeros((len(sequences), dimension))
    for i, sequence in enumerate(sequences):
        for j in sequence:
            results[i, j] = 1.
    return results


def to_one_hot(labels, dimension=46):
    results = np.zeros((len(labels), dimension))
    for i, label in enumerate(labels):
        results[i, label] = 1.
    return results


def sequences(seed, n, num_words=10000):
    rng = np.random.default_rng(seed)
    return [list(rng.integers(1, num_words, size=rng.integers(5, 40))) for _ in range(n)]


def built(model, dim, seed):
    model.build(input_shape=(None, dim))
    fixed_weights(model.weights, seed=seed, scale=0.1)
    return model


def main():
    out = {}
    np.random.seed(0)
    rng = np.random.default_rng(1)
    train_data, test_data = sequences(2, 300), sequences(3, 100)
    train_labels, test_labels = rng.integers(0, 2, 300), rng.integers(0, 2, 100)
    x_train = vectorize_sequences(train_data)
    x_test = vectorize_sequences(test_data)
    y_train = np.asarray(train_labels).astype("float32")
    y_test = np.asarray(test_labels).astype("float32")

    model = built(keras.Sequential([
        layers.Dense(16, activation="relu"),
        layers.Dense(16, activation="relu"),
        layers.Dense(1, activation="sigmoid")
    ]), 10000, 4)
    model.compile(optimizer="rmsprop",
                  loss="binary_crossentropy",
                  metrics=["accuracy"])
    x_val = x_train[:100]
    partial_x_train = x_train[100:]
    y_val = y_train[:100]
    partial_y_train = y_train[100:]
    history = model.fit(partial_x_train,
                        partial_y_train,
                        epochs=3,
                        batch_size=512,
                        validation_data=(x_val, y_val))
    history_dict = history.history
    out["imdb_history"] = history_dict
    out["imdb_keys"] = sorted(history_dict.keys())

    model = built(keras.Sequential([
        layers.Dense(16, activation="relu"),
        layers.Dense(16, activation="relu"),
        layers.Dense(1, activation="sigmoid")
    ]), 10000, 5)
    model.compile(optimizer="rmsprop",
                  loss="binary_crossentropy",
                  metrics=["accuracy"])
    model.fit(x_train, y_train, epochs=3, batch_size=512)
    results = model.evaluate(x_test, y_test)
    out["imdb_results"] = results
    out["imdb_predict"] = model.predict(x_test)[:10]

    train_data, test_data = sequences(6, 300), sequences(7, 100)
    train_labels, test_labels = rng.integers(0, 46, 300), rng.integers(0, 46, 100)
    x_train = vectorize_sequences(train_data)
    x_test = vectorize_sequences(test_data)
    y_train = to_one_hot(train_labels)
    y_test = to_one_hot(test_labels)
    out["one_hot"] = y_train[:3]
    y_train = to_categorical(train_labels, 46)
    y_test = to_categorical(test_labels, 46)
    out["categorical"] = y_train[:3]
    model = built(keras.Sequential([
        layers.Dense(64, activation="relu"),
        layers.Dense(64, activation="relu"),
        layers.Dense(46, activation="softmax")
    ]), 10000, 8)
    model.compile(optimizer="rmsprop",
                  loss="categorical_crossentropy",
                  metrics=["accuracy"])
    x_val = x_train[:100]
    partial_x_train = x_train[100:]
    y_val = y_train[:100]
    partial_y_train = y_train[100:]
    history = model.fit(partial_x_train,
                        partial_y_train,
                        epochs=3,
                        batch_size=512,
                        validation_data=(x_val, y_val))
    out["reuters_history"] = history.history
    results = model.evaluate(x_test, y_test)
    out["reuters_results"] = results
    test_labels_copy = copy.copy(test_labels)
    np.random.shuffle(test_labels_copy)
    hits_array = np.array(test_labels) == np.array(test_labels_copy)
    out["baseline"] = hits_array.mean()
    predictions = model.predict(x_test)
    out["prediction_sum"] = np.sum(predictions[0])
    out["prediction_argmax"] = int(np.argmax(predictions[0]))

    y_train = np.array(train_labels)
    y_test = np.array(test_labels)
    model.compile(optimizer="rmsprop",
                  loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    model = built(keras.Sequential([
        layers.Dense(64, activation="relu"),
        layers.Dense(4, activation="relu"),
        layers.Dense(46, activation="softmax")
    ]), 10000, 9)
    model.compile(optimizer="rmsprop",
                  loss="categorical_crossentropy",
                  metrics=["accuracy"])
    history = model.fit(partial_x_train,
                        partial_y_train,
                        epochs=3,
                        batch_size=512,
                        validation_data=(x_val, y_val))
    out["bottleneck_history"] = history.history

    train_data, test_data = data(10, 80, 13, low=0, high=10), data(11, 20, 13, low=0, high=10)
    train_targets = data(12, 80, low=5, high=50)
    test_targets = data(13, 20, low=5, high=50)
    mean = train_data.mean(axis=0)
    train_data -= mean
    std = train_data.std(axis=0)
    train_data /= std
    test_data -= mean
    test_data /= std

    def build_model():
        model = keras.Sequential([
            layers.Dense(64, activation="relu"),
            layers.Dense(64, activation="relu"),
            layers.Dense(1)
        ])
        model.build(input_shape=(None, 13))
        fixed_weights(model.weights, seed=14, scale=0.2)
        model.compile(optimizer="rmsprop", loss="mse", metrics=["mae"])
        return model

    k = 4
    num_val_samples = len(train_data) // k
    num_epochs = 3
    all_scores = []
    all_mae_histories = []
    for i in range(k):
        print(f"Processing fold #{i}")
        val_data = train_data[i * num_val_samples: (i + 1) * num_val_samples]
        val_targets = train_targets[i * num_val_samples: (i + 1) * num_val_samples]
        partial_train_data = np.concatenate(
            [train_data[:i * num_val_samples],
             train_data[(i + 1) * num_val_samples:]],
            axis=0)
        partial_train_targets = np.concatenate(
            [train_targets[:i * num_val_samples],
             train_targets[(i + 1) * num_val_samples:]],
            axis=0)
        model = build_model()
        history = model.fit(partial_train_data, partial_train_targets,
                            validation_data=(val_data, val_targets),
                            epochs=num_epochs, batch_size=16, verbose=0, shuffle=False)
        mae_history = history.history["val_mae"]
        all_mae_histories.append(mae_history)
        val_mse, val_mae = model.evaluate(val_data, val_targets, verbose=0)
        all_scores.append(val_mae)
    out["all_scores"] = all_scores
    out["mean_score"] = np.mean(all_scores)
    average_mae_history = [
        np.mean([x[i] for x in all_mae_histories]) for i in range(num_epochs)]
    out["average_mae_history"] = average_mae_history
    model = build_model()
    model.fit(train_data, train_targets,
              epochs=3, batch_size=16, verbose=0, shuffle=False)
    test_mse_score, test_mae_score = model.evaluate(test_data, test_targets)
    out["test_mae_score"] = test_mae_score
    predictions = model.predict(test_data)
    out["house_prediction"] = predictions[0]
    return out
