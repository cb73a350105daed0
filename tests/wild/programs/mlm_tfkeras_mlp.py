# After: https://machinelearningmastery.com/tensorflow-tutorial-deep-learning-with-tf-keras/
# ("Develop Multilayer Perceptron Models": the binary classification MLP of Dense(10) and
# Dense(8) with he_normal and a sigmoid output, compiled with adam, binary_crossentropy
# and accuracy, fit, evaluate and predict([row]) of a plain list; the multiclass MLP with
# a softmax output and sparse_categorical_crossentropy; the regression MLP with mse)
# Adapted: seeded synthetic rows in place of the ionosphere, iris and housing CSVs (read
# with pandas, labels encoded with sklearn's LabelEncoder and split with
# train_test_split: done here in NumPy), 20 epochs instead of 150 (batch 32 covers each
# training set, so fit's shuffle cannot change a step); fixed weights; the two prints of
# '%.3f' % yhat given yhat.item() (NumPy 2 no longer converts a 1x1 array there).
import numpy as np
from tensorflow.keras import Sequential
from tensorflow.keras.layers import Dense
from adapt import data, fixed_weights


def main():
    out = {}
    # ionosphere: 34 features, labels 'g'/'b'
    X = data(1, 45, 34)
    y = np.where(X[:, 2] + X[:, 5] > 0, 'g', 'b')
    X = X.astype('float32')
    classes = sorted(set(y.tolist()))
    y = np.array([classes.index(v) for v in y])
    X_train, X_test, y_train, y_test = X[:30], X[30:], y[:30], y[30:]
    n_features = X_train.shape[1]
    model = Sequential()
    model.add(Dense(10, activation='relu', kernel_initializer='he_normal', input_shape=(n_features,)))
    model.add(Dense(8, activation='relu', kernel_initializer='he_normal'))
    model.add(Dense(1, activation='sigmoid'))
    fixed_weights(model.trainable_variables, seed=2)
    model.compile(optimizer='adam', loss='binary_crossentropy', metrics=['accuracy'])
    model.fit(X_train, y_train, epochs=20, batch_size=32, verbose=0)
    loss, acc = model.evaluate(X_test, y_test, verbose=0)
    print('Test Accuracy: %.3f' % acc)
    row = [1,0,0.99539,-0.05889,0.85243,0.02306,0.83398,-0.37708,1,0.03760,0.85243,-0.17755,0.59755,-0.44945,0.60536,-0.38223,0.84356,-0.38542,0.58212,-0.32192,0.56971,-0.29674,0.36946,-0.47357,0.56811,-0.51171,0.41078,-0.46168,0.21266,-0.34090,0.42267,-0.54487,0.18641,-0.45300]
    yhat = model.predict([row])
    print('Predicted: %.3f' % yhat.item())
    out["binary"] = [loss, acc, yhat]

    # iris: 4 features, 3 species
    X = data(3, 45, 4, low=0, high=7)
    y = np.argmax(X[:, :3], axis=1)
    X_train, X_test, y_train, y_test = X[:30], X[30:], y[:30], y[30:]
    n_features = X_train.shape[1]
    model = Sequential()
    model.add(Dense(10, activation='relu', kernel_initializer='he_normal', input_shape=(n_features,)))
    model.add(Dense(8, activation='relu', kernel_initializer='he_normal'))
    model.add(Dense(3, activation='softmax'))
    fixed_weights(model.trainable_variables, seed=4)
    model.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])
    model.fit(X_train, y_train, epochs=20, batch_size=32, verbose=0)
    loss, acc = model.evaluate(X_test, y_test, verbose=0)
    print('Test Accuracy: %.3f' % acc)
    row = [5.1,3.5,1.4,0.2]
    yhat = model.predict([row])
    print('Predicted: %s (class=%d)' % (yhat, np.argmax(yhat)))
    out["multiclass"] = [loss, acc, yhat]

    # housing: 13 features, a price
    X = data(5, 45, 13, low=0, high=10)
    y = X @ np.linspace(-1, 1, 13).astype('float32') + 20
    X_train, X_test, y_train, y_test = X[:30], X[30:], y[:30], y[30:]
    n_features = X_train.shape[1]
    model = Sequential()
    model.add(Dense(10, activation='relu', kernel_initializer='he_normal', input_shape=(n_features,)))
    model.add(Dense(8, activation='relu', kernel_initializer='he_normal'))
    model.add(Dense(1))
    fixed_weights(model.trainable_variables, seed=6)
    model.compile(optimizer='adam', loss='mse')
    model.fit(X_train, y_train, epochs=20, batch_size=32, verbose=0)
    error = model.evaluate(X_test, y_test, verbose=0)
    print('MSE: %.3f, RMSE: %.3f' % (error, np.sqrt(error)))
    row = [0.00632,18.00,2.310,0,0.5380,6.5750,65.20,4.0900,1,296.0,15.30,396.90,4.98]
    yhat = model.predict([row])
    print('Predicted: %.3f' % yhat.item())
    out["regression"] = [error, yhat]
    return out
