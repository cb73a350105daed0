# After: https://github.com/ageron/handson-ml2 (13_loading_and_preprocessing_data.ipynb:
# the Dataset basics (range, repeat, batch, map, unbatch, filter, take), the preprocess
# function standardizing with the training set's mean and scale, csv_reader_dataset with
# map/batch/prefetch, fit with steps_per_epoch and validation_data, evaluate and predict
# with steps, the custom loop over train_set.take(total_steps) with Nadam, mean_squared_error
# and tf.add_n([main_loss] + model.losses), both @tf.function train functions (the second
# with tf.equal and tf.print), the MNIST model with a Lambda cast, and the Standardization
# layer with adapt)
# Adapted: 448 seeded synthetic housing rows (8 features, float32 as decode_csv gives them)
# instead of California housing, their mean and scale by NumPy instead of sklearn's
# StandardScaler; csv_reader_dataset reads arrays with from_tensor_slices instead of CSV files
# (list_files, interleave, TextLineDataset, decode_csv: string tensors, data loading) and
# without its shuffle (an order of the library's own); 2 epochs instead of 10 and 5;
# synthetic 28x28 uint8 images instead of tfds's MNIST, 5 steps per epoch; fixed weights; the
# dataset shuffle demo, TFRecords, feature columns, TF Transform, TF Hub, the TensorBoard
# callback and the IMDB part left out.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import data, fixed_weights, labels


class Standardization(keras.layers.Layer):
    def adapt(self, data_sample):
        self.means_ = np.mean(data_sample, axis=0, keepdims=True)
        self.stds_ = np.std(data_sample, axis=0, keepdims=True)
    def call(self, inputs):
        return (inputs - self.means_) / (self.stds_ + keras.backend.epsilon())


