# After: https://www.tensorflow.org/tutorials/load_data/numpy (tf.data.Dataset.
# from_tensor_slices of NumPy arrays, shuffle and batch, a Sequential of Flatten, Dense(128,
# relu) and Dense(10), compiled with RMSprop, SparseCategoricalCrossentropy(from_logits=True)
# and sparse_categorical_accuracy; fit on the dataset, evaluate)
# Adapted: 64 seeded synthetic 28x28 images in [0, 1] instead of the mnist.npz file,
# BATCH_SIZE 64 (one batch per epoch, so the shuffle cannot change a step), 3 epochs instead
# of 10; fixed weights.
import numpy as np
import tensorflow as tf
from adapt import data, fixed_weights, labels


def main():
    train_examples = data(1, 64, 28, 28, low=0.0, high=1.0)
    train_labels = labels(2, 64, 10)
    test_examples = data(3, 32, 28, 28, low=0.0, high=1.0)
    test_labels = labels(4, 32, 10)

    train_dataset = tf.data.Dataset.from_tensor_slices((train_examples, train_labels))
    test_dataset = tf.data.Dataset.from_tensor_slices((test_examples, test_labels))

    BATCH_SIZE = 64
    SHUFFLE_BUFFER_SIZE = 100

    train_dataset = train_dataset.shuffle(SHUFFLE_BUFFER_SIZE).batch(BATCH_SIZE)
    test_dataset = test_dataset.batch(BATCH_SIZE)

    model = tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(28, 28)),
        tf.keras.layers.Dense(128, activation='relu'),
        tf.keras.layers.Dense(10)
    ])
    fixed_weights(model.trainable_variables, seed=5, scale=0.1)

    model.compile(optimizer=tf.keras.optimizers.RMSprop(),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=['sparse_categorical_accuracy'])

    history = model.fit(train_dataset, epochs=3, verbose=0)
    score = model.evaluate(test_dataset, verbose=0)
    return {"history": history.history, "score": score}
