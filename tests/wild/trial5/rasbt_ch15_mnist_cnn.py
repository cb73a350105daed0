# After: https://github.com/rasbt/python-machine-learning-book-3rd-edition (ch15/ch15_part1.py:
# the TensorFlow part: MNIST items mapped to float images / 255.0 and int32 labels, split by
# take/skip and batched, the Sequential CNN of Conv2D(32, 5x5, 'same'), MaxPool2D, Conv2D(64),
# MaxPool2D, Flatten, Dense(1024), Dropout(0.5), Dense(10, softmax) with
# compute_output_shape, build and summary, compiled with Adam and
# SparseCategoricalCrossentropy, fit with validation_data, evaluate on the test set, the
# argmax predictions of a batch of 12, and model.save to HDF5)
# Adapted: 96 seeded synthetic 28x28x1 uint8 images with int64 labels in a dict of 'image'
# and 'label' as Dataset.from_tensor_slices instead of tfds's MNIST, and 24 as the test
# split; the split's shuffle (reshuffle_each_iteration=False, whose order decides the
# batches) replaced by a permutation drawn by seeded NumPy; take(32)/skip(32) instead of
# take(10000)/skip(10000) for the smaller data (one training batch of 64); 2 epochs
# instead of 20; fixed weights after build; Dropout left out (its random mask makes the
# answers irreproducible); the HDF5 file written into a temporary folder; the NumPy
# convolution demos before the TensorFlow part and the plots left out.
import os
import tempfile
import numpy as np
import tensorflow as tf
from adapt import data, fixed_weights, labels


def main():
    out = {}
    order = np.random.default_rng(9).permutation(96)
    images = data(1, 96, 28, 28, 1, low=0, high=255).round().astype(np.uint8)[order]
    image_labels = labels(2, 96, 10).astype(np.int64)[order]
    datasets = {
        'train': tf.data.Dataset.from_tensor_slices({'image': images, 'label': image_labels}),
        'test': tf.data.Dataset.from_tensor_slices(
            {'image': data(3, 24, 28, 28, 1, low=0, high=255).round().astype(np.uint8),
             'label': labels(4, 24, 10).astype(np.int64)}),
    }
    print(datasets.keys())
    mnist_train_orig, mnist_test_orig = datasets['train'], datasets['test']

    BUFFER_SIZE = 10000
    BATCH_SIZE = 64
    NUM_EPOCHS = 2

    mnist_train = mnist_train_orig.map(
        lambda item: (tf.cast(item['image'], tf.float32)/255.0, 
                      tf.cast(item['label'], tf.int32)))

    mnist_test = mnist_test_orig.map(
        lambda item: (tf.cast(item['image'], tf.float32)/255.0, 
                      tf.cast(item['label'], tf.int32)))

    tf.random.set_seed(1)

    mnist_valid = mnist_train.take(32).batch(BATCH_SIZE)
    mnist_train = mnist_train.skip(32).batch(BATCH_SIZE)

    model = tf.keras.Sequential()

    model.add(tf.keras.layers.Conv2D(
        filters=32, kernel_size=(5, 5),
        strides=(1, 1), padding='same',
        data_format='channels_last',
        name='conv_1', activation='relu'))

    model.add(tf.keras.layers.MaxPool2D(
        pool_size=(2, 2), name='pool_1'))
        
    model.add(tf.keras.layers.Conv2D(
        filters=64, kernel_size=(5, 5),
        strides=(1, 1), padding='same',
        name='conv_2', activation='relu'))

    model.add(tf.keras.layers.MaxPool2D(pool_size=(2, 2), name='pool_2'))

    out["shape_pooled"] = list(model.compute_output_shape(input_shape=(16, 28, 28, 1)))

    model.add(tf.keras.layers.Flatten())
        
    out["shape_flat"] = list(model.compute_output_shape(input_shape=(16, 28, 28, 1)))

    model.add(tf.keras.layers.Dense(
        units=1024, name='fc_1', 
        activation='relu'))

    model.add(tf.keras.layers.Dense(
        units=10, name='fc_2',
        activation='softmax'))

    tf.random.set_seed(1)
    model.build(input_shape=(None, 28, 28, 1))
    fixed_weights(model.weights, seed=5, scale=0.05)

    out["shape_out"] = list(model.compute_output_shape(input_shape=(16, 28, 28, 1)))

    model.summary()

    model.compile(optimizer=tf.keras.optimizers.Adam(),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(),
                  metrics=['accuracy']) # same as `tf.keras.metrics.SparseCategoricalAccuracy(name='accuracy')`

    history = model.fit(mnist_train, epochs=NUM_EPOCHS, 
                        validation_data=mnist_valid, 
                        shuffle=True)
    hist = history.history
    out["history"] = hist

    test_results = model.evaluate(mnist_test.batch(20))
    print('\nTest Acc. {:.2f}%'.format(test_results[1]*100))
    out["test"] = test_results

    batch_test = next(iter(mnist_test.batch(12)))

    preds = model(batch_test[0])

    tf.print(preds.shape)
    out["probs"] = preds[:3]
    preds = tf.argmax(preds, axis=1)
    print(preds)
    out["preds"] = preds

    folder = tempfile.mkdtemp()
    if not os.path.exists(os.path.join(folder, 'models')):
        os.mkdir(os.path.join(folder, 'models'))
    model.save(os.path.join(folder, 'models/mnist-cnn.h5'))
    out["saved"] = os.path.exists(os.path.join(folder, 'models/mnist-cnn.h5'))
    return out