def main():
    out = {}
    X = tf.range(10)
    dataset = tf.data.Dataset.from_tensor_slices(X)
    dataset = tf.data.Dataset.range(10)
    dataset = dataset.repeat(3).batch(7)
    out["batches"] = [item for item in dataset]
    dataset = dataset.map(lambda x: x * 2)
    out["doubled"] = [item for item in dataset]
    dataset = dataset.unbatch()
    dataset = dataset.filter(lambda x: x < 10)  # keep only items < 10
    out["filtered"] = [item for item in dataset.take(3)]

    housing_X, housing_y = data(1, 448, 8, low=0, high=10), data(2, 448, 1, low=0.5, high=5)
    X_train, y_train = housing_X[:320], housing_y[:320]
    X_valid, y_valid = housing_X[320:384], housing_y[320:384]
    X_test, y_test = housing_X[384:], housing_y[384:]
    X_mean = X_train.astype(np.float64).mean(axis=0)
    X_std = X_train.astype(np.float64).std(axis=0)
    train_filepaths = (X_train, y_train)
    valid_filepaths = (X_valid, y_valid)
    test_filepaths = (X_test, y_test)

    @tf.function
    def preprocess(x, y):
        return (x - X_mean) / X_std, y

    def csv_reader_dataset(filepaths, repeat=1, n_readers=5,
                           n_read_threads=None, shuffle_buffer_size=10000,
                           n_parse_threads=5, batch_size=32):
        dataset = tf.data.Dataset.from_tensor_slices(filepaths).repeat(repeat)
        dataset = dataset.map(preprocess, num_parallel_calls=n_parse_threads)
        dataset = dataset.batch(batch_size)
        return dataset.prefetch(1)

    train_set = csv_reader_dataset(train_filepaths, batch_size=3)
    out["first_batches"] = [b for b in train_set.take(2)]

    train_set = csv_reader_dataset(train_filepaths, repeat=None)
    valid_set = csv_reader_dataset(valid_filepaths)
    test_set = csv_reader_dataset(test_filepaths)

    keras.backend.clear_session()
    np.random.seed(42)
    tf.random.set_seed(42)

    model = keras.models.Sequential([
        keras.layers.Dense(30, activation="relu", input_shape=X_train.shape[1:]),
        keras.layers.Dense(1),
    ])
    fixed_weights(model.weights, seed=3, scale=0.3)
    model.compile(loss="mse", optimizer=keras.optimizers.SGD(learning_rate=1e-3))
    batch_size = 32
    history = model.fit(train_set, steps_per_epoch=len(X_train) // batch_size, epochs=2,
                        validation_data=valid_set)
    out["history"] = history.history
    out["evaluate"] = model.evaluate(test_set, steps=len(X_test) // batch_size)
    new_set = test_set.map(lambda X, y: X)
    X_new = X_test
    out["predict"] = model.predict(new_set, steps=len(X_new) // batch_size)[:5]

    optimizer = keras.optimizers.Nadam(learning_rate=0.01)
    loss_fn = keras.losses.mean_squared_error

    n_epochs = 2
    batch_size = 32
    n_steps_per_epoch = len(X_train) // batch_size
    total_steps = n_epochs * n_steps_per_epoch
    global_step = 0
    for X_batch, y_batch in train_set.take(total_steps):
        global_step += 1
        print("\rGlobal step {}/{}".format(global_step, total_steps), end="")
        with tf.GradientTape() as tape:
            y_pred = model(X_batch)
            main_loss = tf.reduce_mean(loss_fn(y_batch, y_pred))
            loss = tf.add_n([main_loss] + model.losses)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    out["loop_loss"], out["loop_weights"] = loss, model.weights

    keras.backend.clear_session()
    np.random.seed(42)
    tf.random.set_seed(42)
    optimizer = keras.optimizers.Nadam(learning_rate=0.01)
    loss_fn = keras.losses.mean_squared_error

    @tf.function
    def train(model, n_epochs, batch_size=32,
              n_readers=5, n_read_threads=5, shuffle_buffer_size=10000, n_parse_threads=5):
        train_set = csv_reader_dataset(train_filepaths, repeat=n_epochs, n_readers=n_readers,
                           n_read_threads=n_read_threads, shuffle_buffer_size=shuffle_buffer_size,
                           n_parse_threads=n_parse_threads, batch_size=batch_size)
        for X_batch, y_batch in train_set:
            with tf.GradientTape() as tape:
                y_pred = model(X_batch)
                main_loss = tf.reduce_mean(loss_fn(y_batch, y_pred))
                loss = tf.add_n([main_loss] + model.losses)
            gradients = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(gradients, model.trainable_variables))

    train(model, 2)
    out["tf_function_weights"] = model.weights

    keras.backend.clear_session()
    np.random.seed(42)
    tf.random.set_seed(42)
    optimizer = keras.optimizers.Nadam(learning_rate=0.01)
    loss_fn = keras.losses.mean_squared_error

    @tf.function
    def train(model, n_epochs, batch_size=32,
              n_readers=5, n_read_threads=5, shuffle_buffer_size=10000, n_parse_threads=5):
        train_set = csv_reader_dataset(train_filepaths, repeat=n_epochs, n_readers=n_readers,
                           n_read_threads=n_read_threads, shuffle_buffer_size=shuffle_buffer_size,
                           n_parse_threads=n_parse_threads, batch_size=batch_size)
        n_steps_per_epoch = len(X_train) // batch_size
        total_steps = n_epochs * n_steps_per_epoch
        global_step = 0
        for X_batch, y_batch in train_set.take(total_steps):
            global_step += 1
            if tf.equal(global_step % 100, 0):
                tf.print("\rGlobal step", global_step, "/", total_steps)
            with tf.GradientTape() as tape:
                y_pred = model(X_batch)
                main_loss = tf.reduce_mean(loss_fn(y_batch, y_pred))
                loss = tf.add_n([main_loss] + model.losses)
            gradients = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(gradients, model.trainable_variables))

    train(model, 2)
    out["tf_function_weights_2"] = model.weights

    keras.backend.clear_session()
    np.random.seed(42)
    tf.random.set_seed(42)
    images = data(4, 160, 28, 28, 1, low=0, high=255).round().astype(np.uint8)
    image_labels = labels(5, 160, 10).astype(np.int64)
    mnist_train = tf.data.Dataset.from_tensor_slices((images, image_labels)).batch(32)
    mnist_train = mnist_train.repeat().prefetch(1)
    model = keras.models.Sequential([
        keras.layers.Flatten(input_shape=[28, 28, 1]),
        keras.layers.Lambda(lambda images: tf.cast(images, tf.float32)),
        keras.layers.Dense(10, activation="softmax")])
    fixed_weights(model.weights, seed=6, scale=0.01)
    model.compile(loss="sparse_categorical_crossentropy",
                  optimizer=keras.optimizers.SGD(learning_rate=1e-3),
                  metrics=["accuracy"])
    out["mnist_history"] = model.fit(mnist_train, steps_per_epoch=160 // 32,
                                     epochs=2).history

    keras.backend.clear_session()
    tf.random.set_seed(42)
    np.random.seed(42)
    train_set = mnist_train.map(lambda image, label: (tf.cast(image, tf.float32)[..., 0],
                                                       label))
    valid_set = tf.data.Dataset.from_tensor_slices(
        (images[:32, ..., 0].astype(np.float32), image_labels[:32])).batch(32)
    standardization = Standardization(input_shape=[28, 28])
    sample_image_batches = train_set.take(5).map(lambda image, label: image)
    sample_images = np.concatenate(list(sample_image_batches.as_numpy_iterator()),
                                   axis=0).astype(np.float32)
    standardization.adapt(sample_images)

    model = keras.models.Sequential([
        standardization,
        keras.layers.Flatten(),
        keras.layers.Dense(100, activation="relu"),
        keras.layers.Dense(10, activation="softmax")
    ])
    model.build(input_shape=(None, 28, 28))
    fixed_weights(model.weights, seed=7, scale=0.05)
    model.compile(loss="sparse_categorical_crossentropy",
                  optimizer="nadam", metrics=["accuracy"])
    out["standardization_history"] = model.fit(
        train_set, epochs=2, steps_per_epoch=5, validation_data=valid_set).history
    return out
