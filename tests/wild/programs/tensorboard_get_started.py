# After: https://www.tensorflow.org/tensorboard/get_started (the TensorBoard callback of
# model.fit with histogram_freq=1, then tf.summary.create_file_writer and
# tf.summary.scalar in a GradientTape training loop, train and test writers)
# Adapted: 48 seeded synthetic 28x28 images in place of MNIST, 32 units instead of 512,
# Dropout rate 0 (its random mask is not reproducible across frameworks), fixed starting
# weights, two epochs, no shuffling, the logs in a temporary directory instead of ./logs.
# Recording it needs tensorboard beside TensorFlow (tf.summary's functions live there).
import datetime
import os
import tempfile

import numpy as np
import tensorflow as tf

from adapt import data, fixed_weights, labels


def main():
    logs = tempfile.mkdtemp()
    x_train, y_train = data(0, 48, 28, 28, low=0, high=1), labels(1, 48, 10)
    x_test, y_test = data(2, 16, 28, 28, low=0, high=1), labels(3, 16, 10)

    def create_model():
        model = tf.keras.models.Sequential([
            tf.keras.layers.Flatten(input_shape=(28, 28), name='layers_flatten'),
            tf.keras.layers.Dense(32, activation='relu', name='layers_dense'),
            tf.keras.layers.Dropout(0.0, name='layers_dropout'),
            tf.keras.layers.Dense(10, activation='softmax', name='layers_dense_2')
        ])
        fixed_weights(model.trainable_variables, scale=0.1)
        return model

    model = create_model()
    model.compile(optimizer='adam',
                  loss='sparse_categorical_crossentropy',
                  metrics=['accuracy'])

    log_dir = os.path.join(logs, "fit", datetime.datetime.now().strftime("%Y%m%d-%H%M%S"))
    tensorboard_callback = tf.keras.callbacks.TensorBoard(log_dir=log_dir, histogram_freq=1)

    history = model.fit(x=x_train, y=y_train, epochs=2, batch_size=16, shuffle=False,
                        validation_data=(x_test, y_test), callbacks=[tensorboard_callback],
                        verbose=0)
    fit_runs = sorted(os.listdir(log_dir))

    train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
    test_dataset = tf.data.Dataset.from_tensor_slices((x_test, y_test))
    train_dataset = train_dataset.batch(16)
    test_dataset = test_dataset.batch(16)

    loss_object = tf.keras.losses.SparseCategoricalCrossentropy()
    optimizer = tf.keras.optimizers.Adam()

    # Define our metrics
    train_loss = tf.keras.metrics.Mean('train_loss', dtype=tf.float32)
    train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy('train_accuracy')
    test_loss = tf.keras.metrics.Mean('test_loss', dtype=tf.float32)
    test_accuracy = tf.keras.metrics.SparseCategoricalAccuracy('test_accuracy')

    def train_step(model, optimizer, x_train, y_train):
        with tf.GradientTape() as tape:
            predictions = model(x_train, training=True)
            loss = loss_object(y_train, predictions)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))

        train_loss(loss)
        train_accuracy(y_train, predictions)

    def test_step(model, x_test, y_test):
        predictions = model(x_test)
        loss = loss_object(y_test, predictions)

        test_loss(loss)
        test_accuracy(y_test, predictions)

    current_time = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    train_log_dir = os.path.join(logs, 'gradient_tape', current_time, 'train')
    test_log_dir = os.path.join(logs, 'gradient_tape', current_time, 'test')
    train_summary_writer = tf.summary.create_file_writer(train_log_dir)
    test_summary_writer = tf.summary.create_file_writer(test_log_dir)

    model = create_model()  # reset our model

    EPOCHS = 2
    written, losses = [], []
    for epoch in range(EPOCHS):
        for (x_train, y_train) in train_dataset:
            train_step(model, optimizer, x_train, y_train)
        with train_summary_writer.as_default():
            written.append(tf.summary.scalar('loss', train_loss.result(), step=epoch))
            written.append(tf.summary.scalar('accuracy', train_accuracy.result(), step=epoch))

        for (x_test, y_test) in test_dataset:
            test_step(model, x_test, y_test)
        with test_summary_writer.as_default():
            written.append(tf.summary.scalar('loss', test_loss.result(), step=epoch))
            written.append(tf.summary.scalar('accuracy', test_accuracy.result(), step=epoch))

        template = 'Epoch {}, Loss: {}, Accuracy: {}, Test Loss: {}, Test Accuracy: {}'
        print(template.format(epoch + 1,
                              train_loss.result(),
                              train_accuracy.result() * 100,
                              test_loss.result(),
                              test_accuracy.result() * 100))
        losses.append([float(train_loss.result()), float(test_loss.result())])

        # Reset metrics every epoch
        train_loss.reset_states()
        test_loss.reset_states()
        train_accuracy.reset_states()
        test_accuracy.reset_states()

    files = [len(os.listdir(os.path.join(log_dir, run))) for run in fit_runs] + [
        len(os.listdir(d)) for d in (train_log_dir, test_log_dir)]
    return {"fit_loss": history.history["loss"], "fit_val_loss": history.history["val_loss"],
            "fit_runs": fit_runs, "files": files, "written": written, "losses": losses,
            "weights": model.trainable_variables[-1]}
