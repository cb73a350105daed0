# After: https://github.com/rasbt/python-machine-learning-book-3rd-edition (ch13/ch13_part2.py:
# the linear regression MyModel(tf.keras.Model) with two scalar tf.Variables, build and
# summary, loss_fn, train() with a GradientTape and assign_sub, the loop over a repeated
# batch(1) tf.data pipeline, then the same model compiled with 'sgd', loss_fn and
# metrics=['mae', 'mse'] and fit; the Iris MLP of Dense(16, sigmoid) and Dense(3, softmax)
# compiled with adam and sparse_categorical_crossentropy, fit on a repeated, batched,
# prefetched dataset with steps_per_epoch, evaluate, saved to HDF5 and reloaded with
# load_model, evaluated again, and to_json; the softmax/tanh/sigmoid/relu activations)
# Adapted: 150 seeded synthetic Iris rows (4 features, labels 0-2) as a
# Dataset.from_tensor_slices of a dict of 'features' and 'label' instead of tfds.load('iris');
# the shuffles whose order decides the steps (ds_train_orig.shuffle, ds_orig.shuffle with
# reshuffle_each_iteration=False, the Iris training shuffle, and fit's own with
# batch_size=1) replaced by one permutation drawn by seeded NumPy (shuffle=False for fit);
# 20 epochs instead of 200 for the regression and 3 instead of 100 for Iris; fixed weights
# for the Iris model; the HDF5 file written into a temporary folder; the plots and the
# appendix on splitting (tfds.Split, order-dependent sets) left out.
import os
import tempfile
import tensorflow as tf
import numpy as np
from adapt import data, fixed_weights, labels


class MyModel(tf.keras.Model):
    def __init__(self):
        super(MyModel, self).__init__()
        self.w = tf.Variable(0.0, name='weight')
        self.b = tf.Variable(0.0, name='bias')

    def call(self, x):
        return self.w*x + self.b


def loss_fn(y_true, y_pred):
    return tf.reduce_mean(tf.square(y_true - y_pred))


def train(model, inputs, outputs, learning_rate):
    with tf.GradientTape() as tape:
        current_loss = loss_fn(model(inputs), outputs)
    dW, db = tape.gradient(current_loss, [model.w, model.b])
    model.w.assign_sub(learning_rate * dW)
    model.b.assign_sub(learning_rate * db)


