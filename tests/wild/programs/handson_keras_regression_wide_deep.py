# After: https://github.com/ageron/handson-ml2 (10_neural_nets_with_keras.ipynb: "Building a
# Regression MLP Using the Sequential API" (fit with SGD(learning_rate=1e-3), evaluate,
# predict), "Functional API" (the Wide & Deep model with keras.layers.concatenate; two
# inputs; two outputs with loss_weights), "Using the Subclassing API" (WideAndDeepModel),
# and "Using Callbacks" (EarlyStopping(patience=10, restore_best_weights=True) and the
# PrintValTrainRatioCallback))
# Adapted: 120 seeded synthetic rows of 8 standardized features instead of California
# housing, split 80/20/20; 3 epochs with batch_size 80 (one batch per epoch); fixed weights;
# np.random.seed(42) kept; the sections that save to and load from files left out.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import data, fixed_weights


class WideAndDeepModel(keras.models.Model):
    def __init__(self, units=30, activation="relu", **kwargs):
        super().__init__(**kwargs)
        self.hidden1 = keras.layers.Dense(units, activation=activation)
        self.hidden2 = keras.layers.Dense(units, activation=activation)
        self.main_output = keras.layers.Dense(1)
        self.aux_output = keras.layers.Dense(1)

    def call(self, inputs):
        input_A, input_B = inputs
        hidden1 = self.hidden1(input_B)
        hidden2 = self.hidden2(hidden1)
        concat = keras.layers.concatenate([input_A, hidden2])
        main_output = self.main_output(concat)
        aux_output = self.aux_output(hidden2)
        return main_output, aux_output


class PrintValTrainRatioCallback(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs):
        print("\nval/train: {:.2f}".format(logs["val_loss"] / logs["loss"]))


def main():
    np.random.seed(42)
    tf.random.set_seed(42)
    X = data(1, 120, 8, low=-2.0, high=2.0)
    y = (X[:, 0] * 1.5 - X[:, 1] + np.sin(X[:, 2]) + 2.0).astype(np.float32)
    X_train, y_train = X[:80], y[:80]
    X_valid, y_valid = X[80:100], y[80:100]
    X_test, y_test = X[100:], y[100:]

    model = keras.models.Sequential([
        keras.layers.Dense(30, activation="relu", input_shape=X_train.shape[1:]),
        keras.layers.Dense(1)
    ])
    fixed_weights(model.trainable_variables, seed=2)
    model.compile(loss="mean_squared_error", optimizer=keras.optimizers.SGD(learning_rate=1e-3))
    history = model.fit(X_train, y_train, epochs=3, batch_size=80, validation_data=(X_valid, y_valid), verbose=0)
    mse_test = model.evaluate(X_test, y_test, verbose=0)
    X_new = X_test[:3]
    y_pred = model.predict(X_new, verbose=0)
    results = {"sequential": history.history, "mse_test": mse_test, "y_pred": y_pred}

    input_ = keras.layers.Input(shape=X_train.shape[1:])
    hidden1 = keras.layers.Dense(30, activation="relu")(input_)
    hidden2 = keras.layers.Dense(30, activation="relu")(hidden1)
    concat = keras.layers.concatenate([input_, hidden2])
    output = keras.layers.Dense(1)(concat)
    model = keras.models.Model(inputs=[input_], outputs=[output])
    fixed_weights(model.trainable_variables, seed=3)
    model.compile(loss="mean_squared_error", optimizer=keras.optimizers.SGD(learning_rate=1e-3))
    history = model.fit(X_train, y_train, epochs=3, batch_size=80, validation_data=(X_valid, y_valid), verbose=0)
    results["wide_deep"] = history.history

    input_A = keras.layers.Input(shape=[5], name="wide_input")
    input_B = keras.layers.Input(shape=[6], name="deep_input")
    hidden1 = keras.layers.Dense(30, activation="relu")(input_B)
    hidden2 = keras.layers.Dense(30, activation="relu")(hidden1)
    concat = keras.layers.concatenate([input_A, hidden2])
    output = keras.layers.Dense(1, name="output")(concat)
    aux_output = keras.layers.Dense(1, name="aux_output")(hidden2)
    model = keras.models.Model(inputs=[input_A, input_B],
                               outputs=[output, aux_output])
    fixed_weights(model.trainable_variables, seed=4)
    model.compile(loss=["mse", "mse"], loss_weights=[0.9, 0.1], optimizer=keras.optimizers.SGD(learning_rate=1e-3))
    X_train_A, X_train_B = X_train[:, :5], X_train[:, 2:]
    X_valid_A, X_valid_B = X_valid[:, :5], X_valid[:, 2:]
    X_test_A, X_test_B = X_test[:, :5], X_test[:, 2:]
    history = model.fit([X_train_A, X_train_B], [y_train, y_train], epochs=3, batch_size=80,
                        validation_data=([X_valid_A, X_valid_B], [y_valid, y_valid]), verbose=0)
    total_loss, main_loss, aux_loss = model.evaluate(
        [X_test_A, X_test_B], [y_test, y_test], verbose=0)
    results["two_outputs"] = history.history
    results["evaluate"] = [total_loss, main_loss, aux_loss]

    model = WideAndDeepModel(30, activation="relu")
    model.compile(loss="mse", loss_weights=[0.9, 0.1], optimizer=keras.optimizers.SGD(learning_rate=1e-3))
    model((X_train_A[:1], X_train_B[:1]))
    fixed_weights(model.trainable_variables, seed=5)
    history = model.fit((X_train_A, X_train_B), (y_train, y_train), epochs=3, batch_size=80,
                        validation_data=((X_valid_A, X_valid_B), (y_valid, y_valid)), verbose=0)
    total_loss, main_loss, aux_loss = model.evaluate((X_test_A, X_test_B), (y_test, y_test), verbose=0)
    y_pred_main, y_pred_aux = model.predict((X_new[:, :5], X_new[:, 2:]), verbose=0)
    results["subclassed"] = history.history
    results["subclassed_evaluate"] = [total_loss, main_loss, aux_loss]
    results["y_pred_main"] = y_pred_main

    model = keras.models.Sequential([
        keras.layers.Dense(30, activation="relu", input_shape=[8]),
        keras.layers.Dense(1)
    ])
    fixed_weights(model.trainable_variables, seed=6)
    model.compile(loss="mse", optimizer=keras.optimizers.SGD(learning_rate=1e-3))
    early_stopping_cb = keras.callbacks.EarlyStopping(patience=10,
                                                      restore_best_weights=True)
    val_train_ratio_cb = PrintValTrainRatioCallback()
    history = model.fit(X_train, y_train, epochs=3, batch_size=80,
                        validation_data=(X_valid, y_valid),
                        callbacks=[early_stopping_cb, val_train_ratio_cb], verbose=0)
    results["callbacks"] = history.history
    results["callbacks_mse_test"] = model.evaluate(X_test, y_test, verbose=0)
    return results