def main():
    out = {}
    perm_rng = np.random.default_rng(11)
    X_train = np.arange(10).reshape((10, 1))
    y_train = np.array([1.0, 1.3, 3.1,
                        2.0, 5.0, 6.3,
                        6.6, 7.4, 8.0,
                        9.0])

    X_train_norm = (X_train - np.mean(X_train))/np.std(X_train)
    order = perm_rng.permutation(len(y_train))

    ds_train_orig = tf.data.Dataset.from_tensor_slices(
        (tf.cast(X_train_norm[order], tf.float32),
         tf.cast(y_train[order], tf.float32)))

    model = MyModel()

    model.build(input_shape=(None, 1))
    model.summary()

    ## testing the function:
    yt = tf.convert_to_tensor([1.0])
    yp = tf.convert_to_tensor([1.5])

    out["loss_test"] = loss_fn(yt, yp)

    tf.random.set_seed(1)

    num_epochs = 20
    log_steps = 100
    learning_rate = 0.001
    batch_size = 1
    steps_per_epoch = int(np.ceil(len(y_train) / batch_size))

    ds_train = ds_train_orig
    ds_train = ds_train.repeat(count=None)
    ds_train = ds_train.batch(1)

    Ws, bs = [], []

    for i, batch in enumerate(ds_train):
        if i >= steps_per_epoch * num_epochs:
            break
        Ws.append(model.w.numpy())
        bs.append(model.b.numpy())

        bx, by = batch
        loss_val = loss_fn(model(bx), by)

        train(model, bx, by, learning_rate=learning_rate)
        if i%log_steps==0:
            print('Epoch {:4d} Step {:2d} Loss {:6.4f}'.format(
                  int(i/steps_per_epoch), i, loss_val))

    print('Final Parameters:', model.w.numpy(), model.b.numpy())
    out["Ws"], out["bs"] = Ws, bs

    X_test = np.linspace(0, 9, num=100).reshape(-1, 1)
    X_test_norm = (X_test - np.mean(X_train)) / np.std(X_train)

    y_pred = model(tf.cast(X_test_norm, dtype=tf.float32))
    out["y_pred"] = y_pred

    tf.random.set_seed(1)
    model = MyModel()
    #model.build((None, 1))

    model.compile(optimizer='sgd', 
                  loss=loss_fn,
                  metrics=['mae', 'mse'])

    out["fit"] = model.fit(X_train_norm[order], y_train[order], 
              epochs=num_epochs, batch_size=batch_size,
              verbose=1, shuffle=False).history

    print(model.w.numpy(), model.b.numpy())
    out["fit_params"] = [model.w.numpy(), model.b.numpy()]

    X_test = np.linspace(0, 9, num=100).reshape(-1, 1)
    X_test_norm = (X_test - np.mean(X_train)) / np.std(X_train)

    y_pred = model(tf.cast(X_test_norm, dtype=tf.float32))
    out["fit_pred"] = y_pred

    features = data(1, 150, 4, low=0.1, high=7.9)
    label = labels(2, 150, 3).astype(np.int64)
    iris_order = perm_rng.permutation(150)
    iris = {'train': tf.data.Dataset.from_tensor_slices(
        {'features': features[iris_order], 'label': label[iris_order]})}

    tf.random.set_seed(1)

    ds_orig = iris['train']

    print(next(iter(ds_orig)))

    ds_train_orig = ds_orig.take(100)
    ds_test = ds_orig.skip(100)

    ## checking the number of examples:

    n = 0
    for example in ds_train_orig:
        n += 1
    print(n)

    n = 0
    for example in ds_test:
        n += 1
    print(n)
    out["sizes"] = [n]

    ds_train_orig = ds_train_orig.map(
        lambda x: (x['features'], x['label']))

    ds_test = ds_test.map(
        lambda x: (x['features'], x['label']))

    out["first"] = list(next(iter(ds_train_orig)))

    iris_model = tf.keras.Sequential([
        tf.keras.layers.Dense(16, activation='sigmoid', 
                              name='fc1', input_shape=(4,)),
        tf.keras.layers.Dense(3, name='fc2', activation='softmax')])
    fixed_weights(iris_model.weights, seed=3, scale=0.5)

    iris_model.summary()

    iris_model.compile(optimizer='adam',
                       loss='sparse_categorical_crossentropy',
                       metrics=['accuracy'])

    num_epochs = 3
    training_size = 100
    batch_size = 2
    steps_per_epoch = np.ceil(training_size / batch_size)

    ds_train = ds_train_orig
    ds_train = ds_train.repeat()
    ds_train = ds_train.batch(batch_size=batch_size)
    ds_train = ds_train.prefetch(buffer_size=1000)

    history = iris_model.fit(ds_train, epochs=num_epochs,
                             steps_per_epoch=steps_per_epoch, 
                             verbose=0)

    hist = history.history
    out["iris_history"] = hist

    results = iris_model.evaluate(ds_test.batch(50), verbose=0)
    print('Test loss: {:.4f}   Test Acc.: {:.4f}'.format(*results))
    out["iris_eval"] = results

    folder = tempfile.mkdtemp()
    iris_model.save(os.path.join(folder, 'iris-classifier.h5'), 
                    overwrite=True,
                    include_optimizer=True,
                    save_format='h5')

    iris_model_new = tf.keras.models.load_model(os.path.join(folder, 'iris-classifier.h5'))

    iris_model_new.summary()

    results = iris_model_new.evaluate(ds_test.batch(50), verbose=0)
    print('Test loss: {:.4f}   Test Acc.: {:.4f}'.format(*results))
    out["reloaded_eval"] = results

    labels_train = []
    for i,item in enumerate(ds_train_orig):
        labels_train.append(item[1].numpy())
    labels_test = []
    for i,item in enumerate(ds_test):
        labels_test.append(item[1].numpy())
    print('Training Set: ',len(labels_train), 'Test Set: ', len(labels_test))
    out["label_counts"] = [len(labels_train), len(labels_test)]

    iris_model_new.to_json()

    W = np.array([[1.1, 1.2, 0.8, 0.4],
                  [0.2, 0.4, 1.0, 0.2],
                  [0.6, 1.5, 1.2, 0.7]])
    A = np.array([[1, 0.1, 0.4, 0.6]])
    Z = np.dot(W, A[0])
    Z_tensor = tf.expand_dims(Z, axis=0)
    out["softmax"] = tf.keras.activations.softmax(Z_tensor)
    z = np.arange(-5, 5, 0.005)
    out["tanh"] = tf.keras.activations.tanh(z)[::100]
    out["sigmoid"] = tf.keras.activations.sigmoid(z)[::100]
    out["relu"] = tf.keras.activations.relu(z)[::100]
    return out
